/**
 * Run one command line in the platform's shell (`/bin/sh -c` on Unix, `cmd.exe /d /s /c` on
 * Windows), so that a timeout or an interrupt stops the command and everything it started: a
 * process group of its own on Unix, the process tree on Windows (shell-kill-windows.ts). Output (stdout and stderr) is kept up to a byte cap; the rest is
 * read and counted but dropped, so a chatty command never blocks or fills memory.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { type ProcessTools, stopWindowsTree, windowsTools } from './shell-kill-windows.js';

export interface RunOptions {
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Bytes of output kept (stdout and stderr together). */
  maxBytes: number;
  env?: NodeJS.ProcessEnv;
  /** Grace period between the polite stop (SIGTERM) and SIGKILL. */
  killGraceMs?: number;
  platform?: NodeJS.Platform;
  /**
   * Run this program with these arguments instead of the platform's shell (the sandbox wraps
   * `/bin/sh -c <command>` in bwrap or sandbox-exec). Unix only.
   */
  wrap?: { file: string; args: string[] };
  /** How to find and end processes on Windows (a fake in tests). */
  processTools?: ProcessTools;
}

export interface RunResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Bytes the command wrote in total, and how many were dropped. */
  totalBytes: number;
  droppedBytes: number;
  timedOut: boolean;
  aborted: boolean;
  /** Processes the command left running in the background were stopped when it ended. */
  leftovers: boolean;
  durationMs: number;
  /** Set when the shell itself could not be started. */
  spawnError?: string;
  /** Windows: some process the command started could not be stopped and may still run. */
  stopFailed?: boolean;
}

export function runCommand(command: string, opts: RunOptions): Promise<RunResult> {
  const platform = opts.platform ?? process.platform;
  const windows = platform === 'win32';
  const started = Date.now();
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      const file = opts.wrap ? opts.wrap.file : command;
      const args = opts.wrap ? opts.wrap.args : [];
      child = spawn(file, args, {
        cwd: opts.cwd,
        env: opts.env ?? process.env,
        shell: !opts.wrap,
        // A new process group (Unix): kill(-pid) then reaches every process the command started.
        detached: !windows,
        windowsHide: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (err) {
      resolve(failed(err, started));
      return;
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let kept = 0;
    let total = 0;
    let timedOut = false;
    let aborted = false;
    let settled = false;
    const take = (into: Buffer[]) => (chunk: Buffer) => {
      total += chunk.length;
      const room = opts.maxBytes - kept;
      if (room <= 0) return;
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      into.push(part);
      kept += part.length;
    };
    child.stdout?.on('data', take(out));
    child.stderr?.on('data', take(err));

    let killTimer: NodeJS.Timeout | undefined;
    let shellExited = false;
    let stopFailed = false;
    // Windows: end the tree (through its orphans once cmd.exe has exited), then make sure the
    // pipes close even if something could not be stopped, and say so.
    const stopWindows = () => {
      if (child.pid === undefined) return;
      void stopWindowsTree(child.pid, !shellExited, opts.processTools ?? windowsTools).then((r) => {
        if (!r.stopped) stopFailed = true;
      });
      const guard = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
      }, opts.killGraceMs ?? 2000);
      guard.unref();
    };
    const stop = () => {
      if (windows) return stopWindows();
      killGroup(child, 'SIGTERM');
      killTimer = setTimeout(() => killGroup(child, 'SIGKILL'), opts.killGraceMs ?? 2000);
      killTimer.unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, opts.timeoutMs);
    const onAbort = () => {
      aborted = true;
      stop();
    };
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });

    let leftovers = false;
    let exitTimer: NodeJS.Timeout | undefined;
    const finish = (result: RunResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (exitTimer) clearTimeout(exitTimer);
      opts.signal?.removeEventListener('abort', onAbort);
      // The command is over: nothing it started in the background may outlive it.
      if (!windows && groupAlive(child)) {
        leftovers = true;
        killGroup(child, 'SIGKILL');
      } else if (!windows && (timedOut || aborted)) killGroup(child, 'SIGKILL');
      if (killTimer) clearTimeout(killTimer);
      resolve({ ...result, leftovers: result.leftovers || leftovers, ...(stopFailed ? { stopFailed } : {}) });
    };
    child.on('error', (e) => finish({ ...failed(e, started), timedOut, aborted }));
    // The shell ended but something it started still holds the output open (`sleep 100 &`):
    // give it a moment, then stop the group so that 'close' comes.
    child.on('exit', () => {
      shellExited = true;
      exitTimer = setTimeout(() => {
        if (settled) return;
        if (windows) {
          // cmd.exe is gone but `start /b …` still holds the output: end what it left.
          leftovers = true;
          stopWindows();
          return;
        }
        if (!groupAlive(child)) return;
        leftovers = true;
        killGroup(child, 'SIGKILL');
      }, 500);
      exitTimer.unref();
    });
    child.on('close', (code, signal) => {
      finish({
        exitCode: code,
        signal,
        stdout: decode(Buffer.concat(out), windows),
        stderr: decode(Buffer.concat(err), windows),
        totalBytes: total,
        droppedBytes: total - kept,
        timedOut,
        aborted,
        leftovers,
        durationMs: Date.now() - started,
      });
    });
  });
}

function groupAlive(child: ChildProcess): boolean {
  if (child.pid === undefined) return false;
  try {
    process.kill(-child.pid, 0);
    return true;
  } catch {
    return false;
  }
}

function killGroup(child: ChildProcess, sig: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, sig);
  } catch {
    // Already gone.
  }
}

function failed(err: unknown, started: number): RunResult {
  return {
    exitCode: null,
    signal: null,
    stdout: '',
    stderr: '',
    totalBytes: 0,
    droppedBytes: 0,
    timedOut: false,
    aborted: false,
    leftovers: false,
    durationMs: Date.now() - started,
    spawnError: err instanceof Error ? err.message : String(err),
  };
}

/** UTF-8, or GB18030 when the bytes are not valid UTF-8 (a Chinese Windows console). */
function decode(bytes: Buffer, windows: boolean): string {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  // The byte cap may have cut the last character in two: allow up to 3 missing bytes at the end.
  for (let cut = 0; cut <= Math.min(3, bytes.length); cut++) {
    try {
      return utf8.decode(bytes.subarray(0, bytes.length - cut));
    } catch {
      // try a shorter tail
    }
  }
  return new TextDecoder(windows ? 'gb18030' : 'utf-8').decode(bytes);
}
