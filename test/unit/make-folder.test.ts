import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { folderProblem, makeFolder, makeFolderSync, removeIfEmpty } from '../../src/support/make-folder.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});
/** A temporary folder of this test, removed after it. */
function newRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'zhi-mk-'));
  roots.push(root);
  return root;
}

describe('makeFolder', () => {
  it.runIf(process.platform === 'linux')('fails under /proc instead of retrying forever', async () => {
    await expect(makeFolder('/proc/zhi-out/a')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(() => makeFolderSync('/proc/zhi-out')).toThrow(/ENOENT/);
    expect(folderProblem('/proc/zhi-out')?.code).toBe('ENOENT');
  });

  it('creates missing levels, says which was the first, and names a file in the way', async () => {
    const root = newRoot();
    expect(await makeFolder(join(root, 'a', 'b'))).toBe(join(root, 'a'));
    expect(existsSync(join(root, 'a', 'b'))).toBe(true);
    expect(await makeFolder(join(root, 'a', 'b'))).toBeUndefined();
    writeFileSync(join(root, 'f'), 'x');
    await expect(makeFolder(join(root, 'f', 'x'))).rejects.toMatchObject({
      code: 'ENOTDIR',
      path: join(root, 'f'),
    });
    expect(folderProblem(join(root, 'f', 'x'))?.code).toBe('ENOTDIR');
  });

  it('removes only the empty folders it made', () => {
    const root = newRoot();
    const created = makeFolderSync(join(root, 'x', 'y'))!;
    removeIfEmpty(join(root, 'x', 'y'), created);
    expect(existsSync(join(root, 'x'))).toBe(false);
    const again = makeFolderSync(join(root, 'x', 'y'))!;
    writeFileSync(join(root, 'x', 'y', 'kept.txt'), 'x');
    removeIfEmpty(join(root, 'x', 'y'), again);
    expect(existsSync(join(root, 'x', 'y', 'kept.txt'))).toBe(true);
  });
});
