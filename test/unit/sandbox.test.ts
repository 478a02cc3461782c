import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runSandboxed, sandboxState } from '../../src/tools/shell/sandbox.js';
import {
  bwrapArgs,
  type SandboxPolicy,
  seatbeltArgs,
  seatbeltProfile,
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
  it('builds the root from an allow-list: system folders read-only, no host root, a private size-capped /tmp', () => {
    const root = {
      system: [{ path: '/usr' }, { path: '/bin', link: 'usr/bin' }, { path: '/etc' }],
      masked: [
        { path: '/etc/shadow', dir: false },
        { path: '/etc/ssl/private', dir: true },
      ],
      programs: ['/opt/node'],
    };
    const args = bwrapArgs(policy({ root, tmpBytes: 1024 }));
    expect(at(args, '--ro-bind', '/', '/')).toBe(-1);
    expect(at(args, '--ro-bind', '/usr', '/usr')).toBeGreaterThan(-1);
    expect(at(args, '--symlink', 'usr/bin', '/bin')).toBeGreaterThan(-1);
    expect(at(args, '--ro-bind', '/opt/node', '/opt/node')).toBeGreaterThan(-1);
    expect(at(args, '--ro-bind', '/dev/null', '/etc/shadow')).toBeGreaterThan(at(args, '--ro-bind', '/etc'));
    expect(at(args, '--tmpfs', '/etc/ssl/private')).toBeGreaterThan(at(args, '--ro-bind', '/etc'));
    expect(at(args, '--size', '1024', '--tmpfs', '/tmp')).toBeGreaterThan(-1);
    expect(at(args, '--symlink', '../tmp', '/var/tmp')).toBeGreaterThan(-1);
    expect(args).toContain('--unshare-net');
    expect(at(args, '--ro-bind', '/home/ann/work', '/home/ann/work')).toBeGreaterThan(-1);
    expect(at(args, '--bind', '/home/ann/work/zhi-output', '/home/ann/work/zhi-output')).toBeGreaterThan(-1);
    expect(args.filter((a) => a === '--bind')).toHaveLength(1);
    expect(at(args, '--chdir', '/home/ann/work')).toBeGreaterThan(-1);
    expect(args[args.length - 1]).toBe('--');
  });

  it('masks root-only files even when the current folder is a system folder', () => {
    const root = { system: [{ path: '/etc' }], masked: [{ path: '/etc/shadow', dir: false }], programs: [] };
    const args = bwrapArgs(policy({ root, cwd: '/etc', writable: [] }));
    expect(at(args, '--ro-bind', '/dev/null', '/etc/shadow')).toBeGreaterThan(
      at(args, '--ro-bind', '/etc', '/etc'),
    );
    const cwdBind = args.findLastIndex((a, i) => a === '--ro-bind' && args[i + 1] === '/etc');
    expect(cwdBind).toBeGreaterThan(at(args, '--ro-bind', '/etc', '/etc'));
    expect(at(args, '--ro-bind', '/dev/null', '/etc/shadow')).toBeGreaterThan(cwdBind);
  });

  it('hides secrets in a visible place (tmpfs over a folder, /dev/null over a file), and mounts nothing for one out of sight', () => {
    const args = bwrapArgs(
      policy({
        hidden: [
          { path: '/home/ann/.ssh', dir: true },
          { path: '/home/ann/work/.env', dir: false },
          { path: '/home/ann/work/.aws', dir: true },
        ],
      }),
    );
    expect(at(args, '--tmpfs', '/home/ann/.ssh')).toBe(-1);
    expect(at(args, '--ro-bind', '/dev/null', '/home/ann/work/.env')).toBeGreaterThan(
      at(args, '--ro-bind', '/home/ann/work'),
    );
    expect(at(args, '--tmpfs', '/home/ann/work/.aws')).toBeGreaterThan(
      at(args, '--ro-bind', '/home/ann/work'),
    );
  });

  it('hides a secret folder that holds the output folder before the writable bind, so the output stays usable', () => {
    const args = bwrapArgs(policy({ hidden: [{ path: '/home/ann/work', dir: true }] }));
    expect(at(args, '--bind', '/home/ann/work/zhi-output')).toBeGreaterThan(
      at(args, '--tmpfs', '/home/ann/work'),
    );
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
    expect(seatbeltProfile(policy({ network: true }))).not.toContain('(remote ip)');
  });
});

describe('bwrapArgs: containment that holds as root', () => {
  it('runs in a user namespace with every capability dropped', () => {
    const args = bwrapArgs(policy());
    expect(args).toContain('--unshare-user');
    expect(at(args, '--cap-drop', 'ALL')).toBeGreaterThan(-1);
  });

  it('loads the unix-socket filter from the given descriptor', () => {
    expect(at(bwrapArgs(policy({ seccompFd: 3 })), '--seccomp', '3')).toBeGreaterThan(-1);
    expect(bwrapArgs(policy())).not.toContain('--seccomp');
  });

  it('binds what was already in the output folder read-only over itself, after the writable bind', () => {
    const args = bwrapArgs(policy({ protected: [{ path: '/home/ann/work/zhi-output/old.md', dir: false }] }));
    const ro = at(args, '--ro-bind', '/home/ann/work/zhi-output/old.md', '/home/ann/work/zhi-output/old.md');
    expect(ro).toBeGreaterThan(at(args, '--bind', '/home/ann/work/zhi-output'));
  });

  it('shows installed programs and the current folder, never the rest of a home folder', () => {
    const args = bwrapArgs(policy({ privateRoots: ['/home'], shown: ['/home/ann/.local/bin'] }));
    expect(at(args, '--ro-bind', '/home/ann/.local/bin', '/home/ann/.local/bin')).toBeGreaterThan(-1);
    expect(at(args, '--ro-bind', '/home/ann/work', '/home/ann/work')).toBeGreaterThan(-1);
    expect(args.filter((a) => a === '/home' || a === '/home/ann')).toEqual([]);
  });

  it('hides a secret inside the output folder after the writable bind', () => {
    const args = bwrapArgs(policy({ hidden: [{ path: '/home/ann/work/zhi-output/.env', dir: false }] }));
    expect(at(args, '--ro-bind', '/dev/null', '/home/ann/work/zhi-output/.env')).toBeGreaterThan(
      at(args, '--bind', '/home/ann/work/zhi-output'),
    );
  });
});

describe('seatbeltProfile: the same rules on macOS', () => {
  it('denies unix sockets, writes to earlier outputs and reads of the home folder but the current one', () => {
    const p = policy({
      protected: [{ path: '/Users/ann/work/zhi-output/old.md', dir: false }],
      privateRoots: ['/Users'],
      shown: ['/Users/ann/.nvm'],
    });
    const text = seatbeltProfile(p);
    expect(text).toContain('(deny network-outbound (remote unix-socket))');
    expect(text).toContain('(deny file-write* (literal (param "P0")))');
    expect(text).toMatch(
      /\(deny file-read-data \(subpath \(param "X0"\)\)\)\n\(allow file-read-data .*"CWD"/,
    );
    const args = seatbeltArgs(p);
    expect(args).toContain('P0=/Users/ann/work/zhi-output/old.md');
    expect(args).toContain('S0=/Users/ann/.nvm');
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

  it('is not called a sandbox when the command inside would keep a capability (a bwrap that cannot drop them)', () => {
    const caps = 'CapPrm:\t0000000000000000\nCapEff:\t000001ffffffffff\nCapBnd:\t000001ffffffffff\n';
    const state = sandboxState({ platform: 'linux', run: () => ({ status: 0, stdout: caps }) });
    expect(state).toMatchObject({ kind: 'none', reason: 'privileged' });
    const zero = 'CapPrm:\t0000000000000000\nCapEff:\t0000000000000000\nCapBnd:\t0000000000000000\n';
    expect(sandboxState({ platform: 'linux', run: () => ({ status: 0, stdout: zero }) })).toEqual({
      kind: 'bwrap',
    });
  });
});

describe('sandboxSoon', () => {
  it('probes in a child process without blocking, and finds what the blocking probe finds', async () => {
    // A fresh module: no probe has run in it yet.
    vi.resetModules();
    const fresh = await import('../../src/tools/shell/sandbox.js');
    expect(await fresh.sandboxSoon('off')).toEqual({ kind: 'none', reason: 'off' });
    const soon = fresh.sandboxSoon('auto');
    expect(fresh.sandboxSoon('auto')).toBe(soon); // one probe per process
    const blocking = sandboxState({ platform: process.platform });
    expect(await soon).toEqual(blocking);
    // Later blocking callers (running a command, zhi doctor) get the same answer without a probe.
    expect(fresh.sandboxState()).toEqual(blocking);
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

  it('holds as root: an approved remount-and-write leaves the file unchanged', async () => {
    const r = await run(
      'mount -o remount,rw,bind / / 2>&1; mount -t tmpfs none . 2>&1; echo pwned > in.txt; cat in.txt',
    );
    expect(r.stdout).toContain('hello');
    expect(readFileSync(join(dir, 'in.txt'), 'utf8')).toBe('hello');
    const caps = await run('grep -E "^Cap(Eff|Bnd):" /proc/self/status');
    expect(caps.stdout).toMatch(/CapEff:\s*0+\n/);
    expect(caps.stdout).toMatch(/CapBnd:\s*0+\n/);
  });

  it('reaches no unix socket of the host', async () => {
    let connected = 0;
    const server = createServer((c) => {
      connected++;
      c.end('hello from the host');
    });
    const sock = join(dir, 'host.sock');
    await new Promise<void>((done) => server.listen(sock, done));
    try {
      const script = `require('net').connect(${JSON.stringify(sock)}).on('data',d=>console.log('GOT',String(d))).on('error',e=>console.log('ERR',e.code))`;
      const r = await run(`${JSON.stringify(process.execPath)} -e ${JSON.stringify(script)}`);
      expect(r.stdout).not.toContain('GOT');
      expect(r.stdout).toMatch(/ERR (EPERM|EACCES|ENOENT)/);
      expect(connected).toBe(0);
    } finally {
      server.close();
    }
  });

  it('keeps earlier outputs: rm -rf and find -delete change nothing that was there, new files are added', async () => {
    mkdirSync(join(dir, 'zhi-output', 'sub'), { recursive: true });
    writeFileSync(join(dir, 'zhi-output', 'old.md'), 'earlier result');
    writeFileSync(join(dir, 'zhi-output', 'sub', 'x.md'), 'inner');
    const r = await run(
      'rm --rec --for zhi-output; find zhi-output -delete; echo changed > zhi-output/old.md; mv zhi-output/old.md zhi-output/moved.md; echo new > zhi-output/new.md; ls zhi-output',
    );
    expect(readFileSync(join(dir, 'zhi-output', 'old.md'), 'utf8')).toBe('earlier result');
    expect(readFileSync(join(dir, 'zhi-output', 'sub', 'x.md'), 'utf8')).toBe('inner');
    expect(readFileSync(join(dir, 'zhi-output', 'new.md'), 'utf8')).toBe('new\n');
    expect(existsSync(join(dir, 'zhi-output', 'moved.md'))).toBe(false);
    expect(r.stdout).toContain('old.md');
  });

  it('hides the secrets of the list in the home folder, and secret-named files in the current folder', async () => {
    const prev = process.env.HOME;
    process.env.HOME = dir;
    mkdirSync(join(dir, '.config', 'gh'), { recursive: true });
    writeFileSync(join(dir, '.config', 'gh', 'hosts.yml'), 'oauth_token: gho_SECRET1');
    writeFileSync(join(dir, '.pgpass'), 'db:5432:*:me:SECRET2');
    writeFileSync(join(dir, '.bash_history'), 'export TOKEN=SECRET3');
    writeFileSync(join(dir, '.vault-token'), 'SECRET4');
    mkdirSync(join(dir, 'app'));
    writeFileSync(join(dir, 'app', '.env'), 'KEY=SECRET5');
    try {
      const r = await run(
        'grep -r SECRET . 2>&1; cat .e?v app/.e?v .pgpass .vault-token 2>&1; tail .bash_history',
      );
      expect(r.stdout).not.toMatch(/SECRET\d/);
      expect(r.stderr).not.toMatch(/SECRET\d/);
    } finally {
      process.env.HOME = prev;
    }
  });
});
