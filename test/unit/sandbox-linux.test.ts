/**
 * Issue 37 against a real bubblewrap: the root holds only the system folders, the current folder
 * and installed programs; root-only files read as empty even for root; no descriptor zhi holds
 * beyond stdio reaches the command. Skipped with a reason where bwrap is missing or unusable.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSandboxed, sandboxState } from '../../src/tools/shell/sandbox.js';
import { LIMITS } from '../../src/tools/shell/sandbox-args.js';
import { programFolders, rootOnlyPlaces } from '../../src/tools/shell/sandbox-root.js';
import { PROBE_REFUSED, syscallProbe } from '../helpers/syscall-probe.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

describe('sandbox-root', () => {
  it('gives the install folder of a program folder outside the system, never a top-level or data place', () => {
    const dir = tempDir('zhi-root-');
    try {
      // A temp folder is never shown: /tmp is one of the places a PATH entry cannot open.
      expect(programFolders(`${dir}:/usr/bin:/bin:relative`, '/nowhere')).toEqual([]);
      expect(programFolders('/usr/local/bin:/etc', '/nowhere')).toEqual([]);
      expect(programFolders('/srv/tools/bin:/var/lib/x/bin:/mnt/c/bin', '/nowhere')).toEqual([]);
    } finally {
      cleanup(dir);
    }
  });

  it('masks what others may not read under a folder, and walks no further into a closed folder', () => {
    const etc = tempDir('zhi-etc-');
    try {
      writeFileSync(join(etc, 'passwd'), 'root:x:0:0');
      writeFileSync(join(etc, 'shadow'), 'root:$6$hash', { mode: 0o640 });
      writeFileSync(join(etc, 'hosts'), '127.0.0.1 localhost', { mode: 0o644 });
      const masked = rootOnlyPlaces(etc);
      expect(masked).toEqual([{ path: join(etc, 'shadow'), dir: false }]);
    } finally {
      cleanup(etc);
    }
  });
});

const state = process.platform === 'linux' ? sandboxState() : undefined;
const hasBwrap = state?.kind === 'bwrap';
if (!hasBwrap) {
  console.warn(
    `[skip] real-sandbox tests (issue 37): bubblewrap unavailable (${JSON.stringify(state)}); install it with apt-get install bubblewrap`,
  );
}

describe.runIf(hasBwrap)('the sandbox root with a real bwrap', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('zhi-sbx37-');
    writeFileSync(join(dir, 'in.txt'), 'hello');
  });
  afterEach(() => cleanup(dir));
  const run = (command: string, over: Record<string, unknown> = {}) =>
    runSandboxed(command, {
      cwd: dir,
      outputDir: join(dir, 'zhi-output'),
      timeoutMs: 20_000,
      maxBytes: 100_000,
      ...over,
    });

  it('shows only system folders, /dev, /proc, a private /tmp and what the policy binds at the top', async () => {
    const r = await run(
      'ls -A /; echo ---; ls -A /var; echo ---; ls -A /var/tmp /srv /opt /mnt /media /run 2>&1',
    );
    expect(r.exitCode).not.toBe(0);
    const [top, varList, rest] = r.stdout.split('---\n');
    const allowed = new Set(['usr', 'bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32', 'etc', 'nix', 'gnu']);
    for (const n of ['dev', 'proc', 'tmp', 'var']) allowed.add(n);
    // The current folder, installed programs in the home folder, program folders outside the system.
    const programs = programFolders(process.env.PATH, process.env.HOME ?? '/', [process.execPath]);
    for (const p of [dir, process.env.HOME ?? '/', ...programs]) allowed.add(p.split('/')[1]!);
    const names = (top ?? '').trim().split('\n');
    expect(names.filter((n) => !allowed.has(n))).toEqual([]);
    expect(names).not.toContain('srv');
    expect(names).not.toContain('run');
    expect(names).not.toContain('mnt');
    expect((varList ?? '').trim()).toBe('tmp');
    expect(rest).toMatch(/\/srv.*No such file/);
    expect(rest).toMatch(/\/run.*No such file/);
  });

  it('reads root-only files under /etc as empty, also as root', async () => {
    const masked = rootOnlyPlaces().filter((p) => !p.dir);
    const r = await run('cat /etc/shadow /etc/gshadow 2>/dev/null | wc -c; cat /etc/passwd | head -1');
    expect(r.stdout).toMatch(/^0\n/);
    expect(r.stdout).toContain('root:');
    if (existsSync('/etc/shadow')) expect(masked.map((p) => p.path)).toContain('/etc/shadow');
  });

  it('runs everyday programs: coreutils, grep -r, find, tar, git, python3, node spawning a child', async () => {
    const node = JSON.stringify(process.execPath);
    const lines = [
      'echo a | tr a b',
      'grep -r hello . | head -1',
      'find . -name in.txt',
      'tar -cf /tmp/t.tar in.txt && tar -tf /tmp/t.tar',
      'git init -q /tmp/g && git -C /tmp/g status --short && echo git-ok',
      `${node} -e "require('child_process').execFileSync('echo',['node-child'],{stdio:'inherit'})"`,
    ];
    const r = await run(lines.join(' && '));
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('b\n');
    expect(r.stdout).toContain('./in.txt:hello');
    expect(r.stdout).toContain('git-ok');
    expect(r.stdout).toContain('node-child');
    const py = await run(
      "python3 -c \"import subprocess; print(subprocess.run(['echo', 'py-child'], capture_output=True, text=True).stdout)\"",
    );
    if (py.exitCode !== 127) expect(py.stdout).toContain('py-child');
  });

  it('shows a secret-named file at any depth as empty (a .env seven folders down, one inside node_modules)', async () => {
    for (const f of ['a/b/c/d/e/f/g/.env', 'node_modules/pkg/.env.production']) {
      mkdirSync(dirname(join(dir, f)), { recursive: true });
      writeFileSync(join(dir, f), 'TOKEN=hunter2');
    }
    const r = await run('cat a/b/c/d/e/f/g/.env node_modules/pkg/.env.production; cat in.txt');
    expect(r.stdout).not.toContain('hunter2');
    expect(r.stdout).toContain('hello');
  });

  it('hands the command no descriptor beyond stdio', async () => {
    const r = await run('ls /proc/self/fd');
    expect(r.stdout.trim().split('\n').sort()).toEqual(['0', '1', '2', '3']);
    expect(readFileSync(join(dir, 'in.txt'), 'utf8')).toBe('hello');
  });

  it('refuses io_uring (ENOSYS), the keyring, AF_VSOCK and AF_UNIX sockets (EPERM), and keeps socketpair', async () => {
    writeFileSync(join(dir, 'probe.py'), syscallProbe());
    const r = await run('python3 probe.py');
    expect(r.stderr).toBe('');
    for (const line of PROBE_REFUSED) expect(r.stdout).toMatch(line);
  });

  it('caps /tmp, the size of a file written, and the number of processes', async () => {
    const limits = await run('ulimit -f; df -k /tmp | tail -1');
    const [blocks, df] = limits.stdout.trim().split('\n');
    expect(Number(blocks) * 512).toBe(LIMITS.fileBytes);
    if (/--size/.test(spawnSync('bwrap', ['--help'], { encoding: 'utf8' }).stdout)) {
      expect(Number(df?.split(/\s+/)[1]) * 1024).toBe(LIMITS.tmpBytes);
      const full = await run('head -c 600000000 /dev/zero > /tmp/big; echo rc=$?');
      expect(full.stderr).toMatch(/No space left on device/);
    }
    // As a user the kernel refuses the fork past the limit (RLIMIT_NPROC); as root, which that
    // spares, a pids cgroup refuses it, or where none can be made zhi stops the command.
    const bomb = await run('for i in $(seq 300); do sleep 5 & done; wait; echo all-ended');
    expect(bomb.tooManyProcesses === true || /fork|Resource temporarily unavailable/i.test(bomb.stderr)).toBe(
      true,
    );
    expect(bomb.stdout).not.toContain('all-ended');
  });
});
