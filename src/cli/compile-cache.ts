/**
 * Node keeps what it compiled of zhi's modules for the next start: a one-shot chat then costs
 * 0.38 → 0.28 CPU-s in the standalone executable, whose modules compile the same way, and 8–15 %
 * less with the package on Node 22 and 24 (0.40 → 0.34 CPU-s on 24; user + system, mean of 10).
 * Loaded by the entry point before the app, so the app's own modules are kept too.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import nodeModule from 'node:module';
import { join } from 'node:path';
import { appPaths } from '../support/paths.js';

/** The part of node:module this needs (absent before Node 22.1; flushCompileCache from 22.10). */
export interface CompileCacheApi {
  enableCompileCache?: (dir: string) => unknown;
  flushCompileCache?: () => void;
}

/**
 * Keep compiled code in zhi's own data folder, not Node's default in the temporary folder (shared
 * by every user of the machine, who could put code there), one folder per zhi version: the
 * folders of other versions are removed when a version first starts, so the cache never grows
 * past one version's. Only where Node writes the cache atomically: before 22.10 (the release that
 * brought flushCompileCache with atomic writes, nodejs/node#54971) two zhi starting at once could
 * leave a broken cache behind. A folder that cannot be written (a read-only home) is no error:
 * zhi starts as it would without.
 */
export function keepCompiled(
  env: NodeJS.ProcessEnv = process.env,
  api: CompileCacheApi = nodeModule as CompileCacheApi,
  version = __ZHI_VERSION__,
): string | undefined {
  if (!api.enableCompileCache || !api.flushCompileCache) return undefined;
  try {
    const root = join(appPaths(env).dataDir, 'cache', 'compiled');
    const dir = join(root, version);
    if (!existsSync(dir)) removeOtherVersions(root, version);
    api.enableCompileCache(dir);
    return dir;
  } catch {
    return undefined;
  }
}

function removeOtherVersions(root: string, version: string): void {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return; // the first start of any version
  }
  for (const name of names) {
    if (name !== version) rmSync(join(root, name), { recursive: true, force: true });
  }
}
