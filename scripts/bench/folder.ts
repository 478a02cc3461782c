/**
 * Folder runs (design §5: "folder of 100 files at 200 ms/call, --jobs 8 ≤ ¼ of the serial time"),
 * measured with the built binary against the fake server, by scripts/bench.mjs:
 * - throughput: 100 files at 200 ms per call with --jobs 8, in files per minute, against the
 *   serial time (8 files with --jobs 1, scaled to 100);
 * - zhi's own overhead per file: a folder at zero latency, one file at a time.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeZhipu, type RecordedRequest, type Reply, TEST_KEY } from '../../test/fake-zhipu/server.js';

type Row = { name: string; value: number; unit: string; budget?: number; note?: string };

const zhi = join(process.cwd(), 'dist/zhi.js');

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
async function timeRun(fake: FakeZhipu, files: number, jobs: number): Promise<number> {
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
      [zhi, 'run', 'summarize', 'docs', '--auto', '--jobs', String(jobs)],
      {
        cwd: work,
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
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

export async function measure(): Promise<Row[]> {
  const fake = new FakeZhipu();
  fake.fallback = reply;
  await fake.start();
  try {
    fake.latencyMs = 200;
    const serialPerFile = (await timeRun(fake, 8, 1)) / 8;
    const parallel = await timeRun(fake, 100, 8);
    const serial = serialPerFile * 100;
    fake.latencyMs = 0;
    const overhead = (await timeRun(fake, 40, 1)) / 40;
    return [
      {
        name: 'folder of 100 files at 200 ms/call, --jobs 8',
        value: parallel,
        unit: 'ms',
        budget: serial / 4,
        note: `${Math.round((100 / parallel) * 60_000)} files/min; serial ${(serial / 1000).toFixed(1)} s (8 files at --jobs 1, ×12.5); budget ¼ of serial`,
      },
      {
        name: 'folder run overhead per file (zero latency, --jobs 1)',
        value: overhead,
        unit: 'ms',
        note: 'two model calls, one file written, the manifest updated; start-up shared by 40 files',
      },
    ];
  } finally {
    await fake.stop();
  }
}
