/**
 * REPL start-up: time from spawn to the prompt in a real pseudo-terminal, and the idle RSS of
 * the process once it waits for input. Run by scripts/bench.mjs (bundled with esbuild).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node-pty';
import { FakeZhipu, TEST_KEY } from '../../test/fake-zhipu/server.js';

const zhi = join(process.cwd(), 'dist/zhi.js');

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** A bare Node readline prompt in the same kind of pty: the floor any REPL start-up stands on. */
async function bareReadline(): Promise<number> {
  const script =
    "const rl=require('node:readline').createInterface({input:process.stdin,output:process.stdout});rl.setPrompt('zhi [approve]> ');rl.prompt();rl.on('close',()=>process.exit(0))";
  const start = performance.now();
  const pty = spawn(process.execPath, ['-e', script], { name: 'xterm-256color', cols: 100, rows: 30 });
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

async function once(baseUrl: string): Promise<{ readyMs: number; rss: number }> {
  const home = mkdtempSync(join(tmpdir(), 'zhi-bench-home-'));
  // A real user has a config file (the wizard writes one), so the YAML parser is part of start-up.
  writeFileSync(join(home, 'config.yaml'), 'platform: bigmodel\ndefault_model: glm-5\nlanguage: auto\n');
  const start = performance.now();
  const pty = spawn(process.execPath, [zhi], {
    name: 'xterm-256color',
    cols: 100,
    rows: 30,
    cwd: home,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      ZHI_HOME: home,
      ZHI_API_KEY: TEST_KEY,
      ZHI_BASE_URL: baseUrl,
      TERM: 'xterm-256color',
    },
  });
  let out = '';
  const readyMs = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`REPL not ready: ${out}`)), 10_000);
    pty.onData((d) => {
      out += d;
      if (/zhi \[(approve|auto)\]>/.test(out)) {
        clearTimeout(timer);
        resolve(performance.now() - start);
      }
    });
  });
  await new Promise((r) => setTimeout(r, 1500)); // idle
  const rss = rssMb(pty.pid);
  pty.write('\x04');
  await new Promise((r) => setTimeout(r, 300));
  pty.kill();
  rmSync(home, { recursive: true, force: true });
  return { readyMs, rss };
}

const fake = new FakeZhipu();
await fake.start();
const runs = [];
for (let i = 0; i < 5; i++) runs.push(await once(fake.baseUrl));
await fake.stop();
const bare: number[] = [];
for (let i = 0; i < 5; i++) bare.push(await bareReadline());
const bareMs = bare.sort((a, b) => a - b)[2]!;
const ready = runs.map((r) => r.readyMs).sort((a, b) => a - b)[2]!;
const rss = runs.map((r) => r.rss).sort((a, b) => a - b)[2]!;
process.stdout.write(
  `${JSON.stringify([
    {
      name: 'REPL ready for input',
      value: ready,
      unit: 'ms',
      budget: 100,
      note: `spawn → prompt in a pty, with a config file, median of 5; a bare Node readline prompt: ${bareMs.toFixed(0)} ms`,
    },
    {
      name: 'idle REPL memory (RSS)',
      value: rss,
      unit: 'MB',
      budget: 70,
      note: 'after 1.5 s idle at the prompt',
    },
  ])}\n`,
);
process.exit(0);
