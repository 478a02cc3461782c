/**
 * The committed zhi-sandbox.exe is the one its source builds: where mingw-w64 is installed, the
 * helper is rebuilt (scripts/build-win-helper.mjs, reproducible flags) and compared byte for byte.
 * Without mingw only the committed file's shape is checked, and the skip is said.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from '../helpers/zhi.js';

const root = resolve(import.meta.dirname, '../..');
const committed = join(root, 'native/win-sandbox/zhi-sandbox.exe');

function hasMingw(): boolean {
  try {
    execFileSync('x86_64-w64-mingw32-gcc', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const mingw = hasMingw();
if (!mingw) console.warn('win-helper-build.test.ts: mingw-w64 is not installed; the helper is not rebuilt.');

describe('zhi-sandbox.exe', () => {
  const dir = tempDir('zhi-helper-build-');
  afterAll(() => cleanup(dir));

  it('is a small 64-bit Windows console program', () => {
    const bytes = readFileSync(committed);
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('MZ');
    const pe = bytes.readUInt32LE(0x3c);
    expect(bytes.subarray(pe, pe + 4).toString('latin1')).toBe('PE\0\0');
    expect(bytes.readUInt16LE(pe + 4)).toBe(0x8664);
    expect(bytes.length).toBeLessThan(60 * 1024);
  });

  it.runIf(mingw)(
    'is rebuilt from its source byte for byte',
    () => {
      const out = join(dir, 'rebuilt.exe');
      execFileSync(process.execPath, [join(root, 'scripts/build-win-helper.mjs'), '--out', out], {
        stdio: 'ignore',
      });
      expect(readFileSync(out).equals(readFileSync(committed))).toBe(true);
    },
    60_000,
  );
});
