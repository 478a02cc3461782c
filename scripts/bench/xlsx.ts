/**
 * file_write of an .xlsx with 1,000 rows × 10 columns, through the real tool (payload check,
 * encoding, exclusive write). The first call includes loading exceljs; later calls are warm.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PLATFORMS } from '../../src/llm/platforms.js';
import { UsageTracker } from '../../src/llm/usage.js';
import fileWrite from '../../src/tools/files/write.js';
import type { ToolContext } from '../../src/tools/types.js';
import { bareNode } from './lib/floors.js';

import { type BenchOptions, median, type Row } from './lib/row.js';

export async function measure(o: BenchOptions): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'zhi-bench-xlsx-'));
  const ctx: ToolContext = {
    cwd: dir,
    outputDir: join(dir, 'zhi-output'),
    signal: new AbortController().signal,
    ask: async () => false,
    interactive: false,
    recordFile: () => {},
    progress: () => {},
    usage: new UsageTracker(PLATFORMS.bigmodel),
    reportUsage: () => {},
    emit: () => {},
  };
  const headers = ['编号', '日期', '客户', '地区', '产品', '数量', '单价', '金额', '状态', '备注'];
  const rows = Array.from({ length: 1000 }, (_, i) => [
    i + 1,
    `2026-0${(i % 9) + 1}-1${i % 10}`,
    `客户 ${i}`,
    ['华东', '华南', '华北'][i % 3],
    `Product ${i % 37}`,
    i % 50,
    12.5 + (i % 7),
    (i % 50) * (12.5 + (i % 7)),
    i % 2 ? 'paid' : 'open',
    'note text that is a little longer than the others',
  ]);
  const content = { sheets: [{ name: 'Orders', headers, rows }] };
  const times: number[] = [];
  try {
    for (let i = 0; i < (o.quick ? 2 : 6); i++) {
      const t = performance.now();
      await fileWrite.execute({ path: `orders-${i}.xlsx`, content }, ctx);
      times.push(performance.now() - t);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const warm = median(times.slice(1));
  const node = bareNode(o.quick ? 3 : 9);
  return [
    {
      name: 'file_write xlsx, 1,000 × 10 (first call)',
      value: times[0]!,
      unit: 'ms',
      floor: { name: 'bare node wall', value: node.wallMs },
      maxRatio: 12,
      note: `includes loading exceljs; warm median ${warm.toFixed(0)} ms`,
    },
  ];
}
