/**
 * Shell commands in an OS sandbox (design §3): bubblewrap on Linux, Seatbelt (`sandbox-exec`) on
 * macOS. `runSandboxed` is the one entry point for running a command line a person approved —
 * the shell tool, the REPL's `!command` and skill scripts all use it. Where no sandbox exists
 * (Windows, Linux without a working `bwrap`, or `shell_sandbox: off`) the command runs plainly and
 * the result says so, so the approval prompt can say "not sandboxed".
 */
import { execFile, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { installKind } from '../../support/install.js';
import { makeFolderSync, removeIfEmpty } from '../../support/make-folder.js';
import { appPaths } from '../../support/paths.js';
import type { SandboxMode } from '../types.js';
import { pidsCgroup } from './cgroup-pids.js';
import { BRIDGE, proxyEnv, serveChannel } from './net-bridge.js';
import { startEgressProxy } from './net-proxy.js';
import { type RunOptions, type RunResult, runCommand } from './run.js';
import { policyFor, real, type SandboxedOptions } from './sandbox-policy.js';

export { policyFor, type SandboxedOptions } from './sandbox-policy.js';

import {
  bwrapArgs,
  LIMITS,
  limitedCommand,
  type SandboxPolicy,
  type SandboxRoot,
  seatbeltArgs,
} from './sandbox-args.js';
import { programFolders, rootOnlyPlaces, systemEntries } from './sandbox-root.js';
import { allowedCount, syscallFilter } from './seccomp.js';
import { windowsHelper } from './win-helper.js';

export type SandboxKind = 'bwrap' | 'seatbelt';

/** Why there is no sandbox, for the prompt and `zhi doctor`. */
export type NoSandboxReason = 'off' | 'windows' | 'missing' | 'broken' | 'unsupported' | 'privileged';

export type SandboxState = { kind: SandboxKind } | { kind: 'none'; reason: NoSandboxReason; detail?: string };

let probed: SandboxState | undefined;

export interface ProbeSeams {
  platform?: NodeJS.Platform;
  /** Run a program, return its exit status and error text (spawnSync in real use). */
  run?: (file: string, args: string[]) => ProbeRun;
}

interface ProbeRun {
  status: number | null;
  error?: string;
  stderr?: string;
  stdout?: string;
}

/** runSync without blocking (sandboxSoon); never rejects. */
function runAsync(file: string, args: string[]): Promise<ProbeRun> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 5000, encoding: 'utf8' }, (err, stdout, stderr) => {
      const status = err ? (typeof err.code === 'number' ? err.code : null) : 0;
      resolve({ status, ...(err && status === null ? { error: err.message } : {}), stderr, stdout });
    });
  });
}

function runSync(file: string, args: string[]): ProbeRun {
  const r = spawnSync(file, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 5000, encoding: 'utf8' });
  return {
    status: r.status,
    ...(r.error ? { error: r.error.message } : {}),
    stderr: r.stderr ?? '',
    stdout: r.stdout ?? '',
  };
}

/**
 * Which sandbox this machine has. Decided by trying it (a `bwrap` that cannot create namespaces
 * — some containers, or user namespaces turned off — is as good as none), once per process.
 */
export function sandboxState(seams: ProbeSeams = {}): SandboxState {
  if (probed && !seams.run && !seams.platform) return probed;
  const state = probe(seams);
  if (!seams.run && !seams.platform) probed = state;
  return state;
}

/** The sandbox a command gets under the `shell_sandbox` setting: none when it is `off`. */
export function sandboxFor(mode: SandboxMode): SandboxState {
  return mode === 'off' ? { kind: 'none', reason: 'off' } : sandboxState();
}

/**
 * The sandbox a command gets, without blocking: the probe runs as a child process while the caller
 * works (the first shell call loads its grammar meanwhile). Once per process, like sandboxState.
 */
export function sandboxSoon(mode: SandboxMode): Promise<SandboxState> {
  if (mode === 'off') return Promise.resolve({ kind: 'none', reason: 'off' });
  if (probed) return Promise.resolve(probed);
  probing ??= (async () => {
    const platform = process.platform;
    const command = probeCommand(platform);
    const state =
      'kind' in command ? command : verdict(platform, await runAsync(command.file, command.args), true);
    probed ??= state;
    return probed;
  })();
  return probing;
}

let probing: Promise<SandboxState> | undefined;

/** What the probe runs inside the sandbox: the capabilities it would have (all must be zero). */
const CAP_CHECK = 'grep -E "^Cap(Eff|Prm|Bnd):" /proc/self/status';

/** The program that tells whether the sandbox works here, or the answer when none can. */
function probeCommand(platform: NodeJS.Platform): { file: string; args: string[] } | SandboxState {
  if (platform === 'win32') return { kind: 'none', reason: 'windows' };
  if (platform === 'darwin')
    return { file: '/usr/bin/sandbox-exec', args: ['-p', '(version 1)(allow default)', '/usr/bin/true'] };
  if (platform !== 'linux') return { kind: 'none', reason: 'unsupported' };
  // The same isolation every command gets: a user namespace with every capability dropped.
  return {
    file: 'bwrap',
    args: [
      '--unshare-user',
      '--cap-drop',
      'ALL',
      '--ro-bind',
      '/',
      '/',
      '--unshare-net',
      '--unshare-pid',
      '--proc',
      '/proc',
      '/bin/sh',
      '-c',
      CAP_CHECK,
    ],
  };
}

function probe(seams: ProbeSeams): SandboxState {
  const platform = seams.platform ?? process.platform;
  const command = probeCommand(platform);
  if ('kind' in command) return command;
  return verdict(platform, (seams.run ?? runSync)(command.file, command.args), seams.run === undefined);
}

/** What the probe's run says. `real`: a real bwrap run, which must report its capabilities. */
function verdict(platform: NodeJS.Platform, r: ProbeRun, real: boolean): SandboxState {
  if (platform === 'darwin') {
    return r.status === 0
      ? { kind: 'seatbelt' }
      : { kind: 'none', reason: 'broken', detail: r.error ?? r.stderr };
  }
  if (r.error && /ENOENT/.test(r.error)) return { kind: 'none', reason: 'missing' };
  if (r.status !== 0) return { kind: 'none', reason: 'broken', detail: (r.stderr || r.error || '').trim() };
  // A bwrap that keeps capabilities (an old setuid build ignoring --cap-drop) does not contain root.
  const caps = (r.stdout ?? '').match(/^Cap\w+:\s*([0-9a-f]+)/gm) ?? [];
  if (real && caps.length === 0)
    return { kind: 'none', reason: 'privileged', detail: 'no capability report' };
  if (caps.some((line) => !/:\s*0+$/.test(line)))
    return { kind: 'none', reason: 'privileged', detail: caps.join('; ') };
  return { kind: 'bwrap' };
}

export interface SandboxedResult extends RunResult {
  /** The sandbox the command ran in, or none. */
  sandbox: SandboxState;
  /** Destinations the network filter refused (Linux, network allowed), each with why. */
  egressRefused?: string[];
}

/** Run one approved command line, in the sandbox when there is one. */
export async function runSandboxed(command: string, opts: SandboxedOptions): Promise<SandboxedResult> {
  const sandbox = sandboxFor(opts.mode ?? 'auto');
  const base = {
    cwd: opts.cwd,
    timeoutMs: opts.timeoutMs,
    maxBytes: opts.maxBytes,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.env ? { env: opts.env } : {}),
  };
  if (sandbox.kind === 'none') return { ...(await runWindowsAware(command, opts, base)), sandbox };
  // The output folder must exist to be bound writable; one made only for this command is removed
  // again when the command left nothing in it (`!echo hi` leaves no empty zhi-output behind).
  const created = makeFolderSync(opts.outputDir);
  try {
    if (sandbox.kind === 'bwrap') return { ...(await runBwrap(command, opts, base)), sandbox };
    return { ...(await runSeatbelt(command, opts, base)), sandbox };
  } finally {
    if (created) removeIfEmpty(opts.outputDir, created);
  }
}

/**
 * No OS sandbox. On Windows the command runs in a Job Object through zhi-sandbox.exe when it is
 * there (the whole tree ends at once on a stop), and under `shell_sandbox: restricted` also with a
 * restricted token that may write only in the output folder (and the working folder when widened).
 */
async function runWindowsAware(
  command: string,
  opts: SandboxedOptions,
  base: RunOptions,
): Promise<RunResult> {
  const file = process.platform === 'win32' ? windowsHelper(appPaths().dataDir) : undefined;
  if (!file) return runCommand(command, base);
  if (opts.mode !== 'restricted') {
    return runCommand(command, { ...base, jobHelper: { file, request: { maxProcesses: LIMITS.processes } } });
  }
  const writable = [opts.outputDir, ...(opts.allowWriteCwd ? [opts.cwd] : [])];
  const created = makeFolderSync(opts.outputDir);
  try {
    const request = { maxProcesses: LIMITS.processes, writable };
    return await runCommand(command, { ...base, jobHelper: { file, request } });
  } finally {
    if (created) removeIfEmpty(opts.outputDir, created);
  }
}

async function runSeatbelt(command: string, opts: SandboxedOptions, base: RunOptions): Promise<RunResult> {
  const temp = mkdtempSync(join(real(tmpdir()), 'zhi-sh-'));
  try {
    const args = [...seatbeltArgs(policyFor(opts, temp)), '/bin/sh', '-c', command];
    const env = { ...(opts.env ?? process.env), TMPDIR: temp };
    return await runCommand(command, { ...base, env, wrap: { file: '/usr/bin/sandbox-exec', args } });
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/** The Linux root for a command (sandbox-root.ts): system folders, their masks, programs' folders. */
function linuxRoot(env: NodeJS.ProcessEnv | undefined): SandboxRoot {
  const home = real(homedir());
  return {
    system: systemEntries(),
    masked: rootOnlyPlaces(),
    programs: programFolders((env ?? process.env).PATH, home, [dirname(process.execPath)]),
  };
}

/**
 * bubblewrap, with the seccomp filter handed over on file descriptor 3 (written to a private
 * temporary file first: bwrap reads it before the command starts).
 */
async function runBwrap(
  command: string,
  opts: SandboxedOptions,
  base: RunOptions,
): Promise<RunResult & Pick<SandboxedResult, 'egressRefused'>> {
  const filter = syscallFilter();
  // The network, when allowed, is the filtering proxy's (net-bridge.ts): the namespace stays private.
  const proxy = opts.allowNetwork && !standalone() ? await startEgressProxy(opts.egress) : undefined;
  const policy: SandboxPolicy = {
    ...policyFor(opts, '/tmp'),
    network: false,
    root: linuxRoot(opts.env),
    ...(bwrapHasSize() ? { tmpBytes: LIMITS.tmpBytes } : {}),
    ...(proxy ? { setenv: proxyEnv() } : {}),
  };
  // bwrap, the namespace's first process and the shell (and the bridge) come before the command's own.
  const run: RunOptions = {
    ...base,
    maxProcesses: LIMITS.processes + 4,
    ...(proxy ? { channel: (end) => serveChannel(end, proxy.port) } : {}),
  };
  const line = limitedCommand(command, LIMITS, proxy ? [process.execPath, '-e', BRIDGE] : undefined);
  const dir = mkdtempSync(join(tmpdir(), 'zhi-seccomp-'));
  try {
    const extraFds: number[] = [];
    if (filter) {
      writeFileSync(join(dir, 'filter.bpf'), filter, { mode: 0o600 });
      extraFds.push(openSync(join(dir, 'filter.bpf'), 'r'));
    } else if (proxy) {
      // The channel must arrive as fd 4 (CHANNEL_FD): something has to be fd 3.
      extraFds.push(openSync('/dev/null', 'r'));
    }
    try {
      const args = [...bwrapArgs({ ...policy, ...(filter ? { seccompFd: 3 } : {}) }), ...line];
      // As root, a pids cgroup refuses the fork past the limit (cgroup-pids.ts).
      const cgroup = pidsCgroup(LIMITS.processes + (proxy ? 20 : 4));
      const wrap = cgroup ? cgroup.wrap('bwrap', args) : { file: 'bwrap', args };
      try {
        const result = await runCommand(command, { ...run, wrap, extraFds });
        return proxy?.refused.length ? { ...result, egressRefused: [...proxy.refused] } : result;
      } finally {
        await cgroup?.remove();
      }
    } finally {
      for (const fd of extraFds) closeSync(fd);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await proxy?.close();
  }
}

let hasSize: boolean | undefined;

/** Whether this bwrap caps a tmpfs (`--size`, bubblewrap 0.5 on); without it /tmp is bounded by the file size limit only. */
function bwrapHasSize(): boolean {
  hasSize ??= /--size\b/.test(runSync('bwrap', ['--help']).stdout ?? '');
  return hasSize;
}

/** What the Linux sandbox enforces here, for `zhi doctor`. */
export interface SandboxFacts {
  arch: string;
  /** System calls the seccomp allow-list lets through, or undefined without a filter. */
  syscalls: number | undefined;
  tmpBytes: number | undefined;
  fileBytes: number;
  processes: number;
}

export function sandboxFacts(): SandboxFacts {
  return {
    arch: process.arch,
    syscalls: allowedCount(),
    tmpBytes: bwrapHasSize() ? LIMITS.tmpBytes : undefined,
    fileBytes: LIMITS.fileBytes,
    processes: LIMITS.processes,
  };
}

/** Whether "also use the network" can be offered: the filtering bridge runs on Node, not in a standalone executable. */
export function networkOffered(state: SandboxState): boolean {
  return state.kind === 'seatbelt' || (state.kind === 'bwrap' && !standalone());
}

/** A standalone executable: no `node` to run the network bridge with. */
function standalone(): boolean {
  try {
    return installKind() === 'exe';
  } catch {
    return false; // not an installed zhi (a library use): Node is what runs
  }
}
