import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSandboxed, sandboxState } from '../../src/tools/shell/sandbox.js';
import {
  bwrapArgs,
  type SandboxPolicy,
  seatbeltArgs,
  seatbeltProfile,
  secretPaths,
} from '../../src/tools/shell/sandbox-args.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

const policy = (over: Partial<SandboxPolicy> = {}): SandboxPolicy => ({
  cwd: '/home/ann/work',
  writable: ['/home/ann/work/zhi-output'],
  hidden: [
    { path: '/home/ann/.ssh', dir: true },
    { path: '/home/ann/.netrc', dir: false },
  ],
  extraReadable: [],
  network: false,
  tempDir: '/private/tmp/zhi-sh-1',
  ...over,
});

/** The index of a mount in an argument list (-1 when absent). */
function at(args: string[], ...seq: string[]): number {
  return args.findIndex((_, i) => seq.every((s, j) => args[i + j] === s));
}

describe('bwrapArgs', () => {
  it('makes everything read-only but the output folder, with no network and a private /tmp', () => {
    const args = bwrapArgs(policy());
    expect(at(args, '--ro-bind', '/', '/')).toBeGreaterThan(-1);
    expect(args).toContain('--unshare-net');
    expect(at(args, '--tmpfs', '/tmp')).toBeGreaterThan(-1);
    expect(at(args, '--bind', '/home/ann/work/zhi-output', '/home/ann/work/zhi-output')).toBeGreaterThan(-1);
    expect(args.filter((a) => a === '--bind')).toHaveLength(1);
    expect(at(args, '--chdir', '/home/ann/work')).toBeGreaterThan(-1);
    expect(args[args.length - 1]).toBe('--');
  });

  it('hides secrets folders under an empty tmpfs and secret files under /dev/null, before the writable binds', () => {
    const args = bwrapArgs(policy());
    const ssh = at(args, '--tmpfs', '/home/ann/.ssh');
    const netrc = at(args, '--ro-bind', '/dev/null', '/home/ann/.netrc');
    const out = at(args, '--bind', '/home/ann/work/zhi-output');
    expect(ssh).toBeGreaterThan(at(args, '--ro-bind', '/', '/'));
    expect(netrc).toBeGreaterThan(-1);
    expect(out).toBeGreaterThan(ssh);
  });

  it('widens for one command: network shared, current folder writable', () => {
    const args = bwrapArgs(
      policy({ network: true, writable: ['/home/ann/work/zhi-output', '/home/ann/work'] }),
    );
    expect(args).not.toContain('--unshare-net');
    expect(at(args, '--bind', '/home/ann/work', '/home/ann/work')).toBeGreaterThan(-1);
  });

  it('shows a current folder under /tmp again (read-only) over the private /tmp', () => {
    const args = bwrapArgs(policy({ cwd: '/tmp/job', writable: ['/tmp/job/zhi-output'] }));
    expect(at(args, '--ro-bind', '/tmp/job', '/tmp/job')).toBeGreaterThan(at(args, '--tmpfs', '/tmp'));
    expect(at(args, '--bind', '/tmp/job/zhi-output')).toBeGreaterThan(at(args, '--ro-bind', '/tmp/job'));
  });

  it('binds extra readable folders last, so a skill folder inside a hidden one is readable', () => {
    const args = bwrapArgs(
      policy({
        hidden: [{ path: '/home/ann/.config/zhi', dir: true }],
        extraReadable: ['/home/ann/.config/zhi/skills/x'],
      }),
    );
    expect(at(args, '--ro-bind', '/home/ann/.config/zhi/skills/x')).toBeGreaterThan(
      at(args, '--tmpfs', '/home/ann/.config/zhi'),
    );
  });
});

describe('seatbelt', () => {
  it('denies writes outside the writable folders and the network, by parameters, not spliced paths', () => {
    const p = policy({ writable: ['/Users/a"b/out'] });
    const profile = seatbeltProfile(p);
    expect(profile).toContain('(deny file-write* (require-not (require-any (subpath (param "W0"))');
    expect(profile).toContain('(deny network-outbound');
    expect(profile).toContain(
      '(deny file-read* (require-any (subpath (param "H0")) (literal (param "H1"))))',
    );
    expect(profile).not.toContain('a"b');
    const args = seatbeltArgs(p);
    expect(args).toContain('W0=/Users/a"b/out');
    expect(args).toContain('TMP=/private/tmp/zhi-sh-1');
  });

  it('allows the network when the person widened it', () => {
    expect(seatbeltProfile(policy({ network: true }))).not.toContain('network');
  });
});

describe('secretPaths', () => {
  it("names ssh, gnupg, cloud credentials and zhi's own config folder", () => {
    const paths = secretPaths('/home/ann', '/home/ann/.config/zhi').map((p) => p.path);
    for (const p of ['/home/ann/.ssh', '/home/ann/.gnupg', '/home/ann/.aws', '/home/ann/.config/zhi'])
      expect(paths).toContain(p);
  });
});

describe('sandboxState', () => {
  it('is none on Windows, none with a reason when bwrap is missing or broken, bwrap when it works', () => {
    expect(sandboxState({ platform: 'win32' })).toEqual({ kind: 'none', reason: 'windows' });
    const missing = sandboxState({
      platform: 'linux',
      run: () => ({ status: null, error: 'spawnSync bwrap ENOENT' }),
    });
    expect(missing).toEqual({ kind: 'none', reason: 'missing' });
    const broken = sandboxState({
      platform: 'linux',
      run: () => ({ status: 1, stderr: 'bwrap: No permissions to creating new namespace' }),
    });
    expect(broken).toMatchObject({ kind: 'none', reason: 'broken' });
    expect(sandboxState({ platform: 'linux', run: () => ({ status: 0 }) })).toEqual({ kind: 'bwrap' });
    expect(sandboxState({ platform: 'darwin', run: () => ({ status: 0 }) })).toEqual({ kind: 'seatbelt' });
  });
});

// Real bubblewrap: skipped with a reason where it is missing or cannot create namespaces.
const state = process.platform === 'linux' ? sandboxState() : undefined;
const hasBwrap = state?.kind === 'bwrap';
if (!hasBwrap) {
  console.warn(
    `[skip] real-sandbox tests: bubblewrap unavailable (${JSON.stringify(state)}); install it with apt-get install bubblewrap`,
  );
}

describe.runIf(hasBwrap)('runSandboxed with a real bwrap', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('zhi-sbx-');
    writeFileSync(join(dir, 'in.txt'), 'hello');
  });
  afterEach(() => cleanup(dir));
  const run = (command: string, over: Record<string, unknown> = {}) =>
    runSandboxed(command, {
      cwd: dir,
      outputDir: join(dir, 'zhi-output'),
      timeoutMs: 10_000,
      maxBytes: 10_000,
      ...over,
    });

  it('reads the current folder and writes only the output folder', async () => {
    const r = await run('cat in.txt && echo x > zhi-output/a.txt');
    expect(r.sandbox).toEqual({ kind: 'bwrap' });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('hello');
    expect(readFileSync(join(dir, 'zhi-output/a.txt'), 'utf8')).toBe('x\n');
    const denied = await run('echo y > b.txt');
    expect(denied.exitCode).not.toBe(0);
    expect(denied.stderr).toMatch(/Read-only file system/);
    expect(existsSync(join(dir, 'b.txt'))).toBe(false);
  });

  it('writes the current folder when widened for this command', async () => {
    const r = await run('echo y > b.txt', { allowWriteCwd: true });
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'b.txt'), 'utf8')).toBe('y\n');
  });

  it('has a private, writable /tmp that leaves nothing behind', async () => {
    const name = `/tmp/zhi-sbx-probe-${process.pid}`;
    const r = await run(`echo t > ${name} && cat ${name}`);
    expect(r.stdout).toBe('t\n');
    expect(existsSync(name)).toBe(false);
  });

  it("hides zhi's config folder", async () => {
    const home = tempDir('zhi-sbx-home-');
    mkdirSync(join(home, 'skills'));
    writeFileSync(join(home, 'config.yaml'), 'api_key: secret-key\n');
    const prev = process.env.ZHI_HOME;
    process.env.ZHI_HOME = home;
    try {
      const r = await run(`cat ${home}/config.yaml`);
      expect(r.exitCode).not.toBe(0);
      expect(r.stdout).not.toContain('secret-key');
      const skill = await run(`ls ${home}/skills`, { extraReadable: [join(home, 'skills')] });
      expect(skill.exitCode).toBe(0);
    } finally {
      if (prev === undefined) delete process.env.ZHI_HOME;
      else process.env.ZHI_HOME = prev;
      cleanup(home);
    }
  });
});
