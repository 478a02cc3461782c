/**
 * Builds dist/ once before any test runs, so `npx vitest run some.test.ts` after an edit never
 * tests a stale binary. esbuild takes well under a second; the e2e tests spawn dist/zhi.js.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

export default function buildOnce(): void {
  const root = resolve(import.meta.dirname, '..');
  execFileSync(process.execPath, [resolve(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
}
