/**
 * Builds dist/ before any test runs when it is older than what it is built from, so
 * `npx vitest run some.test.ts` after an edit never tests a stale binary. esbuild takes well
 * under a second; skipping a fresh build also keeps a second vitest run in the same checkout
 * from emptying dist/ under the feet of the zhi processes a first one is running.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

export default function buildOnce(): void {
  if (builtAfterSources()) return;
  execFileSync(process.execPath, [resolve(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
}

/** True when dist/zhi.js is newer than every file it is built from. */
function builtAfterSources(): boolean {
  let built: number;
  try {
    built = statSync(join(root, 'dist', 'zhi.js')).mtimeMs;
  } catch {
    return false;
  }
  const inputs = [
    join(root, 'package.json'),
    join(root, 'scripts', 'build.mjs'),
    ...filesUnder(join(root, 'src')),
  ];
  return inputs.every((f) => statSync(f).mtimeMs < built);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}
