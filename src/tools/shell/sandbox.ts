/**
 * Shell commands in an OS sandbox (design §3): bubblewrap on Linux, Seatbelt (`sandbox-exec`) on
 * macOS. `runSandboxed` is the one entry point for running a command line a person approved —
 * the shell tool, the REPL's `!command` and skill scripts all use it. Where no sandbox exists
 * (Windows, Linux without a working `bwrap`, or `shell_sandbox: off`) the command runs plainly and
 * the result says so, so the approval prompt can say "not sandboxed".
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeFolderSync, removeIfEmpty } from '../../support/make-folder.js';
import { appPaths } from '../../support/paths.js';
import { type RunResult, runCommand } from './run.js';
import { bwrapArgs, type SandboxPolicy, seatbeltArgs, secretPaths } from './sandbox-args.js';
import { sandboxMode } from './sandbox-mode.js';

export type SandboxKind = 'bwrap' | 'seatbelt';

/** Why there is no sandbox, for the prompt and `zhi doctor`. */
export type NoSandboxReason = 'off' | 'windows' | 'missing' | 'broken' | 'unsupported';

export type SandboxState = { kind: SandboxKind } | { kind: 'none'; reason: NoSandboxReason; detail?: string };

let probed: SandboxState | undefined;

export interface ProbeSeams {
  platform?: NodeJS.Platform;
  /** Run a program, return its exit status and error text (spawnSync in real use). */
  run?: (file: string, args: string[]) => { status: number | null; error?: string; stderr?: string };
}

function runSync(file: string, args: string[]): { status: number | null; error?: string; stderr?: string } {
  const r = spawnSync(file, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 5000, encoding: 'utf8' });
  return { status: r.status, ...(r.error ? { error: r.error.message } : {}), stderr: r.stderr ?? '' };
}

/**
 * Which sandbox this machine has. Decided by trying it (a `bwrap` that cannot create namespaces
 * — some containers, or user namespaces turned off — is as good as none), once per process.
 */
export function sandboxState(seams: ProbeSeams = {}): SandboxState {
  if (sandboxMode() === 'off') return { kind: 'none', reason: 'off' };
  if (probed && !seams.run && !seams.platform) return probed;
  const state = probe(seams);
  if (!seams.run && !seams.platform) probed = state;
  return state;
}

function probe(seams: ProbeSeams): SandboxState {
  const platform = seams.platform ?? process.platform;
  const run = seams.run ?? runSync;
  if (platform === 'win32') return { kind: 'none', reason: 'windows' };
  if (platform === 'darwin') {
    const r = run('/usr/bin/sandbox-exec', ['-p', '(version 1)(allow default)', '/usr/bin/true']);
    return r.status === 0
      ? { kind: 'seatbelt' }
      : { kind: 'none', reason: 'broken', detail: r.error ?? r.stderr };
  }
  if (platform !== 'linux') return { kind: 'none', reason: 'unsupported' };
  const r = run('bwrap', [
    '--ro-bind',
    '/',
    '/',
    '--unshare-net',
    '--unshare-pid',
    '--proc',
    '/proc',
    'true',
  ]);
  if (r.error && /ENOENT/.test(r.error)) return { kind: 'none', reason: 'missing' };
  if (r.status !== 0) return { kind: 'none', reason: 'broken', detail: (r.stderr || r.error || '').trim() };
  return { kind: 'bwrap' };
}

export interface SandboxedOptions {
  cwd: string;
  /** The one folder the command may write (created if missing). */
  outputDir: string;
  /** Widened for this one command by the person: write in the current folder too. */
  allowWriteCwd?: boolean;
  /** Widened for this one command by the person: reach the network. */
  allowNetwork?: boolean;
  /** Folders readable even inside a hidden one (a skill's own folder). */
  extraReadable?: string[];
  timeoutMs: number;
  signal?: AbortSignal;
  maxBytes: number;
  env?: NodeJS.ProcessEnv;
}

export interface SandboxedResult extends RunResult {
  /** The sandbox the command ran in, or none. */
  sandbox: SandboxState;
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** The policy for one command; exported for tests. */
export function policyFor(opts: SandboxedOptions, tempDir: string, env = process.env): SandboxPolicy {
  const writable = [real(opts.outputDir)];
  if (opts.allowWriteCwd) writable.push(real(opts.cwd));
  const hidden = secretPaths(real(homedir()), real(appPaths(env).configDir)).filter((h) =>
    existsSync(h.path),
  );
  return {
    cwd: real(opts.cwd),
    writable,
    hidden,
    extraReadable: (opts.extraReadable ?? []).filter((p) => existsSync(p)).map(real),
    network: Boolean(opts.allowNetwork),
    tempDir,
  };
}

/** Run one approved command line, in the sandbox when there is one. */
export async function runSandboxed(command: string, opts: SandboxedOptions): Promise<SandboxedResult> {
  const sandbox = sandboxState();
  const base = {
    cwd: opts.cwd,
    timeoutMs: opts.timeoutMs,
    maxBytes: opts.maxBytes,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.env ? { env: opts.env } : {}),
  };
  if (sandbox.kind === 'none') return { ...(await runCommand(command, base)), sandbox };
  // The output folder must exist to be bound writable; one made only for this command is removed
  // again when the command left nothing in it (`!echo hi` leaves no empty zhi-output behind).
  const created = makeFolderSync(opts.outputDir);
  try {
    return await runInSandbox(command, opts, sandbox.kind, base);
  } finally {
    if (created) removeIfEmpty(opts.outputDir, created);
  }
}

async function runInSandbox(
  command: string,
  opts: SandboxedOptions,
  kind: SandboxKind,
  base: Parameters<typeof runCommand>[1],
): Promise<SandboxedResult> {
  const sandbox = { kind } as const;
  if (kind === 'bwrap') {
    const args = [...bwrapArgs(policyFor(opts, '/tmp')), '/bin/sh', '-c', command];
    return { ...(await runCommand(command, { ...base, wrap: { file: 'bwrap', args } })), sandbox };
  }
  const temp = mkdtempSync(join(real(tmpdir()), 'zhi-sh-'));
  try {
    const args = [...seatbeltArgs(policyFor(opts, temp)), '/bin/sh', '-c', command];
    const env = { ...(opts.env ?? process.env), TMPDIR: temp };
    const result = await runCommand(command, { ...base, env, wrap: { file: '/usr/bin/sandbox-exec', args } });
    return { ...result, sandbox };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}
