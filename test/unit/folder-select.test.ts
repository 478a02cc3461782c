import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { outputsToSkip } from '../../src/agent/skills/steps.js';
import { listFolder } from '../../src/skills/folder.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let dir: string;
afterEach(() => cleanup(dir));

function tree(): void {
  dir = tempDir('zhi-select-');
  for (const rel of ['a.txt', 'sub/b.txt', 'zhi-output/a-summary.txt', 'out/deep/c.txt']) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), 'x');
  }
}

describe('folder runs never take their own outputs as inputs', () => {
  it('listFolder does not walk into a skipped folder', async () => {
    tree();
    const { files } = await listFolder(dir, {
      extensions: ['txt'],
      recursive: true,
      skip: [join(dir, 'zhi-output'), join(dir, 'out')],
    });
    expect(files).toEqual([join(dir, 'a.txt'), join(dir, 'sub', 'b.txt')]);
  });

  it('the output folder is skipped wherever it is, unless the person named it (or a folder in it)', () => {
    tree();
    expect(outputsToSkip(dir, join(dir, 'zhi-output'))).toEqual([join(dir, 'zhi-output')]);
    expect(outputsToSkip(dir, join(dir, 'out', 'deep'))).toEqual([join(dir, 'out', 'deep')]);
    expect(outputsToSkip(join(dir, 'zhi-output'), join(dir, 'zhi-output'))).toEqual([]);
    expect(outputsToSkip(join(dir, 'out', 'deep'), join(dir, 'out'))).toEqual([]);
    // A sibling whose name starts the same is not inside it.
    expect(outputsToSkip(join(dir, 'zhi-output2'), join(dir, 'zhi-output'))).toEqual([
      join(dir, 'zhi-output'),
    ]);
  });
});
