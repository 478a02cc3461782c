/**
 * How many processes a command has started, counted from outside (Linux): every descendant of
 * the process zhi spawned, found through `/proc/<pid>/task/<tid>/children`. The sandbox limits
 * processes with RLIMIT_NPROC, which the kernel does not apply to the host's root user — also
 * inside a user namespace — so when zhi runs as root this count is the limit: past it the
 * command is stopped, everything it started with it.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Descendants of `pid` (not counting it), stopping once more than `stopAbove` are found. */
export function descendantCount(pid: number, stopAbove = Number.POSITIVE_INFINITY): number {
  let count = 0;
  const queue = [pid];
  while (queue.length && count <= stopAbove) {
    const p = queue.pop()!;
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${p}/task`);
    } catch {
      continue; // gone meanwhile
    }
    for (const tid of tasks) {
      let children: string;
      try {
        children = readFileSync(`/proc/${p}/task/${tid}/children`, 'utf8');
      } catch {
        continue;
      }
      for (const c of children.split(' ')) {
        const n = Number(c);
        if (!c || !Number.isInteger(n)) continue;
        count++;
        queue.push(n);
      }
    }
  }
  return count;
}
