/**
 * Issue 45: one LibreOffice start per run, not one per legacy file. Ten .doc files read as a
 * folder run reads them (handed over ahead, then each read) in a fresh Node process, against one
 * .doc read alone: LibreOffice's start is most of a conversion's CPU, so with one start for the
 * ten, each file costs a fraction of the single file's cold start. CPU includes LibreOffice's
 * (bash's `time` counts the children zhi waits for). Skipped, and said, without LibreOffice.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readDocument } from '../../src/tools/files/readers/index.js';
import { prefetchLegacy } from '../../src/tools/files/readers/legacy.js';
import { findSoffice } from '../../src/tools/files/readers/soffice.js';
import { measureCommand } from './lib/floors.js';
import type { BenchOptions, Row } from './lib/row.js';

const CHILD = 'ZHI_BENCH_LEGACY';
const NAME = '10 legacy files: LibreOffice CPU per file';

/** In the child: read the files as a folder run does; fail loudly when one was not converted. */
async function child(): Promise<void> {
  const paths = JSON.parse(process.env[CHILD]!) as string[];
  await prefetchLegacy(paths);
  const docs = await Promise.all(paths.map((p) => readDocument(p)));
  for (const d of docs)
    if (!d.notes?.includes('converted with LibreOffice'))
      throw new Error(`not converted: ${d.text.slice(0, 80)}`);
  process.exit(0);
}

/** Ten small Chinese .doc files, made with LibreOffice itself (not measured). */
function makeDocs(soffice: string, dir: string, n: number): string[] {
  const src = join(dir, 'src');
  const out = join(dir, 'docs');
  mkdirSync(src, { recursive: true });
  for (let i = 1; i <= n; i++)
    writeFileSync(join(src, `r${i}.txt`), `第 ${i} 份报告\n本季度销售额 ${i * 100} 万元，同比增长 ${i}%。\n`);
  const txts = readdirSync(src).map((f) => join(src, f));
  spawnSync(
    soffice,
    [
      `-env:UserInstallation=${pathToFileURL(join(dir, 'maker')).href}`,
      '--headless',
      '--convert-to',
      'doc',
      '--outdir',
      out,
      ...txts,
    ],
    { stdio: 'ignore' },
  );
  return readdirSync(out).map((f) => join(out, f));
}

export async function measure(o: BenchOptions): Promise<Row[]> {
  const soffice = findSoffice();
  if (!soffice)
    return [
      { name: NAME, value: 0, unit: 'ms', note: 'skipped: LibreOffice (soffice) is not installed here' },
    ];
  const dir = mkdtempSync(join(tmpdir(), 'zhi-bench-legacy-'));
  try {
    const docs = makeDocs(soffice, dir, 10);
    if (docs.length !== 10) throw new Error(`LibreOffice made ${docs.length} of 10 .doc files`);
    const self = fileURLToPath(import.meta.url);
    const run = (paths: string[]) =>
      measureCommand([self], { env: { ...process.env, [CHILD]: JSON.stringify(paths) } }).cpuS * 1000;
    const rounds = o.quick ? 1 : 3;
    const one: number[] = [];
    const ten: number[] = [];
    for (let i = 0; i < rounds; i++) {
      one.push(run(docs.slice(0, 1)));
      ten.push(run(docs));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    return [
      {
        name: NAME,
        value: median(ten) / 10,
        unit: 'ms',
        floor: { name: 'one .doc read alone (a cold LibreOffice start)', value: median(one) },
        // One start per file would be about 1×; one start for the ten measured 0.12× (loaded machine).
        maxRatio: 0.35,
        note: `ten files ${median(ten).toFixed(0)} ms CPU in all, zhi and LibreOffice together`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.env[CHILD]) await child();
