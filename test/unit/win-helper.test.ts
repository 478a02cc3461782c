/**
 * The Windows Job Object helper's protocol (win-helper.ts) and how the runner uses it (run.ts):
 * its command line, its status lines, a stop by closing its control pipe, a failed setup falling
 * back to the plain runner (but never when a restricted token was asked for). The helper itself is
 * played by a Node script speaking the same protocol; the real one runs under Wine in
 * test/e2e/wine-job.test.ts.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/tools/shell/run.js';
import { comspecFor, helperArgs, parseStatus, windowsHelper } from '../../src/tools/shell/win-helper.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

describe('the helper command line', () => {
  it('passes cmd.exe by its full path and the line exactly as Node writes it for shell: true', () => {
    expect(helperArgs({ command: 'dir & echo "a b"', comspec: 'C:\\Windows\\System32\\cmd.exe' })).toEqual([
      '--',
      '"C:\\Windows\\System32\\cmd.exe"',
      '/d',
      '/s',
      '/c',
      '"dir & echo "a b""',
    ]);
  });

  it('asks for the restricted token with each writable folder quoted, before the command', () => {
    const args = helperArgs({
      command: 'echo x',
      comspec: 'C:\\Windows\\System32\\cmd.exe',
      maxProcesses: 256,
      graceMs: 500,
      writable: ['C:\\Users\\李 雷\\work\\zhi-output', 'C:\\Users\\李 雷\\work'],
    });
    expect(args.slice(0, args.indexOf('--'))).toEqual([
      '--max-processes',
      '256',
      '--grace',
      '500',
      '--restricted',
      '--write',
      '"C:\\Users\\李 雷\\work\\zhi-output"',
      '--write',
      '"C:\\Users\\李 雷\\work"',
    ]);
  });

  it('takes cmd.exe from SystemRoot, never from ComSpec or the working folder', () => {
    expect(comspecFor({ SystemRoot: 'D:\\WIN', ComSpec: 'cmd.exe' })).toBe('D:\\WIN\\System32\\cmd.exe');
    expect(comspecFor({})).toBe('C:\\Windows\\System32\\cmd.exe');
  });
});

describe('where the helper is', () => {
  it('is the built package’s dist/assets/win/zhi-sandbox.exe (the build copies the committed one)', () => {
    const file = windowsHelper(undefined);
    expect(file).toMatch(/dist[\\/]assets[\\/]win[\\/]zhi-sandbox\.exe$/);
    expect(readFileSync(file!).subarray(0, 2).toString('latin1')).toBe('MZ');
  });
});

describe('the helper status lines', () => {
  it.each([
    ['run 12\nexit 3 0\n', { started: true, exitCode: 3, leftovers: 0 }],
    ['run 12\nexit 0 2\n', { started: true, exitCode: 0, leftovers: 2 }],
    ['run 12\nstop 0\n', { started: true, stopLeft: 0 }],
    ['run 12\nstop 1\n', { started: true, stopLeft: 1 }],
    ['error 6 5\n', { started: false, error: { step: 6, code: 5 } }],
    ['run 12\nexit 4294967295 0\n', { started: true, exitCode: 4294967295, leftovers: 0 }],
    ['garbage\nstop x\n', { started: false }],
    ['', { started: false }],
  ])('%j', (text, status) => {
    expect(parseStatus(text)).toEqual(status);
  });
});

const dir = tempDir('zhi-win-helper-');
afterAll(() => cleanup(dir));

/** A stand-in for zhi-sandbox.exe: the same status lines and control pipe, in Node. */
const FAKE = `#!/usr/bin/env node
const fs = require('node:fs');
const say = (l) => fs.writeSync(3, l + '\\n');
const mode = process.env.FAKE_HELPER;
fs.writeFileSync(process.env.FAKE_ARGS, JSON.stringify(process.argv.slice(2)));
if (mode === 'error') { say('error 5 2'); process.exit(5); }
say('run 42');
process.stdout.write('out\\n');
if (mode === 'exit') { say('exit 3 1'); process.exit(3); }
process.stdin.on('data', () => {});
process.stdin.on('end', () => { say(mode === 'stuck' ? 'stop 2' : 'stop 0'); process.exit(1); });
setInterval(() => {}, 1000);
`;

function fakeHelper(): string {
  const file = join(dir, 'fake-helper.cjs');
  writeFileSync(file, FAKE);
  chmodSync(file, 0o755);
  return file;
}

const unix = process.platform !== 'win32';

describe.runIf(unix)('the runner with the helper (a stand-in)', () => {
  const file = fakeHelper();
  const argsFile = join(dir, 'args.json');
  const run = (mode: string, timeoutMs: number, writable?: string[]) =>
    runCommand('echo plain', {
      cwd: dir,
      timeoutMs,
      maxBytes: 1000,
      platform: 'win32',
      codePage: 65001,
      env: { ...process.env, FAKE_HELPER: mode, FAKE_ARGS: argsFile },
      jobHelper: { file, request: writable ? { writable } : { maxProcesses: 256 } },
    });

  it('returns the shell exit code and says what was left running and ended', async () => {
    const r = await run('exit', 20_000);
    expect(r).toMatchObject({ exitCode: 3, stdout: 'out\n', leftovers: true, timedOut: false });
    expect(JSON.parse(readFileSync(argsFile, 'utf8'))).toContain('--max-processes');
  });

  it('stops by closing the control pipe, and trusts "stop 0" as checked', async () => {
    const r = await run('wait', 300);
    expect(r).toMatchObject({ timedOut: true, stdout: 'out\n' });
    expect(r.stopFailed).toBeUndefined();
  });

  it('says a stop was not confirmed when the job still counted processes', async () => {
    const r = await run('stuck', 300);
    expect(r).toMatchObject({ timedOut: true, stopFailed: true });
  });

  it('runs the line plainly when the helper fails before the command started', async () => {
    const r = await run('error', 20_000);
    expect(r).toMatchObject({ exitCode: 0, stdout: 'plain\n' });
    expect(r.helperError).toBeUndefined();
  });

  it('never drops an asked-for restricted token: a failed setup is a failure', async () => {
    const r = await run('error', 20_000, [join(dir, 'zhi-output')]);
    expect(r.helperError).toBe('starting cmd.exe failed (Windows error 2)');
    expect(r.stdout).toBe('');
  });
});
