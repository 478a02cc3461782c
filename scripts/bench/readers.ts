/**
 * Big files without big memory (issue 15 point 2–3): the first page of a 200,000-row .xlsx
 * (time and peak RSS) and a page at offset 50 MB of a text file, each read through the real
 * file_read tool in a fresh Node process (so RSS is the read's own). The big files are made here,
 * in a temp folder, not kept in git.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLATFORMS } from '../../src/llm/platforms.js';
import { UsageTracker } from '../../src/llm/usage.js';
import fileRead from '../../src/tools/files/read.js';
import type { ToolContext } from '../../src/tools/types.js';
import { buildXlsx, type RawCell } from '../../test/helpers/xlsx-build.js';

import { bareNode } from './lib/floors.js';
import type { BenchOptions, Row } from './lib/row.js';

const CHILD = 'ZHI_BENCH_READ';

function* orderRows(n: number): Generator<RawCell[]> {
  yield ['编号', '日期', '客户', '地区', '产品', '数量', '单价', '金额', '状态', '备注'];
  for (let i = 1; i <= n; i++)
    yield [
      i,
      { v: 45000 + (i % 400), s: 1 },
      `客户 ${i}`,
      ['华东', '华南', '华北'][i % 3]!,
      `Product ${i % 37}`,
      i % 50,
      { v: 12.5 + (i % 7), s: 2 },
      { f: `F${i + 1}*G${i + 1}`, v: (i % 50) * (12.5 + (i % 7)) },
      i % 2 ? 'paid' : 'open',
      `note ${i}`,
    ];
}

/** In the child: one file_read call, then its time and the process's peak RSS as JSON. */
async function child(): Promise<void> {
  const [dir, path, offset] = JSON.parse(process.env[CHILD]!) as [string, string, number];
  const ctx = {
    cwd: dir,
    outputDir: join(dir, 'zhi-output'),
    signal: new AbortController().signal,
    ask: async () => false,
    interactive: false,
    recordFile: () => {},
    progress: () => {},
    usage: new UsageTracker(PLATFORMS.bigmodel),
    services: {},
  } as unknown as ToolContext;
  const t = performance.now();
  const out = await fileRead.execute({ path, ...(offset ? { offset } : {}) }, ctx);
  const ms = performance.now() - t;
  const text = String(out);
  process.stdout.write(
    `${JSON.stringify({ ms, rssMb: process.resourceUsage().maxRSS / 1024, bytes: text.length, ok: !text.startsWith('[') || text.includes('|') })}\n`,
  );
}

function runChild(dir: string, path: string, offset = 0): { ms: number; rssMb: number; bytes: number } {
  const self = fileURLToPath(import.meta.url);
  const out = spawnSync(process.execPath, [self], {
    env: { ...process.env, [CHILD]: JSON.stringify([dir, path, offset]) },
    encoding: 'utf8',
  });
  if (out.status !== 0) throw new Error(`read bench child failed:\n${out.stderr}`);
  return JSON.parse(out.stdout.trim().split('\n').at(-1)!);
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

export async function measure(o: BenchOptions): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'zhi-bench-read-'));
  try {
    writeFileSync(
      join(dir, 'orders.xlsx'),
      await buildXlsx({
        sheets: [{ name: 'Orders', rows: orderRows(o.quick ? 20_000 : 200_000) }],
        numFmtIds: [31, 7],
      }),
    );
    const line = '第一百二十三行：季度报告，收入 1,234 元。The quick brown fox.\n';
    const mb = o.quick ? 6 : 60;
    const text = (size: number) => line.repeat(Math.ceil((size * 1024 * 1024) / Buffer.byteLength(line)));
    writeFileSync(join(dir, 'big.txt'), text(mb));
    writeFileSync(join(dir, 'bigger.txt'), text(2 * mb));
    const xlsx = (o.quick ? [0] : [0, 1, 2]).map(() => runChild(dir, 'orders.xlsx'));
    const runs = o.quick ? [0] : [0, 1, 2, 3, 4];
    const page = runs.map(() => runChild(dir, 'big.txt', (mb - 10) * 1024 * 1024));
    const farther = runs.map(() => runChild(dir, 'bigger.txt', (2 * mb - 10) * 1024 * 1024));
    const node = bareNode(o.quick ? 3 : 9);
    const rss = Math.max(...xlsx.map((r) => r.rssMb));
    return [
      {
        name: `file_read of a ${o.quick ? '20k' : '200k'}-row xlsx, first page`,
        value: median(xlsx.map((r) => r.ms)),
        unit: 'ms',
        floor: { name: 'bare node wall', value: node.wallMs },
        maxRatio: 25,
        note: `peak RSS ${rss.toFixed(0)} MB (budget 300 MB); ${xlsx[0]!.bytes} chars returned`,
      },
      {
        name: 'file_read of a big xlsx, peak RSS',
        value: rss,
        unit: 'MB',
        budget: 300,
        note: 'memory does not depend on load: absolute',
      },
      {
        // The secret check reads a file's first 32 MB whatever the page (tools/secret-content.ts,
        // issue 37), then only the page is read: twice the file, the same cost.
        name: `file_read of a ${2 * mb} MB text at offset ${2 * mb - 10} MB`,
        value: median(farther.map((r) => r.ms)),
        unit: 'ms',
        floor: {
          name: `the same of a ${mb} MB text at offset ${mb - 10} MB`,
          value: median(page.map((r) => r.ms)),
        },
        maxRatio: 1.3,
        note: `peak RSS ${Math.max(...farther.map((r) => r.rssMb)).toFixed(0)} MB (${Math.max(...page.map((r) => r.rssMb)).toFixed(0)} MB for ${mb} MB); the first 32 MB are read for secrets, then the page`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.env[CHILD]) await child();
