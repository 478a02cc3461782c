/**
 * Descriptors zhi inherited (issue 37): every one above 2 without close-on-exec is found from
 * /proc/self/fdinfo and closed, so no child — the sandbox included — can use it. The reading is
 * tested on a made-up fdinfo folder; the closing end to end in test/e2e/sandbox-reach-pty.test.ts.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inheritableFds } from '../../src/support/inherited-fds.js';
import { pidsParent } from '../../src/tools/shell/cgroup-pids.js';
import { descendantCount } from '../../src/tools/shell/process-count.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

describe('inheritableFds', () => {
  it('lists descriptors above 2 that lack O_CLOEXEC, and no others', () => {
    const dir = tempDir('zhi-fdinfo-');
    try {
      const info = (fd: number, flags: string) =>
        writeFileSync(join(dir, String(fd)), `pos:\t0\nflags:\t${flags}\nmnt_id:\t1\n`);
      info(0, '02');
      info(1, '01');
      info(2, '01');
      info(3, '02000002'); // Node's own (close-on-exec)
      info(5, '0100001'); // `exec 5>file` in the calling shell
      info(40, '01');
      info(41, '02100001');
      mkdirSync(join(dir, 'not-a-number'));
      expect(inheritableFds(dir).sort((a, b) => a - b)).toEqual([5, 40]);
    } finally {
      cleanup(dir);
    }
  });

  it('finds nothing where there is no fdinfo (macOS, Windows)', () => {
    expect(inheritableFds('/nonexistent/fdinfo')).toEqual([]);
  });
});

describe.runIf(process.platform === 'linux')('descendantCount', () => {
  it('counts every process a command started, children of children included', async () => {
    const child = spawn('/bin/sh', ['-c', 'sleep 3 & sleep 3 & (sleep 3 & wait) & echo up; wait'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      detached: true,
    });
    try {
      await new Promise((r) => child.stdout.once('data', r));
      // Two sleeps, a subshell and its sleep (the subshell may still be starting its sleep).
      expect(descendantCount(child.pid!)).toBeGreaterThanOrEqual(3);
      expect(descendantCount(child.pid!, 1)).toBeLessThanOrEqual(4);
      expect(descendantCount(999_999_999)).toBe(0);
    } finally {
      process.kill(-child.pid!, 'SIGKILL'); // the whole group: no sleep outlives the test
    }
  });
});

describe('pidsParent: where root can cap a command’s processes', () => {
  const v1 = [
    '31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755',
    '39 31 0:35 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids',
  ].join('\n');
  it('finds the v1 pids hierarchy at zhi’s own place in it', () => {
    expect(pidsParent(v1, '9:name=systemd:/\n8:pids:/user.slice\n0::/')).toBe(
      '/sys/fs/cgroup/pids/user.slice',
    );
  });

  it('finds nothing without a pids controller, nor in cgroup v2 that does not delegate it', () => {
    expect(pidsParent('31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw', '0::/')).toBeUndefined();
    const v2 = '30 23 0:27 / /nonexistent-cgroup2 rw - cgroup2 cgroup2 rw';
    expect(pidsParent(v2, '0::/user.slice/x.scope')).toBeUndefined();
  });
});
