import { createHash } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StreamedText } from '../../src/tools/files/streamed-text.js';
import fileWrite from '../../src/tools/files/write.js';
import { toolContext } from '../helpers/file-fixtures.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let cwd: string;
beforeEach(() => {
  cwd = realpathSync(tempDir('zhi-sw-'));
});
afterEach(() => cleanup(cwd));

const pieces = ['# 译文\n\n', 'Part one, 第一部分。', '\n\n', 'Part two.'];
const streamed = () =>
  new StreamedText(async function* () {
    yield* pieces;
  });

describe('file_write with streamed content (a long document joined from its parts)', () => {
  it('writes the bytes a string would, and tells the write hook the same size and hash', async () => {
    const seen: { sha256: string; bytes: number }[] = [];
    const write = async (path: string, content: unknown) => {
      const ctx = {
        ...toolContext({ cwd, outputDir: cwd }),
        beforeWrite: async (f: (typeof seen)[0]) => void seen.push(f),
      };
      const said = await fileWrite.execute({ path, content } as never, ctx);
      return { said, bytes: readFileSync(join(cwd, path)) };
    };
    const fromString = await write('a.md', pieces.join(''));
    const fromStream = await write('b.md', streamed());
    expect(fromStream.bytes.equals(fromString.bytes)).toBe(true);
    expect(fromStream.bytes.toString('utf8').endsWith('Part two.\n')).toBe(true);
    expect({ ...seen[1], abs: '' }).toEqual({ ...seen[0], abs: '' });
    expect(seen[1]!.sha256).toBe(createHash('sha256').update(fromStream.bytes).digest('hex'));
    expect(String(fromStream.said).replace('b.md', 'a.md')).toBe(fromString.said);
  });

  it('a format built whole (CSV) gets the whole text', async () => {
    const ctx = toolContext({ cwd, outputDir: cwd });
    const csv = new StreamedText(async function* () {
      yield* ['name,amount\n', '张三,100\n', '李四,200'];
    });
    const said = await fileWrite.execute({ path: 'c.csv', content: csv } as never, ctx);
    expect(said).toMatch(/Wrote c\.csv/);
    expect(readFileSync(join(cwd, 'c.csv'), 'utf8')).toContain('李四,200');
  });
});
