import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type CompileCacheApi, keepCompiled } from '../../src/cli/compile-cache.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

const homes: string[] = [];
afterEach(() => cleanup(...homes.splice(0)));

function home(): string {
  const h = tempDir('zhi-compile-cache-');
  homes.push(h);
  return h;
}

/** A Node with the compile cache (22.10 and later), recording where it was asked to keep it. */
function node22(): CompileCacheApi & { dirs: string[] } {
  const dirs: string[] = [];
  return { dirs, enableCompileCache: (dir) => dirs.push(dir), flushCompileCache: () => {} };
}

describe('compiled code kept for the next start', () => {
  it('is kept in zhi’s data folder, one folder per version, never in the shared temporary folder', () => {
    const h = home();
    const api = node22();
    expect(keepCompiled({ ZHI_HOME: h }, api, '1.2.0')).toBe(join(h, 'cache', 'compiled', '1.2.0'));
    expect(api.dirs).toEqual([join(h, 'cache', 'compiled', '1.2.0')]);
  });

  it('removes the folders of other versions on a version’s first start, and keeps its own', () => {
    const h = home();
    const root = join(h, 'cache', 'compiled');
    for (const v of ['1.1.0', '1.0.0']) {
      mkdirSync(join(root, v, 'v22'), { recursive: true });
      writeFileSync(join(root, v, 'v22', 'entry'), 'old');
    }
    keepCompiled({ ZHI_HOME: h }, node22(), '1.2.0');
    expect(existsSync(join(root, '1.1.0'))).toBe(false);
    expect(existsSync(join(root, '1.0.0'))).toBe(false);
    // Its own folder, made by Node, is kept from start to start.
    mkdirSync(join(root, '1.2.0', 'v22'), { recursive: true });
    keepCompiled({ ZHI_HOME: h }, node22(), '1.2.0');
    expect(existsSync(join(root, '1.2.0', 'v22'))).toBe(true);
  });

  it('is not used where Node has no cache (20) or writes it in place (22 before 22.10)', () => {
    const h = home();
    const enable = vi.fn();
    expect(keepCompiled({ ZHI_HOME: h }, {}, '1.2.0')).toBeUndefined();
    expect(keepCompiled({ ZHI_HOME: h }, { enableCompileCache: enable }, '1.2.0')).toBeUndefined();
    expect(enable).not.toHaveBeenCalled();
  });

  it('starts zhi as without it when the folder cannot be used', () => {
    const h = home();
    const failing = {
      ...node22(),
      enableCompileCache: () => {
        throw new Error('EACCES');
      },
    };
    expect(keepCompiled({ ZHI_HOME: h }, failing, '1.2.0')).toBeUndefined();
    // A data folder that is a file: nothing can be listed or made under it.
    const file = join(h, 'not-a-folder');
    writeFileSync(file, '');
    chmodSync(file, 0o400);
    expect(() => keepCompiled({ ZHI_HOME: file }, node22(), '1.2.0')).not.toThrow();
  });
});
