// `node scripts/build-win-helper.mjs [--out file]`: zhi-sandbox.exe, the Windows helper that runs a
// shell command inside a Job Object (native/win-sandbox/), cross-compiled with mingw-w64
// (`apt-get install gcc-mingw-w64-x86-64`). The result is committed as
// native/win-sandbox/zhi-sandbox.exe, so a machine without mingw builds zhi all the same
// (scripts/build.mjs copies it to dist/assets/win/); test/unit/win-helper-build.test.ts rebuilds it
// where mingw is present and checks the bytes are the same: the flags make the build reproducible
// (no timestamp, no symbols, no C runtime, no build path in the file).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const source = join(root, 'native', 'win-sandbox');
export const COMPILER = 'x86_64-w64-mingw32-gcc';

/** The compiler's arguments for one output file (relative sources: no build path in the binary). */
export function helperBuildArgs(out) {
  return [
    '-O2',
    '-s',
    '-static',
    '-nostdlib',
    '-municode',
    '-Wall',
    '-Wextra',
    '-Werror',
    '-e',
    'entry',
    '-Wl,--no-insert-timestamp',
    '-Wl,--subsystem,console',
    '-o',
    out,
    'zhi-sandbox.c',
    'token.c',
    '-lkernel32',
    '-ladvapi32',
  ];
}

export function buildHelper(out = join(source, 'zhi-sandbox.exe')) {
  execFileSync(COMPILER, helperBuildArgs(out), { cwd: source, stdio: 'inherit' });
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--out');
  process.stdout.write(`${buildHelper(i >= 0 ? process.argv[i + 1] : undefined)}\n`);
}
