/**
 * zhi-sandbox.exe, the Windows helper that runs a command line inside a Job Object (source in
 * native/win-sandbox/, built by scripts/build-win-helper.mjs, shipped in dist/assets/win/): where
 * it is, the arguments it takes and the status lines it writes. The whole tree ends at once when
 * zhi closes the helper's standard input (a stop, or zhi going away) or kills the helper, because
 * the job is made with KILL_ON_JOB_CLOSE. No Win32 call is made from Node: no native addon.
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, win32 } from 'node:path';
import { installKind, packageRoot, readAssetSync } from '../../support/install.js';

/** The helper's name under dist/assets/. */
export const HELPER_ASSET = 'win/zhi-sandbox.exe';

export interface HelperRequest {
  /** The line given to `cmd.exe /d /s /c`. */
  command: string;
  /** cmd.exe by its full path: never looked up in the working folder. */
  comspec: string;
  /** The job's limit on processes alive at once. */
  maxProcesses?: number;
  /** Milliseconds what the command left running gets to finish once its shell has ended. */
  graceMs?: number;
  /** A restricted token that may write only in these folders (shell_sandbox: restricted). */
  writable?: string[];
}

/** cmd.exe by its full path, from SystemRoot (a ComSpec or PATH entry could point elsewhere). */
export function comspecFor(env: NodeJS.ProcessEnv): string {
  const root = env.SystemRoot ?? env.SYSTEMROOT ?? env.windir ?? 'C:\\Windows';
  return win32.join(root, 'System32', 'cmd.exe');
}

/**
 * The helper's command line, for spawn with `windowsVerbatimArguments`: its options, `--`, then
 * `"cmd.exe" /d /s /c "<line>"` exactly as Node writes it for `shell: true`. The helper passes
 * everything after ` -- ` to CreateProcessW unchanged, so cmd.exe reads the same line it does today.
 */
export function helperArgs(req: HelperRequest): string[] {
  const args: string[] = [];
  if (req.maxProcesses !== undefined) args.push('--max-processes', String(req.maxProcesses));
  if (req.graceMs !== undefined) args.push('--grace', String(req.graceMs));
  if (req.writable) {
    args.push('--restricted');
    // A Windows path holds no `"`: quoting is enough for the helper's plain reader.
    for (const dir of req.writable) args.push('--write', `"${dir}"`);
  }
  args.push('--', `"${req.comspec}"`, '/d', '/s', '/c', `"${req.command}"`);
  return args;
}

/** What the helper said on its status pipe (descriptor 3). */
export interface HelperStatus {
  /** The command's first process started inside the job. */
  started: boolean;
  /** The shell's own exit code, when it ended by itself. */
  exitCode?: number;
  /** Processes the command left running, ended after the grace period. */
  leftovers?: number;
  /** Ended on request; how many processes were still counted after the wait (0: checked gone). */
  stopLeft?: number;
  /** Setting up failed before the command ran: the step and the Windows error code. */
  error?: { step: number; code: number };
}

/** The helper's status lines (`run PID`, `exit CODE LEFT`, `stop LEFT`, `error STEP CODE`). */
export function parseStatus(text: string): HelperStatus {
  const status: HelperStatus = { started: false };
  for (const line of text.split('\n')) {
    const [word, a, b] = line.trim().split(' ');
    const n = Number(a);
    if (!Number.isInteger(n)) continue;
    if (word === 'run') status.started = true;
    else if (word === 'exit') {
      status.exitCode = n;
      status.leftovers = Number(b) || 0;
    } else if (word === 'stop') status.stopLeft = n;
    else if (word === 'error') status.error = { step: n, code: Number(b) || 0 };
  }
  return status;
}

/** The helper's steps, for a message when one fails (zhi-sandbox.c). */
export const HELPER_STEPS: Record<number, string> = {
  1: 'reading its arguments',
  2: 'creating the job object',
  3: 'setting the job limits',
  4: 'watching the control pipe',
  5: 'starting cmd.exe',
  6: 'putting cmd.exe in the job',
  10: 'making the run SID',
  11: 'opening its own token',
  12: 'making well-known SIDs',
  13: 'creating the restricted token',
  14: 'granting write access to the output folder',
};

let found: string | null | undefined;

/**
 * The helper on this machine, or undefined: beside a standalone executable (`zhi-sandbox.exe`),
 * in the npm package (`dist/assets/win/`), or written out once from inside the executable to
 * `<dataDir>/bin/<hash of its bytes>/` (the way the built-in skills are).
 */
export function windowsHelper(dataDir: string | undefined): string | undefined {
  if (found !== undefined) return found ?? undefined;
  found = locate(dataDir) ?? null;
  return found ?? undefined;
}

function locate(dataDir: string | undefined): string | undefined {
  try {
    if (installKind() !== 'exe') {
      const file = join(packageRoot(), 'dist', 'assets', ...HELPER_ASSET.split('/'));
      return existsSync(file) ? file : undefined;
    }
    const beside = join(dirname(process.execPath), 'zhi-sandbox.exe');
    if (existsSync(beside)) return beside;
    return dataDir ? extract(dataDir) : undefined;
  } catch {
    return undefined;
  }
}

/** The executable's own copy written to the data folder, renamed into place (two zhi at once). */
function extract(dataDir: string): string | undefined {
  const bytes = readAssetSync(HELPER_ASSET);
  // Only an executable gets here: node:crypto is loaded then, not at every start.
  const hash = process.getBuiltinModule('node:crypto').createHash('sha256').update(bytes).digest('hex');
  const dir = join(dataDir, 'bin', hash.slice(0, 12));
  const file = join(dir, 'zhi-sandbox.exe');
  if (existsSync(file)) return file;
  const temp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(temp, bytes);
    renameSync(temp, file);
  } catch {
    rmSync(temp, { force: true });
  }
  return existsSync(file) ? file : undefined;
}
