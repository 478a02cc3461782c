/**
 * The first message with MCP servers that are slow to start (issue 43: "the first message's
 * latency with 8 slow servers, ≤ 1.2× none"): time from `zhi -c hello` being started to its chat
 * request reaching the fake API, with eight stdio servers that each take 5 s before they answer
 * `initialize` (as an `npx -y` server downloading itself does), against the same with no server.
 * Their tools are deferred, so the request must not wait for them.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FakeZhipu, TEST_KEY } from '../../test/fake-zhipu/server.js';
import { type BenchOptions, median, type Row } from './lib/row.js';
import { zhi } from './lib/run-zhi.js';

const SLOW = resolve(process.cwd(), 'test/fixtures/mcp/slow.mjs');
const SERVERS = 8;

function config(servers: number): string {
  const lines = ['platform: bigmodel', 'default_model: glm-5', 'language: en'];
  if (servers) lines.push('mcp_servers:');
  for (let i = 1; i <= servers; i++)
    lines.push(
      `  slow${i}:`,
      '    command: node',
      `    args: [${JSON.stringify(SLOW)}]`,
      '    env: { SLOW_MS: "5000" }',
    );
  return `${lines.join('\n')}\n`;
}

/** Milliseconds from spawning `zhi -c hello` to its chat request arriving. */
async function firstRequest(fake: FakeZhipu, servers: number): Promise<number> {
  const home = mkdtempSync(join(tmpdir(), 'zhi-bench-mcp-'));
  writeFileSync(join(home, 'config.yaml'), config(servers), { mode: 0o600 });
  fake.requests.length = 0;
  const started = performance.now();
  const child = spawn(process.execPath, [zhi, '-c', 'hello'], {
    cwd: home,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      ZHI_HOME: home,
      ZHI_API_KEY: TEST_KEY,
      ZHI_BASE_URL: fake.baseUrl,
    },
    stdio: 'ignore',
  });
  const exited = new Promise((r) => child.once('exit', r));
  try {
    while (!fake.requests.some((r) => r.path.endsWith('/chat/completions'))) {
      if (performance.now() - started > 60_000) throw new Error('no chat request within 60 s');
      await new Promise((r) => setTimeout(r, 2));
    }
    return performance.now() - started;
  } finally {
    await exited;
    rmSync(home, { recursive: true, force: true });
  }
}

export async function measure(o: BenchOptions): Promise<Row[]> {
  const fake = new FakeZhipu();
  await fake.start();
  fake.fallback = () => ({ kind: 'text', text: 'Hello.' });
  const runs = o.quick ? 1 : 5;
  const none: number[] = [];
  const slow: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      none.push(await firstRequest(fake, 0));
      slow.push(await firstRequest(fake, SERVERS));
    }
  } finally {
    await fake.stop();
  }
  return [
    {
      name: `first message with ${SERVERS} MCP servers slow to start`,
      value: median(slow),
      unit: 'ms',
      floor: { name: 'the same with no server', value: median(none) },
      maxRatio: 1.2,
      note: `spawn → the chat request at the API; each server answers initialize after 5 s (their tools are deferred, so nothing waits for them); median of ${runs}`,
    },
  ];
}
