/**
 * Stopping a command and everything it started on Windows, where there are no process groups.
 * The process table (pid and parent pid, from `wmic`, else PowerShell) gives the tree under the
 * shell — including what `start /b` left behind once cmd.exe has exited, since Windows keeps each
 * orphan's parent id. Each process of the tree is ended with `taskkill /T /F`, and the table is
 * read again to see whether any of them is still there: the outcome says what was checked, never
 * what an exit code suggests.
 */
import { spawn } from 'node:child_process';

export interface ProcessTools {
  /** Run a program; resolve with its exit code and standard output. */
  run(file: string, args: string[]): Promise<{ code: number | null; stdout: string }>;
  /** End one process at once (TerminateProcess); false when it could not be. */
  kill?: (pid: number) => boolean;
  /** Wait before looking again (processes take a moment to go). */
  sleep?: (ms: number) => Promise<void>;
}

export interface StopOutcome {
  /** Checked: nothing the command started is still running. */
  stopped: boolean;
  /** How many processes were ended. */
  ended: number;
  /** The process table could be read, so `stopped` was checked, not assumed. */
  verified: boolean;
}

/** `taskkill` arguments that end a process and all its descendants. */
export function taskkillArgs(pid: number): string[] {
  return ['/PID', String(pid), '/T', '/F'];
}

/** pid → parent pid. */
export type ProcessTable = Map<number, number>;

const POWERSHELL_TABLE = [
  '-NoProfile',
  '-NonInteractive',
  '-Command',
  'Get-CimInstance Win32_Process | ForEach-Object { "$($_.ParentProcessId) $($_.ProcessId)" }',
];

/** `wmic process get ParentProcessId,ProcessId` (columns in any order), or "ppid pid" lines. */
export function parseTable(text: string): ProcessTable {
  const lines = text.split(/\r?\n/).map((l) => l.trim().split(/[\s,]+/));
  const header = lines[0]?.map((h) => h.toLowerCase()) ?? [];
  const hasHeader = header.includes('processid');
  const pidAt = hasHeader ? header.indexOf('processid') : 1;
  const ppidAt = hasHeader ? header.indexOf('parentprocessid') : 0;
  const table: ProcessTable = new Map();
  for (const cols of hasHeader ? lines.slice(1) : lines) {
    const pid = Number(cols[pidAt]);
    const ppid = Number(cols[ppidAt]);
    if (Number.isInteger(pid) && pid > 0 && Number.isInteger(ppid) && cols[pidAt] !== '')
      table.set(pid, ppid);
  }
  return table;
}

/** The process table, or undefined when neither wmic nor PowerShell could give it. */
export async function processTable(tools: ProcessTools): Promise<ProcessTable | undefined> {
  const w = await tools.run('wmic', ['process', 'get', 'ParentProcessId,ProcessId']);
  if (w.code === 0) {
    const t = parseTable(w.stdout);
    if (t.size) return t;
  }
  const p = await tools.run('powershell.exe', POWERSHELL_TABLE);
  if (p.code === 0) {
    const t = parseTable(p.stdout);
    if (t.size) return t;
  }
  return undefined;
}

/** Every process below `root` (children, their children, …), nearest first. */
export function descendants(table: ProcessTable, root: number): number[] {
  const out: number[] = [];
  const queue = [root];
  while (queue.length && out.length < 1000) {
    const parent = queue.shift()!;
    for (const [pid, ppid] of table) {
      if (ppid === parent && pid !== root && !out.includes(pid)) {
        out.push(pid);
        queue.push(pid);
      }
    }
  }
  return out;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** End the shell (when alive) and every process below it, then check that they are gone. */
export async function stopWindowsTree(
  pid: number,
  shellAlive: boolean,
  tools: ProcessTools,
): Promise<StopOutcome> {
  const before = await processTable(tools);
  const tree = before ? descendants(before, pid) : [];
  const targets = [...(shellAlive ? [pid] : []), ...tree];
  // taskkill /T reaches what the table may have missed; where it fails (Wine has no /T), each
  // process found is ended directly.
  const first = targets[0];
  const whole = first === undefined ? undefined : await tools.run('taskkill', taskkillArgs(first));
  for (const p of targets.slice(whole?.code === 0 ? 1 : 0)) {
    if (!tools.kill?.(p)) await tools.run('taskkill', taskkillArgs(p));
  }
  if (!before) return { stopped: false, ended: 0, verified: false };
  const sleep = tools.sleep ?? defaultSleep;
  let left = targets;
  for (let attempt = 0; attempt < 4; attempt++) {
    const after = await processTable(tools);
    if (!after) return { stopped: false, ended: 0, verified: false };
    // The same pid under the same parent: still the process we meant (not a new one reusing it).
    left = targets.filter((p) => after.has(p) && after.get(p) === before.get(p));
    if (!left.length) break;
    await sleep(250);
  }
  return { stopped: left.length === 0, ended: targets.length - left.length, verified: true };
}

/** wmic writes UTF-16; everything else here writes ASCII digits. */
function decodeTool(bytes: Buffer): string {
  const utf16 =
    (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes.length > 3 && bytes[1] === 0 && bytes[3] === 0);
  return utf16 ? bytes.toString('utf16le').replace(/^\ufeff/, '') : bytes.toString('utf8');
}

/** The real tools: spawn with no window, collect stdout, never throw. */
export const windowsTools: ProcessTools = {
  kill(pid) {
    try {
      return process.kill(pid, 'SIGKILL');
    } catch {
      return false;
    }
  },
  run(file, args) {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      const done = (code: number | null) => resolve({ code, stdout: decodeTool(Buffer.concat(chunks)) });
      try {
        const p = spawn(file, args, { windowsHide: true, stdio: ['ignore', 'pipe', 'ignore'] });
        p.stdout?.on('data', (d: Buffer) => chunks.push(d));
        p.on('error', () => done(null));
        p.on('close', (code) => done(code));
      } catch {
        done(null);
      }
    });
  },
};
