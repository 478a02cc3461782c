/**
 * What a conversion leaves when zhi itself is killed (`kill -9`, a closed terminal on Windows):
 * its temporary folder — a copy of the person's document — and LibreOffice still running in it.
 * Each conversion's folder carries its zhi's process id (`zhi-soffice-<pid>-…`); before a new
 * conversion, folders of a zhi that is gone are removed, and on Linux any LibreOffice still
 * using one (its `-env:UserInstallation` names the folder, so nothing else is touched) is killed.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { leftByGoneProcess } from '../../../support/process-alive.js';

export const SOFFICE_PREFIX = `zhi-soffice-${process.pid}-`;
const LEFTOVER = /^zhi-soffice-(\d+)-/;

/** Processes whose command line mentions `dir` (Linux: /proc); elsewhere none are found. */
function processesUsing(dir: string): number[] {
  if (process.platform !== 'linux') return [];
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const pid of pids) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes(dir)) found.push(Number(pid));
    } catch {
      // Gone meanwhile, or another user's.
    }
  }
  return found;
}

/**
 * Stop every process still working in a conversion folder: a time limit or Ctrl+C kills the
 * program zhi started, but `soffice` is a launcher, and the soffice.bin it started would run on.
 */
export function stopProcessesIn(dir: string): void {
  for (const pid of processesUsing(dir)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone, or not ours to stop.
    }
  }
}

/** Remove every conversion folder of a zhi that is gone, stopping what still runs in it. */
export function sweepSofficeLeftovers(temp = tmpdir()): number {
  let names: string[];
  try {
    names = readdirSync(temp).filter((n) => leftByGoneProcess(n, LEFTOVER));
  } catch {
    return 0;
  }
  for (const name of names) {
    const dir = join(temp, name);
    stopProcessesIn(dir);
    rmSync(dir, { recursive: true, force: true });
  }
  return names.length;
}
