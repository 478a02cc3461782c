import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type StartFacts, startCommand } from '../../src/cli/start-command.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let dir = '';
afterEach(() => {
  // Not every case makes a checkout (resumeCommand's does not), and cases may run in any order.
  if (dir) cleanup(dir);
  dir = '';
});

/** A checkout with dist/zhi.js, and an empty bin folder for the PATH. */
function setUp(): { entry: string; bin: string } {
  dir = tempDir('zhi-start-');
  const entry = join(dir, 'repo', 'dist', 'zhi.js');
  mkdirSync(join(dir, 'repo', 'dist'), { recursive: true });
  mkdirSync(join(dir, 'bin'));
  writeFileSync(entry, '#!/usr/bin/env node\n');
  chmodSync(entry, 0o755);
  return { entry, bin: join(dir, 'bin') };
}

const facts = (o: Partial<StartFacts> & Pick<StartFacts, 'entry'>): StartFacts => ({
  kind: 'source',
  env: {},
  cwd: dir,
  platform: 'linux',
  ...o,
});

describe('the command that starts zhi next time (issue 30 #20)', () => {
  it('`npm start` in a checkout puts nothing on the PATH: says `npm start`, not `zhi`', () => {
    const { entry, bin } = setUp();
    expect(startCommand(facts({ entry, env: { PATH: bin, npm_lifecycle_event: 'start' } }))).toBe(
      'npm start',
    );
  });

  it('`zhi` only when the zhi on the PATH is this one', () => {
    const { entry, bin } = setUp();
    writeFileSync(join(bin, 'zhi'), 'another zhi');
    expect(startCommand(facts({ entry, env: { PATH: bin } }))).toBe('node repo/dist/zhi.js');
    cleanup(join(bin, 'zhi'));
    symlinkSync(entry, join(bin, 'zhi'));
    expect(startCommand(facts({ entry, kind: 'npm', env: { PATH: bin } }))).toBe('zhi');
  });

  it('npx, a standalone executable, node with a path', () => {
    const { entry, bin } = setUp();
    expect(startCommand(facts({ entry, kind: 'npm', env: { PATH: bin, npm_command: 'exec' } }))).toBe(
      'npx zhi',
    );
    const exe = join(dir, 'zhi-linux-x64');
    writeFileSync(exe, '');
    expect(startCommand(facts({ entry: exe, kind: 'exe', env: { PATH: bin } }))).toBe('./zhi-linux-x64');
    expect(startCommand(facts({ entry: exe, kind: 'exe', env: { PATH: bin }, cwd: bin }))).toBe(exe);
    expect(startCommand(facts({ entry: exe, kind: 'exe', env: { PATH: bin }, platform: 'win32' }))).toBe(
      '.\\zhi-linux-x64',
    );
    expect(startCommand(facts({ entry, env: { PATH: bin }, cwd: bin }))).toBe(`node ${entry}`);
  });
});

describe('resumeCommand', () => {
  it('says how to come back as zhi was started', async () => {
    const { resumeCommand } = await import('../../src/cli/repl/usage-text.js');
    expect(resumeCommand('abc', 'zhi')).toBe('zhi --resume abc');
    expect(resumeCommand('abc', 'npm start')).toBe('npm start -- --resume abc');
    expect(resumeCommand('abc', './zhi-linux-x64')).toBe('./zhi-linux-x64 --resume abc');
  });
});
