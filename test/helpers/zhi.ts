/** Spawn the built `zhi` binary the way a user would, against the fake server. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TEST_KEY } from '../fake-zhipu/server.js';
import { stretched } from './slowdown.js';

export const ZHI_BIN = resolve(import.meta.dirname, '../../dist/zhi.js');

export interface RunOptions {
  args: string[];
  baseUrl?: string;
  /** Text written to stdin (then closed). Omit for an empty, closed stdin. */
  stdin?: string | Buffer;
  cwd?: string;
  home?: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function tempDir(prefix = 'zhi-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function cleanup(...dirs: string[]): void {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}

/** The environment of a test run: isolated home, the fake server, fast retries, English, no colour. */
export function testEnv(o: {
  baseUrl?: string;
  home: string;
  env?: Record<string, string | undefined>;
}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: o.home,
    ZHI_HOME: o.home,
    ZHI_API_KEY: TEST_KEY,
    ZHI_RETRY_BASE_MS: '1',
    LANG: 'C',
    TERM: 'dumb',
    // The REPL's status line is tested on its own (repl-staples-pty); elsewhere the prompt is last.
    ZHI_STATUS_LINE: 'off',
    // No test looks for a newer zhi on the network; update-check.test.ts turns it on with a fake registry.
    ZHI_UPDATE_CHECK: 'false',
    ...(o.baseUrl ? { ZHI_BASE_URL: o.baseUrl } : {}),
  };
  for (const [k, v] of Object.entries(o.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export function runZhi(o: RunOptions): Promise<RunResult> {
  // A home made here for this one run is removed with it.
  const own = o.home === undefined;
  const home = o.home ?? tempDir('zhi-home-');
  const child = spawn(process.execPath, [ZHI_BIN, ...o.args], {
    cwd: o.cwd ?? home,
    env: testEnv({ ...(o.baseUrl ? { baseUrl: o.baseUrl } : {}), home, ...(o.env ? { env: o.env } : {}) }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  if (o.stdin !== undefined) child.stdin.end(o.stdin);
  else child.stdin.end();
  // A ceiling for a hung zhi, not a measure: generous, and stretched on a loaded machine.
  const timeout = setTimeout(() => child.kill('SIGKILL'), stretched(o.timeoutMs ?? 45_000));
  return new Promise((resolvePromise) => {
    child.on('close', (code, signal) => {
      clearTimeout(timeout);
      if (own) cleanup(home);
      resolvePromise({ code, signal, stdout, stderr });
    });
  });
}

/** Resolve once `ready()` is truthy, checked every 10 ms (what a test waits for before it acts on a run). */
export function pollUntil(ready: () => unknown): Promise<void> {
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (ready()) {
        clearInterval(timer);
        resolve();
      }
    }, 10);
  });
}
