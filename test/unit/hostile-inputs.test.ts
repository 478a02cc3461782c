import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readDocument } from '../../src/tools/files/readers/index.js';
import { DocumentError } from '../../src/tools/files/readers/types.js';
import { MAX_STRING_XML, SharedStrings } from '../../src/tools/files/readers/xlsx-parts.js';
import { MAX_PART_BYTES, MAX_TOTAL_BYTES, partProblem } from '../../src/tools/files/readers/zip.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

describe('zip parts: bounded inflation for every zip-based format', () => {
  it('refuses a part that inflates hundreds of times (1.1 MB → 480 MB of shared strings)', () => {
    expect(partProblem(480 * 1024 * 1024, 1.1 * 1024 * 1024, 0)).toMatch(/inflate/);
    expect(partProblem(40 * 1024 * 1024, 100 * 1024, 0)).toMatch(/zip bomb/);
  });

  it('refuses a part over the part cap and parts over the total cap', () => {
    expect(partProblem(MAX_PART_BYTES + 1, MAX_PART_BYTES, 0)).toMatch(/at most/);
    expect(partProblem(100 * 1024 * 1024, 20 * 1024 * 1024, MAX_TOTAL_BYTES - 1024)).toMatch(/together/);
  });

  it('a part only streamed (a million-row sheet) is bounded by the bomb ratio, not the part caps', () => {
    expect(partProblem(700 * 1024 * 1024, 44 * 1024 * 1024, MAX_TOTAL_BYTES, true)).toBeUndefined();
    expect(partProblem(700 * 1024 * 1024, 1024 * 1024, 0, true)).toMatch(/zip bomb/);
  });

  it('a shared string of 5 MB streams past in chunks: cut, its followers still read, no rescans', async () => {
    const huge = 'x'.repeat(5 * 1024 * 1024);
    const xml = Buffer.from(
      `<sst><si><t>first</t></si><si><t>${huge}</t></si><si><t>after &amp; all</t></si></sst>`,
    );
    async function* chunks() {
      for (let at = 0; at < xml.length; at += 64 * 1024) yield xml.subarray(at, at + 64 * 1024);
    }
    const strings = new SharedStrings(chunks());
    await strings.ensure(2);
    expect(strings.get(0)).toBe('first');
    expect(strings.get(1)!.length).toBeLessThan(MAX_STRING_XML + 200);
    expect(strings.get(1)).toMatch(
      /^x+ \[… cut: this cell holds far more text than Excel allows in a cell\]$/,
    );
    expect(strings.get(2)).toBe('after & all');
  });

  it('lets ordinary Office parts through (21 MB of shared strings compressed 8 times)', () => {
    expect(partProblem(21 * 1024 * 1024, 2.6 * 1024 * 1024, 0)).toBeUndefined();
    expect(partProblem(300_000, 1000, 0)).toBeUndefined();
  });
});

const hasMkfifo = process.platform !== 'win32';

describe.runIf(hasMkfifo)('special files are refused as inputs, never opened', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('zhi-fifo-');
  });
  afterEach(() => cleanup(dir));

  it('a named pipe ends at once with a clear error instead of waiting forever', async () => {
    const fifo = join(dir, 'input.txt');
    execFileSync('mkfifo', [fifo]);
    const err = await readDocument(fifo).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DocumentError);
    expect((err as DocumentError).code).toBe('not_regular');
  });

  it('a device is refused the same way', async () => {
    const err = await readDocument('/dev/zero').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as DocumentError).code).toBe('not_regular');
  });
});
