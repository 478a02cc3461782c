/**
 * Saved sessions at scale: 5,000 session files (about 20 KB each, ~100 MB) in one ZHI_HOME.
 * `zhi --continue -c hi` against a fresh `zhi -c hi` in the same home, and `zhi sessions`.
 * Run by scripts/bench.mjs (bundled with esbuild); `measure()` returns the rows.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeZhipu, TEST_KEY } from '../../test/fake-zhipu/server.js';
import type { BenchOptions, Row } from './lib/row.js';
import { run } from './lib/run-zhi.js';

function writeSessions(dir: string, cwd: string, count: number): void {
  mkdirSync(dir, { recursive: true });
  const filler = '这是一段较长的回答，用来让会话文件接近真实大小。'.repeat(60);
  for (let i = 0; i < count; i++) {
    const id = `2026${String(1 + (i % 12)).padStart(2, '0')}${String(1 + (i % 28)).padStart(2, '0')}-${String(i).padStart(6, '0')}-${(i % 65536).toString(16).padStart(4, '0')}`;
    const lines = [
      {
        type: 'session',
        v: 1,
        id,
        created: '2026-01-01T00:00:00.000Z',
        cwd,
        model: 'glm-5',
        kind: 'repl',
        platform: 'bigmodel',
        currency: 'CNY',
        zhi: 'bench',
      },
    ];
    const out: string[] = lines.map((l) => JSON.stringify(l));
    for (let k = 0; k < 6; k++) {
      out.push(
        JSON.stringify({
          type: 'message',
          role: 'user',
          t: '2026-01-01T00:00:01.000Z',
          message: { role: 'user', content: `问题 ${i}-${k}` },
        }),
      );
      out.push(
        JSON.stringify({
          type: 'message',
          role: 'assistant',
          t: '2026-01-01T00:00:02.000Z',
          message: { role: 'assistant', content: filler },
        }),
      );
    }
    writeFileSync(join(dir, `${id}.jsonl`), `${out.join('\n')}\n`);
  }
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

/**
 * Median wall time of each `zhi args` (asynchronously: the fake server answers from this
 * process), the commands taking turns: a machine that gets busier during the row slows them all
 * alike, not the ones measured last.
 */
async function timeRuns(
  cases: string[][],
  env: NodeJS.ProcessEnv,
  cwd: string,
  n: number,
): Promise<number[]> {
  const times = cases.map((): number[] => []);
  for (let i = 0; i < n; i++) {
    for (const [k, args] of cases.entries()) {
      const t = performance.now();
      await run(args, env, cwd);
      times[k]!.push(performance.now() - t);
    }
  }
  return times.map(median);
}

export async function measure(o: BenchOptions): Promise<Row[]> {
  const count = o.quick ? 300 : 5000;
  const n = o.quick ? 1 : 7;
  const fake = new FakeZhipu();
  await fake.start();
  fake.fallback = () => ({ kind: 'text', text: 'hi there' });
  const home = mkdtempSync(join(tmpdir(), 'zhi-bench-sessions-'));
  const work = join(home, 'work');
  mkdirSync(work);
  try {
    writeSessions(join(home, 'sessions'), work, count);
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: home,
      ZHI_HOME: home,
      ZHI_API_KEY: TEST_KEY,
      ZHI_BASE_URL: fake.baseUrl,
      ZHI_LANGUAGE: 'en',
    };
    // The files were written behind zhi's back: the first listing builds the index (once).
    const [firstList = 0] = await timeRuns([['sessions']], env, work, 1);
    const [list = 0, start = 0, fresh = 0, cont = 0] = await timeRuns(
      [['sessions'], ['skill', 'list'], ['-c', 'hi'], ['--continue', '-c', 'hi']],
      env,
      work,
      n,
    );
    return [
      {
        name: `\`zhi sessions\` with ${count.toLocaleString('en')} sessions`,
        value: list,
        unit: 'ms',
        floor: { name: '`zhi skill list`', value: start },
        maxRatio: 1.5,
        note: `~${Math.round(count / 50)} MB of sessions, index in place; first listing (builds the index): ${firstList.toFixed(0)} ms; medians of ${n}, taking turns`,
      },
      {
        name: `\`--continue -c hi\` with ${count.toLocaleString('en')} sessions`,
        value: cont,
        unit: 'ms',
        floor: { name: 'fresh `-c hi`', value: fresh },
        maxRatio: 1.2,
        note: 'the newest session found through the index, not by reading every file',
      },
    ];
  } finally {
    await fake.stop();
    rmSync(home, { recursive: true, force: true });
  }
}
