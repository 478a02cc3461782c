/**
 * Folder runs with the built binary against the fake server:
 * - requests per file of `zhi run summarize <folder>` (one call per file: the written file is the
 *   answer);
 * - efficiency at the API's concurrency cap: the fake refuses more than CAP requests at once and
 *   answers each after LATENCY ms; the ideal is one call per file, CAP at a time, plus a bare zhi
 *   start (`zhi skill list`, measured in the same run): ceil(files / CAP) × LATENCY + start;
 * - zhi's own overhead per file: a folder at zero latency, one file at a time, against the same
 *   start;
 * - another client's burst on the same key mid-run: for BURST ms the API takes one call at a time,
 *   then the cap again; the ideal is the run at the cap with that stretch done one at a time
 *   (a cap learned from the burst and kept would pin the rest of the run at one).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeZhipu, type RecordedRequest, type Reply, TEST_KEY } from '../../test/fake-zhipu/server.js';
import { type BenchOptions, median, type Row } from './lib/row.js';
import { zhi } from './lib/run-zhi.js';

const CAP = 4;
const LATENCY = 500;

function reply(req: RecordedRequest): Reply {
  const id = /MARKER-(\w+)/.exec(JSON.stringify(req.body.messages))?.[1] ?? 'x';
  return req.body.messages.at(-1).role === 'user'
    ? {
        kind: 'tools',
        calls: [{ name: 'file_write', arguments: { path: `${id}.md`, content: `Summary ${id}` } }],
      }
    : { kind: 'text', text: `Summary ${id}` };
}

/**
 * Wall time of `zhi run summarize <n files> --jobs <jobs>` in a fresh folder. The child is
 * awaited, never spawned synchronously: the fake API runs in this process and must answer.
 */
async function timeRun(
  fake: FakeZhipu,
  files: number,
  jobs: number,
  args?: string[],
  started?: () => void,
): Promise<number> {
  const work = mkdtempSync(join(tmpdir(), 'zhi-bench-folder-'));
  try {
    mkdirSync(join(work, 'docs'));
    for (let i = 0; i < files; i++) writeFileSync(join(work, 'docs', `d${i}.txt`), `MARKER-d${i}\nText.\n`);
    const env = {
      PATH: process.env.PATH,
      HOME: work,
      ZHI_HOME: work,
      ZHI_API_KEY: TEST_KEY,
      ZHI_BASE_URL: fake.baseUrl,
    };
    const t = performance.now();
    const child = spawn(
      process.execPath,
      [zhi, ...(args ?? ['run', 'summarize', 'docs', '--auto', '--jobs', String(jobs)])],
      {
        cwd: work,
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    started?.();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const ms = performance.now() - t;
    if (status !== 0) throw new Error(`folder bench: zhi failed:\n${stderr}`);
    return ms;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Wall time of a bare zhi command in the same kind of folder: what every run pays to start. */
async function startMs(fake: FakeZhipu): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) times.push(await timeRun(fake, 0, 1, ['skill', 'list']));
  return median(times);
}

/** The run at the cap with another client taking all but one place for a while mid-run. */
async function burstRow(fake: FakeZhipu, files: number, start: number, quick: boolean): Promise<Row> {
  const at = quick ? 300 : 1200;
  const burstMs = quick ? 600 : 2000;
  const timers: NodeJS.Timeout[] = [];
  const refusedBefore = fake.refused;
  const ms = await timeRun(fake, files, CAP, undefined, () => {
    timers.push(setTimeout(() => (fake.concurrencyLimit = 1), at));
    timers.push(setTimeout(() => (fake.concurrencyLimit = CAP), at + burstMs));
  });
  for (const t of timers) clearTimeout(t);
  fake.concurrencyLimit = CAP;
  // The stretch of the burst is done one call at a time; the rest at the cap.
  const alone = Math.floor(burstMs / LATENCY);
  const ideal = start + burstMs + Math.ceil(Math.max(0, files - alone) / CAP) * LATENCY;
  return {
    name: `folder run with another client's burst of 1302s mid-run (${burstMs} ms at 1 place, cap ${CAP})`,
    value: ideal,
    unit: 'ms',
    floor: { name: 'this run', value: ms },
    minRatio: 0.77,
    note: `${files} files in ${(ms / 1000).toFixed(1)} s (${fake.refused - refusedBefore} refused); ideal ${(ideal / 1000).toFixed(1)} s; value = ideal, ratio = efficiency (budget: at most 1.3× the ideal)`,
  };
}

export async function measure(o: BenchOptions): Promise<Row[]> {
  const fake = new FakeZhipu();
  fake.fallback = reply;
  await fake.start();
  const files = o.quick ? 8 : 40;
  try {
    const start = await startMs(fake);
    fake.latencyMs = LATENCY;
    fake.concurrencyLimit = CAP;
    fake.requests.length = 0;
    const capped = await timeRun(fake, files, CAP);
    const chats = fake.requests.filter((r) => r.path.endsWith('/chat/completions')).length;
    const refused = fake.refused;
    const ideal = Math.ceil(files / CAP) * LATENCY + start;
    const burst = await burstRow(fake, files, start, o.quick);
    fake.latencyMs = 0;
    fake.concurrencyLimit = 0;
    const n = o.quick ? 8 : 40;
    const serial = await timeRun(fake, n, 1);
    return [
      {
        name: 'folder run: requests per file (summarize)',
        value: chats / files,
        unit: 'requests',
        budget: 1,
        note: `${chats} chat requests for ${files} files (${refused} refused at the cap and retried)`,
      },
      {
        name: `folder run at the API's cap (${CAP} at once, ${LATENCY} ms a call)`,
        value: ideal,
        unit: 'ms',
        floor: { name: 'this run', value: capped },
        minRatio: 0.9,
        note: `${files} files in ${(capped / 1000).toFixed(1)} s; ideal ${(ideal / 1000).toFixed(1)} s (one call per file, ${CAP} at a time, + start ${start.toFixed(0)} ms); value = ideal, ratio = efficiency`,
      },
      {
        name: 'folder run overhead per file (zero latency, --jobs 1)',
        value: (serial - start) / n,
        unit: 'ms',
        floor: { name: 'zhi start', value: start },
        maxRatio: 0.5,
        note: `${n} files; the model call, one file written, the manifest updated; start-up not counted`,
      },
      burst,
    ];
  } finally {
    await fake.stop();
  }
}
