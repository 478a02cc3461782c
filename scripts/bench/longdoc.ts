/**
 * Long documents through the built binary against the fake server: a big text (30 MB; 2 MB in
 * quick mode) summarised and translated. Counts the requests, the largest request (bounded by the
 * part size at every level: parts, combining rounds, the final run) and zhi's peak memory per MB
 * of document beyond what the same command costs on a small long document (the floor).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeZhipu, type RecordedRequest, type Reply, TEST_KEY } from '../../test/fake-zhipu/server.js';
import type { BenchOptions, Row } from './lib/row.js';
import { zhi } from './lib/run-zhi.js';

const MB = 1024 * 1024;

/** A report of `bytes` bytes: headings and paragraphs, Chinese and English. */
function documentOf(bytes: number): string {
  const section = (i: number) =>
    `## 第${i}节 Section ${i}\n\n本节说明第${i}部分的收入与支出，合计 ${i * 37}.50 元。The quarterly figures for part ${i} are listed below and checked twice.\n\n`;
  const parts: string[] = [];
  let size = 0;
  for (let i = 1; size < bytes; i++) {
    const s = section(i);
    parts.push(s);
    size += Buffer.byteLength(s, 'utf8');
  }
  return parts.join('');
}

function replies(req: RecordedRequest): Reply {
  const system = String(req.body.messages[0]?.content ?? '');
  const last = req.body.messages.at(-1);
  const translating = system.includes('professional translator');
  if (/This run handles part \d+ of \d+/.test(system)) {
    // A translation is as long as its part; a summary of a part about 1 KB.
    const user = String(req.body.messages[1]?.content ?? '');
    return {
      kind: 'text',
      text: translating ? user.slice(0, 60_000) : 'Part summary. '.repeat(80),
      chunk: 8000,
    };
  }
  if (/This run combines the results/.test(system)) return { kind: 'text', text: 'Combined. '.repeat(100) };
  if (last.role !== 'user') return { kind: 'text', text: 'Saved.' };
  return {
    kind: 'tools',
    calls: [
      {
        name: 'file_write',
        arguments: translating
          ? { path: 'doc.en.md', content: '{{ZHI_WHOLE_RESULT}}' }
          : { path: 'doc-summary.md', content: '# Summary\n\nAll of it.' },
      },
    ],
  };
}

/** Run zhi under GNU time without blocking this process (the fake answers from here): peak RSS in MB. */
export function timed(args: string[], cwd: string, baseUrl: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const gnu = existsSync('/usr/bin/time');
    const argv = gnu ? ['-f', 'ZHI_BENCH_RSS %M', process.execPath, zhi, ...args] : [zhi, ...args];
    const child = spawn(gnu ? '/usr/bin/time' : process.execPath, argv, {
      cwd,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: cwd,
        ZHI_HOME: cwd,
        ZHI_API_KEY: TEST_KEY,
        ZHI_BASE_URL: baseUrl,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`zhi ${args.join(' ')}: exit ${code}\n${err.slice(-2000)}`));
      resolve(Number(/ZHI_BENCH_RSS (\d+)/.exec(err)?.[1] ?? 0) / 1024);
    });
  });
}

async function once(fake: FakeZhipu, skill: string, bytes: number) {
  const work = mkdtempSync(join(tmpdir(), 'zhi-bench-longdoc-'));
  try {
    writeFileSync(join(work, 'doc.md'), documentOf(bytes));
    fake.requests.length = 0;
    const extra = skill === 'translate' ? ['--to', 'English'] : [];
    const rss = await timed(
      ['run', skill, 'doc.md', ...extra, '--auto', '--yes', '--jobs', '8'],
      work,
      fake.baseUrl,
    );
    const chats = fake.requests.filter((r) => r.path.endsWith('/chat/completions'));
    const largest = Math.max(...chats.map((r) => Buffer.byteLength(r.raw, 'utf8')));
    return { rss, requests: chats.length, largest };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export async function measure(o: BenchOptions): Promise<Row[]> {
  const fake = new FakeZhipu();
  fake.fallback = replies;
  await fake.start();
  const size = (o.quick ? 2 : 30) * MB;
  const small = 0.5 * MB;
  try {
    const rows: Row[] = [];
    for (const skill of ['summarize', 'translate']) {
      const base = await once(fake, skill, small);
      const big = await once(fake, skill, size);
      const perMb = Math.max(0, big.rss - base.rss) / (size / MB);
      rows.push(
        {
          name: `${size / MB} MB text through ${skill}: largest request`,
          value: big.largest / 1024,
          unit: 'KB',
          budget: 80,
          note: `${big.requests} requests; parts of 60 KB, combining rounds no larger`,
        },
        {
          name: `${size / MB} MB text through ${skill}: memory per MB`,
          value: perMb,
          unit: 'MB/MB',
          // Issue 31 asks for 2 MB per MB. No copy of the document or its results is held, and
          // during the parts zhi keeps V8's heap near what is live (support/heap.ts): measured
          // 0.6–0.9 MB/MB on Node 20, 1.1–1.3 on Node 22 and 24 (1.6–2.0 once on 24). Without
          // that, V8's headroom over each part's garbage made it 2.2–2.6 (6.5 on Node 24).
          budget: 1.5,
          note: `peak RSS ${big.rss.toFixed(0)} MB; a ${small / MB} MB document: ${base.rss.toFixed(0)} MB (the floor)`,
        },
      );
    }
    return rows;
  } finally {
    await fake.stop();
  }
}
