/**
 * Run one command line in the platform's shell (`/bin/sh -c` on Unix, `cmd.exe /d /s /c` on
 * Windows), so that a timeout or an interrupt stops the command and everything it started: a
 * process group of its own on Unix, the process tree on Windows (shell-kill-windows.ts). Output
 * (stdout and stderr) is kept up to a byte cap; the rest is read and counted but dropped, so a
 * chatty command never blocks or fills memory.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Duplex } from 'node:stream';
import { closeInheritedFds } from '../../support/inherited-fds.js';
import { CappedOutput } from './capped-output.js';
import { type ProcessTools, stopWindowsTree, windowsTools } from './kill-windows.js';
import { consoleCodePage, decodeOutput, encodingOf } from './output-decode.js';
import { descendantCount } from './process-count.js';
import { groupAlive, killGroup } from './process-group.js';
import { comspecFor, HELPER_STEPS, type HelperRequest, helperArgs, parseStatus } from './win-helper.js';

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
  /**
   * Stop the command when it has more processes than this (Linux; the sandbox's process limit
   * where the kernel's does not apply: zhi running as root, process-count.ts).
   */
  maxProcesses?: number;
  /** Open file descriptors handed to the program as fd 3, 4… (the sandbox's seccomp filter). */
  extraFds?: number[];
  /** A connected socket pair handed to the program after extraFds; zhi's end goes here (net-bridge.ts). */
  channel?: (stream: Duplex) => void;
  /** How to find and end processes on Windows (a fake in tests). */
  processTools?: ProcessTools;
  /** Windows: the console code page output not in UTF-8 is decoded with (936 when unknown). */
  codePage?: number;
  /**
   * Windows: run the line through zhi-sandbox.exe (win-helper.ts), inside a Job Object that ends
   * the whole tree at once; without it, the tree is found and ended with taskkill (kill-windows.ts).
   */
  jobHelper?: { file: string; request?: Omit<HelperRequest, 'command' | 'comspec'> };
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
  /** Stopped for starting more processes than `maxProcesses`. */
  tooManyProcesses?: boolean;
  /** Windows: the Job Object helper could not set up, so the command did not run through it. */
  helperError?: string;
}

export async function runCommand(command: string, opts: RunOptions): Promise<RunResult> {
  const windows = (opts.platform ?? process.platform) === 'win32';
  if (windows && opts.codePage === undefined) {
    const codePage = await consoleCodePage();
    if (codePage !== undefined) opts = { ...opts, codePage };
  }
  if (!windows || !opts.jobHelper) return runOnce(command, opts);
  const result = await runOnce(command, opts);
  // The helper failed before the command ran (or could not be started): the command runs as it did
  // before the helper, unless a restricted token was asked for — that is never quietly dropped.
  if (!result.helperError || opts.jobHelper.request?.writable || opts.signal?.aborted) return result;
  const { jobHelper: _, ...plain } = opts;
  return runOnce(command, plain);
}

function runOnce(command: string, opts: RunOptions): Promise<RunResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawnShell(command, opts);
      const end = child.stdio[3 + (opts.extraFds?.length ?? 0)];
      if (opts.channel && end) opts.channel(end as Duplex);
    } catch (err) {
      resolve(failed(err, started));
      return;
    }
    new RunningCommand(child, opts, started, resolve, usesStart(command)).watch();
  });
}

function spawnShell(command: string, opts: RunOptions): ChildProcess {
  const windows = (opts.platform ?? process.platform) === 'win32';
  // Node hands every descriptor without close-on-exec to the child: only stdio (and extraFds) may go.
  closeInheritedFds();
  if (windows && opts.jobHelper) {
    const env = opts.env ?? process.env;
    const args = helperArgs({ ...opts.jobHelper.request, command, comspec: comspecFor(env) });
    // Standard input is the control pipe (closed: stop), descriptor 3 the helper's status lines.
    return spawn(opts.jobHelper.file, args, {
      cwd: opts.cwd,
      env,
      windowsVerbatimArguments: true,
      windowsHide: true,
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    });
  }
  const file = opts.wrap ? opts.wrap.file : command;
  const args = opts.wrap ? opts.wrap.args : [];
  return spawn(file, args, {
    cwd: opts.cwd,
    env: opts.env ?? process.env,
    shell: !opts.wrap,
    // A new process group (Unix): kill(-pid) then reaches every process the command started.
    detached: !windows,
    windowsHide: true,
    stdio: ['ignore', 'pipe', 'pipe', ...(opts.extraFds ?? []), ...(opts.channel ? ['pipe' as const] : [])],
  });
}

/** One started command: its output, its timeout and interrupt, how it is stopped, its result. */
class RunningCommand {
  private readonly windows: boolean;
  private readonly output: CappedOutput;
  private timedOut = false;
  private aborted = false;
  private settled = false;
  private shellExited = false;
  private stopFailed = false;
  private leftovers = false;
  private killTimer: NodeJS.Timeout | undefined;
  private exitTimer: NodeJS.Timeout | undefined;
  private timer: NodeJS.Timeout | undefined;
  private counter: NodeJS.Timeout | undefined;
  private tooManyProcesses = false;
  /** Windows: ending the tree and checking it is gone. */
  private stopping: Promise<void> | undefined;
  /** Windows: run through the Job Object helper; what it said on its status pipe. */
  private readonly helper: boolean;
  private status = '';

  constructor(
    private readonly child: ChildProcess,
    private readonly opts: RunOptions,
    private readonly started: number,
    private readonly resolve: (result: RunResult) => void,
    /** Windows: `start` may detach what it starts from the tree (Wine's start.exe does). */
    private readonly detaches = false,
  ) {
    this.windows = (opts.platform ?? process.platform) === 'win32';
    this.helper = this.windows && Boolean(opts.jobHelper);
    this.output = new CappedOutput(opts.maxBytes);
  }

  watch(): void {
    const { child, opts } = this;
    child.stdout?.on('data', this.output.take(this.output.out));
    child.stderr?.on('data', this.output.take(this.output.err));
    if (this.helper) {
      // The helper may be gone by the time a stop closes its control pipe.
      child.stdin?.on('error', () => {});
      child.stdio[3]?.on('data', (d: Buffer) => {
        this.status += d.toString('latin1');
      });
    }
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.stop();
    }, opts.timeoutMs);
    this.countProcesses();
    if (opts.signal?.aborted) this.onAbort();
    else opts.signal?.addEventListener('abort', this.onAbort, { once: true });
    child.on('error', (e) => {
      const unstarted = this.helper && !parseStatus(this.status).started;
      this.finish({
        ...failed(e, this.started),
        timedOut: this.timedOut,
        aborted: this.aborted,
        ...(unstarted ? { helperError: e.message } : {}),
      });
    });
    child.on('exit', () => this.onExit());
    child.on('close', (code, signal) => this.finish(this.result(code, signal)));
  }

  /** Every 100 ms, the command's processes counted; past the limit it is stopped. */
  private countProcesses(): void {
    const { maxProcesses } = this.opts;
    const pid = this.child.pid;
    if (maxProcesses === undefined || pid === undefined) return;
    this.counter = setInterval(() => {
      if (descendantCount(pid, maxProcesses) <= maxProcesses) return;
      this.tooManyProcesses = true;
      clearInterval(this.counter);
      killGroup(this.child, 'SIGKILL');
    }, 100);
    this.counter.unref();
  }

  private readonly onAbort = (): void => {
    this.aborted = true;
    this.stop();
  };

  private stop(): void {
    if (this.helper) {
      // Closing the control pipe ends the job at once; a helper that does not answer is killed,
      // which closes the job's last handle and ends the tree all the same (KILL_ON_JOB_CLOSE).
      this.child.stdin?.end();
      this.killTimer = setTimeout(() => this.child.kill(), HELPER_STOP_MS);
      this.killTimer.unref();
      return;
    }
    if (this.windows) {
      this.stopWindows();
      return;
    }
    killGroup(this.child, 'SIGTERM');
    this.killTimer = setTimeout(() => killGroup(this.child, 'SIGKILL'), this.opts.killGraceMs ?? 2000);
    this.killTimer.unref();
  }

  /**
   * Windows: end the tree (through its orphans once cmd.exe has exited) and check it is gone;
   * then close the pipes even if something could not be stopped, and say so.
   */
  private stopWindows(): void {
    const { child, opts } = this;
    if (child.pid === undefined || this.stopping) return;
    const closePipes = () => {
      child.stdout?.destroy();
      child.stderr?.destroy();
    };
    const tree = stopWindowsTree(child.pid, !this.shellExited, opts.processTools ?? windowsTools).then(
      (r) => {
        // A program `start` detached has no parent to be found by: it cannot be confirmed gone.
        if (!r.stopped || this.detaches) this.stopFailed = true;
        // What the tree wrote before it ended is still in the pipe: a moment to read it.
        setTimeout(closePipes, 300).unref();
      },
    );
    // However long checking takes, the result does not wait forever.
    const limit = delay(STOP_LIMIT_MS).then(() => {
      this.stopFailed = true;
      closePipes();
      // cmd.exe itself may be what would not stop: then 'close' never comes.
      setTimeout(() => this.finish(this.result(null, null)), 500).unref();
    });
    this.stopping = Promise.race([tree, limit]);
  }

  /**
   * The shell ended but something it started still holds the output open (`sleep 100 &`): give it
   * a moment, then stop the group so that 'close' comes.
   */
  private onExit(): void {
    this.shellExited = true;
    this.exitTimer = setTimeout(() => {
      if (this.settled) return;
      if (this.helper) {
        // The helper ends only after the job is empty: nothing of the command can hold the pipes.
        for (const s of this.child.stdio) s?.destroy();
        return;
      }
      if (this.windows) {
        // cmd.exe is gone but `start /b …` still holds the output: end what it left.
        this.leftovers = true;
        this.stopWindows();
        return;
      }
      if (!groupAlive(this.child)) return;
      this.leftovers = true;
      killGroup(this.child, 'SIGKILL');
    }, 500);
    this.exitTimer.unref();
  }

  /** What the helper's status lines add: leftovers ended, a stop checked, a failed setup. */
  private helperOutcome(result: RunResult): RunResult {
    this.child.stdin?.destroy();
    const status = parseStatus(this.status);
    if (status.error) {
      const step = HELPER_STEPS[status.error.step] ?? `step ${status.error.step}`;
      return { ...result, helperError: `${step} failed (Windows error ${status.error.code})` };
    }
    if (status.leftovers) this.leftovers = true;
    // "stop 0": the job was counted empty after the stop. Anything else was not checked.
    if ((this.timedOut || this.aborted) && status.stopLeft !== 0) this.stopFailed = true;
    return result;
  }

  private result(code: number | null, signal: NodeJS.Signals | null): RunResult {
    const { output } = this;
    return {
      exitCode: code,
      signal,
      stdout: this.decode(output.out),
      stderr: this.decode(output.err),
      totalBytes: output.total,
      droppedBytes: output.total - output.kept,
      timedOut: this.timedOut,
      aborted: this.aborted,
      leftovers: this.leftovers,
      durationMs: Date.now() - this.started,
    };
  }

  private decode(chunks: Buffer[]): string {
    const fallback = this.windows ? encodingOf(this.opts.codePage) : 'utf-8';
    return decodeOutput(Buffer.concat(chunks), fallback, this.windows);
  }

  private finish(result: RunResult): void {
    if (this.settled) return;
    this.settled = true;
    if (this.helper) result = this.helperOutcome(result);
    clearTimeout(this.timer);
    clearInterval(this.counter);
    if (this.exitTimer) clearTimeout(this.exitTimer);
    this.opts.signal?.removeEventListener('abort', this.onAbort);
    // The command is over: nothing it started in the background may outlive it.
    if (!this.windows && groupAlive(this.child)) {
      this.leftovers = true;
      killGroup(this.child, 'SIGKILL');
    } else if (!this.windows && (this.timedOut || this.aborted)) killGroup(this.child, 'SIGKILL');
    if (this.killTimer) clearTimeout(this.killTimer);
    const leftovers = result.leftovers || this.leftovers;
    const done = () =>
      this.resolve({
        ...result,
        leftovers,
        ...(this.stopFailed ? { stopFailed: true } : {}),
        ...(this.tooManyProcesses ? { tooManyProcesses: true } : {}),
      });
    // Windows: the result says whether the tree is gone only once that has been checked.
    if (this.stopping) void this.stopping.then(done);
    else done();
  }
}

/** The line starts a program with `start` (checked only to say what cannot be confirmed). */
function usesStart(command: string): boolean {
  return /(^|[\s&|(@])start(\s|$)/i.test(command);
}

/** How long ending a Windows process tree and checking it may take before zhi gives up. */
const STOP_LIMIT_MS = 15_000;

/** How long the Job Object helper gets to end the job when asked before it is killed instead. */
const HELPER_STOP_MS = 5000;

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
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
