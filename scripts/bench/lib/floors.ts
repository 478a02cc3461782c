/**
 * Floors measured in the same run as the rows that are compared with them: a bare Node start, a
 * bare readline prompt in a pty, one fetch POST to the fake server. Each row measures its floor
 * next to its own measurement, so load on a shared machine weighs on both sides.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn as spawnPty } from 'node-pty';
import { TEST_KEY } from '../../../test/fake-zhipu/server.js';

export interface Cost {
  /** Wall time, ms. */
  wallMs: number;
  /** User + system CPU, s. */
  cpuS: number;
  /** Peak resident memory, MB. */
  maxRssMb: number;
}

const TIME = '/usr/bin/time';
const BASH = '/bin/bash';

/**
 * Run a command to the end and measure it: peak RSS from /usr/bin/time (GNU time), CPU from
 * bash's `time` around it, wall time here. GNU time prints CPU in whole centiseconds, cut down:
 * a 30 ms Node start read as about 20 ms, and every start-up ratio came out too high. Bash gives
 * milliseconds (its `time` also counts GNU time's own ~1 ms, for the floor as for the row).
 * Without them, CPU is reported as wall time (a coarser but honest upper bound).
 */
export function measureCommand(args: string[], o: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Cost {
  const gnu = existsSync(TIME);
  const inner = gnu
    ? [TIME, '-f', 'ZHI_BENCH_TIME %U %S %M', process.execPath, ...args]
    : [process.execPath, ...args];
  const argv = existsSync(BASH)
    ? [BASH, '-c', 'TIMEFORMAT="ZHI_BENCH_CPU %3U %3S"; time "$@"', 'bench', ...inner]
    : inner;
  const t = performance.now();
  const out = spawnSync(argv[0]!, argv.slice(1), {
    encoding: 'utf8',
    env: o.env ?? process.env,
    cwd: o.cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const wallMs = performance.now() - t;
  if (out.status !== 0) throw new Error(`${args.join(' ')}: exit ${out.status}\n${out.stderr}`);
  const rss = /ZHI_BENCH_TIME ([\d.]+) ([\d.]+) (\d+)/.exec(out.stderr);
  const cpu = /ZHI_BENCH_CPU ([\d.]+) ([\d.]+)/.exec(out.stderr) ?? rss;
  return {
    wallMs,
    cpuS: cpu ? Number(cpu[1]) + Number(cpu[2]) : wallMs / 1000,
    maxRssMb: rss ? Number(rss[3]) / 1024 : 0,
  };
}

/** Mean CPU and median wall time of `n` runs. */
export function repeatCommand(args: string[], n: number, o: Parameters<typeof measureCommand>[1] = {}): Cost {
  const runs = Array.from({ length: n }, () => measureCommand(args, o));
  const wall = runs.map((r) => r.wallMs).sort((a, b) => a - b)[Math.floor(n / 2)]!;
  return {
    wallMs: wall,
    cpuS: runs.reduce((s, r) => s + r.cpuS, 0) / n,
    maxRssMb: Math.max(...runs.map((r) => r.maxRssMb)),
  };
}

/**
 * A bare Node start: an empty script (not `node -e`, whose eval path costs more than a file), with
 * the bare environment zhi gets in the rows (NODE_EXTRA_CA_CERTS alone costs ~50 ms of CPU).
 */
export function bareNode(n: number): Cost {
  const dir = mkdtempSync(join(tmpdir(), 'zhi-bench-node-'));
  const empty = join(dir, 'empty.mjs');
  writeFileSync(empty, '');
  try {
    return repeatCommand([empty], n, { env: { PATH: process.env.PATH ?? '', HOME: dir } });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** CPU seconds a process has used so far (Linux /proc), for processes we cannot wrap (a pty's child). */
/**
 * CPU seconds a process has used, to the nanosecond where Linux keeps it (the sum of its threads'
 * /proc/<pid>/task/<tid>/schedstat): a message's 10–30 ms are 1–3 clock ticks, too coarse to
 * compare a first message with a second. Falls back to `cpuOfPid` (ticks) where it is missing.
 */
export function preciseCpuOfPid(pid: number): number {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // the thread ended between the listing and the read
      }
    }
    if (ns > 0) return ns / 1e9;
  } catch {
    // no /proc/<pid>/task (not Linux)
  }
  return cpuOfPid(pid);
}

export function cpuOfPid(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks
}

/** A bare Node readline prompt in a pty like the REPL's: ms from spawn to the prompt. */
export async function bareReadline(): Promise<number> {
  const script =
    "const rl=require('node:readline').createInterface({input:process.stdin,output:process.stdout});rl.setPrompt('zhi [approve]> ');rl.prompt();rl.on('close',()=>process.exit(0))";
  const start = performance.now();
  const pty = spawnPty(process.execPath, ['-e', script], { name: 'xterm-256color', cols: 100, rows: 30 });
  let out = '';
  const ms = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bare prompt not ready: ${out}`)), 10_000);
    pty.onData((d) => {
      out += d;
      if (out.includes('zhi [approve]>')) {
        clearTimeout(timer);
        resolve(performance.now() - start);
      }
    });
  });
  pty.kill();
  return ms;
}

/** One streamed chat POST with a bare fetch (no client code): what the socket and the fake cost. */
export async function bareFetch(baseUrl: string, body: unknown): Promise<void> {
  const res = await fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TEST_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.text();
}
