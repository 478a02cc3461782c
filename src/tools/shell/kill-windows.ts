/**
 * Stopping a command and everything it started on Windows, where there are no process groups.
 * While `cmd.exe` lives, `taskkill /T /F` ends its whole tree. Once it has exited (`start /b job`
 * leaves `job` running), taskkill cannot walk from it any more — but Windows keeps each orphan's
 * parent id, so the orphans are found by asking for processes whose parent was the shell, and
 * each of their trees is ended. The outcome says truthfully whether anything may be left.
 */
import { spawn } from 'node:child_process';

export interface ProcessTools {
  /** Run a program; resolve with its exit code and standard output. */
  run(file: string, args: string[]): Promise<{ code: number | null; stdout: string }>;
}

export interface StopOutcome {
  /** Everything the command started was ended (or nothing was left). */
  stopped: boolean;
  /** How many process trees were ended. */
  ended: number;
}

/** `taskkill` arguments that end a process and all its descendants. */
export function taskkillArgs(pid: number): string[] {
  return ['/PID', String(pid), '/T', '/F'];
}

/** A PowerShell query for the processes whose parent was `pid` (alive or not). */
export function childQueryArgs(pid: number): string[] {
  return [
    '-NoProfile',
    '-NonInteractive',
    '-Command',
    `Get-CimInstance Win32_Process -Filter "ParentProcessId=${Math.trunc(pid)}" | ForEach-Object { $_.ProcessId }`,
  ];
}

/** End the tree of `pid`: directly while the shell lives, through its orphans once it has exited. */
export async function stopWindowsTree(
  pid: number,
  shellAlive: boolean,
  tools: ProcessTools,
): Promise<StopOutcome> {
  if (shellAlive) {
    const r = await tools.run('taskkill', taskkillArgs(pid));
    // 128: no such process — it ended on its own meanwhile; look for orphans then.
    if (r.code === 0) return { stopped: true, ended: 1 };
  }
  const q = await tools.run('powershell.exe', childQueryArgs(pid));
  if (q.code !== 0) return { stopped: false, ended: 0 };
  const pids = q.stdout
    .split(/\s+/)
    .map((s) => Number(s))
    .filter((n) => Number.isInteger(n) && n > 0 && n !== pid);
  let ended = 0;
  let stopped = true;
  for (const child of pids) {
    const r = await tools.run('taskkill', taskkillArgs(child));
    if (r.code === 0) ended++;
    else stopped = false;
  }
  return { stopped, ended };
}

/** The real tools: spawn with no window, collect stdout, never throw. */
export const windowsTools: ProcessTools = {
  run(file, args) {
    return new Promise((resolve) => {
      let stdout = '';
      try {
        const p = spawn(file, args, { windowsHide: true, stdio: ['ignore', 'pipe', 'ignore'] });
        p.stdout?.on('data', (d: Buffer) => {
          stdout += d.toString('utf8');
        });
        p.on('error', () => resolve({ code: null, stdout }));
        p.on('close', (code) => resolve({ code, stdout }));
      } catch {
        resolve({ code: null, stdout });
      }
    });
  },
};
