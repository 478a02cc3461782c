/**
 * The process limit for a command when zhi runs as root (Linux): RLIMIT_NPROC, which limits a
 * normal user's sandbox, does not bind the host's root even inside a user namespace. Where root
 * can make a cgroup with the pids controller (cgroup v1's `pids` hierarchy, or cgroup v2 where
 * zhi's own cgroup already delegates `pids` to its children), each command gets one with
 * `pids.max`: a fork past it fails with EAGAIN, as for a user. The command is moved in before
 * bwrap starts (a shell writes its own pid, then execs), so nothing escapes the count. Where no
 * such cgroup can be made, zhi's process count (process-count.ts) still stops the command.
 */
import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface PidsCgroup {
  dir: string;
  /** The program to spawn instead of `file args`: it joins the cgroup, then runs them. */
  wrap(file: string, args: string[]): { file: string; args: string[] };
  remove(): Promise<void>;
}

let made = 0;

/** Where the pids controller lives for this process: a folder new cgroups can be made in. */
export function pidsParent(mountinfo: string, cgroups: string): string | undefined {
  for (const line of mountinfo.split('\n')) {
    const [mount, rest] = line.split(' - ');
    const point = mount?.split(' ')[4];
    const [fstype, , options = ''] = (rest ?? '').split(' ');
    if (!point) continue;
    if (fstype === 'cgroup' && options.split(',').includes('pids')) {
      const own = /^\d+:([^:]*\bpids\b[^:]*):(.*)$/m.exec(cgroups)?.[2];
      if (own !== undefined) return join(point, own);
    }
    if (fstype === 'cgroup2') {
      const own = /^0::(.*)$/m.exec(cgroups)?.[1];
      if (own === undefined) continue;
      const base = join(point, own);
      try {
        if (readFileSync(join(base, 'cgroup.subtree_control'), 'utf8').split(/\s+/).includes('pids'))
          return base;
      } catch {
        // not delegated here
      }
    }
  }
  return undefined;
}

/** A fresh cgroup capped at `max` tasks, or undefined where zhi is not root or none can be made. */
export function pidsCgroup(max: number): PidsCgroup | undefined {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return undefined;
  let parent: string | undefined;
  try {
    parent = pidsParent(
      readFileSync('/proc/self/mountinfo', 'utf8'),
      readFileSync('/proc/self/cgroup', 'utf8'),
    );
  } catch {
    return undefined;
  }
  if (!parent) return undefined;
  const dir = join(parent, `zhi-${process.pid}-${++made}`);
  try {
    mkdirSync(dir);
    writeFileSync(join(dir, 'pids.max'), String(max));
  } catch {
    removeDir(dir);
    return undefined;
  }
  return {
    dir,
    wrap: (file, args) => ({
      file: '/bin/sh',
      // Joining cannot fail for root; if it ever does, the command runs and the count still holds.
      args: ['-c', 'echo $$ > "$1/cgroup.procs" 2>/dev/null; shift; exec "$@"', 'sh', dir, file, ...args],
    }),
    remove: () => removeWhenEmpty(dir),
  };
}

function removeDir(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch {
    return false;
  }
}

/** The command's tasks may take a moment to be reaped after it ended: tries for 2 s, then left (empty, harmless). */
async function removeWhenEmpty(dir: string): Promise<void> {
  // Not unref'd: with nothing else to do (`zhi -c`), the process must still wait for this.
  for (let i = 0; i < 40 && !removeDir(dir); i++) await new Promise((r) => setTimeout(r, 50));
}
