/**
 * Start-up cost of the built binary, in CPU time against a bare `node -e 0` measured in the same
 * run: `zhi --version` (the entry's fast path) and `zhi skill list` (a real command: settings,
 * i18n, skill discovery, the table printer).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bareNode, repeatCommand } from './lib/floors.js';
import type { BenchOptions, Row } from './lib/row.js';
import { zhi } from './lib/run-zhi.js';

export async function measure(o: BenchOptions): Promise<Row[]> {
  const n = o.quick ? 3 : 15;
  const home = mkdtempSync(join(tmpdir(), 'zhi-bench-version-'));
  const env = { PATH: process.env.PATH ?? '', HOME: home, ZHI_HOME: home, ZHI_LANGUAGE: 'en' };
  try {
    // Interleaved, so a burst of load lands on both sides.
    const node = bareNode(n);
    const version = repeatCommand([zhi, '--version'], n, { env, cwd: home });
    const list = repeatCommand([zhi, 'skill', 'list'], n, { env, cwd: home });
    const node2 = bareNode(n);
    const floor = { name: 'bare node', value: Math.min(node.cpuS, node2.cpuS) };
    return [
      {
        name: '`zhi --version` CPU',
        value: version.cpuS,
        unit: 'CPU-s',
        floor,
        maxRatio: 1.5,
        note: `wall ${version.wallMs.toFixed(0)} ms (bare node: ${node.wallMs.toFixed(0)} ms); mean of ${n}`,
      },
      {
        name: '`zhi skill list` CPU (a real command)',
        value: list.cpuS,
        unit: 'CPU-s',
        floor,
        maxRatio: 5,
        note: `wall ${list.wallMs.toFixed(0)} ms; settings, i18n, discovery of the built-ins, the table; mean of ${n}`,
      },
    ];
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
