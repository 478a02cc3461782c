// `npm run bench`: measures zhi against the budgets of design.md §5 and prints a table.
// Runs the built binary (dist/) for start-up numbers, and bundles scripts/bench/*.ts with esbuild
// for in-process numbers. Uses only this machine (the fake server on 127.0.0.1).
//
//   node scripts/bench.mjs [name…]   only these rows: `version`, `client` or a scripts/bench/<name>.ts
//                                    (to re-run one row alone on a busy machine; build first)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const zhi = join(root, 'dist/zhi.js');
const rows = [];
const only = process.argv.slice(2);
const wanted = (name) => only.length === 0 || only.includes(name);

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function timeCommand(args, n = 15) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    execFileSync(process.execPath, args, { stdio: 'ignore' });
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return median(times);
}

// 1. zhi --version against node -e 0.
if (wanted('version')) {
  const nodeMs = timeCommand(['-e', '0']);
  const versionMs = timeCommand([zhi, '--version']);
  rows.push({
    name: '`zhi --version` wall time',
    value: versionMs,
    unit: 'ms',
    // Issue 15's budget (design.md §5 allows 2×): the entry answers before importing anything.
    budget: 1.2 * nodeMs,
    note: `node -e 0: ${nodeMs.toFixed(0)} ms; ratio ${(versionMs / nodeMs).toFixed(2)}× (budget 1.2×)`,
  });
}

// 2. In-process measures (client overhead, file writers, skills), bundled on the fly.
mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
// Bundled inside node_modules/.cache so that bare imports resolve from the project's node_modules.
const tmp = mkdtempSync(join(root, 'node_modules/.cache/zhi-bench-'));
try {
  const benchDir = join(root, 'scripts/bench');
  const entries = readdirSync(benchDir).filter(
    (f) => f.endsWith('.ts') && (f === 'inprocess.ts' || wanted(f.replace(/\.ts$/, ''))),
  );
  await build({
    entryPoints: entries.map((f) => join(benchDir, f)),
    outdir: tmp,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    define: { __ZHI_VERSION__: '"bench"' },
    logLevel: 'error',
    outExtension: { '.js': '.mjs' },
  });
  // Resolve the project's node_modules from the temp bundle.
  const extra = entries
    .filter((f) => f !== 'inprocess.ts' && f !== 'repl.ts')
    .map((f) => join(tmp, f.replace(/\.ts$/, '.mjs')));
  const out = spawnSync(process.execPath, [join(tmp, 'inprocess.mjs'), ...extra], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ZHI_BENCH_CLIENT: wanted('client') ? '1' : '' },
  });
  if (out.status !== 0) throw new Error(`in-process bench failed:\n${out.stderr}`);
  rows.push(...JSON.parse(out.stdout.trim().split('\n').at(-1)));
  if (entries.includes('repl.ts')) {
    const repl = spawnSync(process.execPath, [join(tmp, 'repl.mjs')], { cwd: root, encoding: 'utf8' });
    if (repl.status !== 0) throw new Error(`REPL bench failed:\n${repl.stderr}`);
    rows.push(...JSON.parse(repl.stdout.trim().split('\n').at(-1)));
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

// The table.
const fmt = (v, unit) =>
  unit === 'ms'
    ? `${v.toFixed(v < 10 ? 2 : 0)} ms`
    : unit === 'MB'
      ? `${v.toFixed(1)} MB`
      : unit === 'KB'
        ? `${v.toFixed(2)} KB`
        : unit === 'CPU-s'
          ? `${v.toFixed(2)} CPU-s`
          : `${Math.round(v)} ${unit}`;
const header = ['measure', 'value', 'budget', 'ok', 'note'];
const table = rows.map((r) => [
  r.name,
  fmt(r.value, r.unit),
  r.budget === undefined ? '-' : `≤ ${fmt(r.budget, r.unit)}`,
  r.budget === undefined ? '' : r.value <= r.budget ? 'yes' : 'NO',
  r.note ?? '',
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
console.log(line(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const row of table) console.log(line(row));
// Wall times mean little on a busy machine: say how busy it was.
const [load1, load5] = loadavg();
console.log(
  `\nLoad average ${load1.toFixed(1)} (1 min), ${load5.toFixed(1)} (5 min) on ${cpus().length} cores.`,
);
const failed = rows.filter((r) => r.budget !== undefined && r.value > r.budget);
if (failed.length) {
  console.log(`\n${failed.length} measure(s) over budget.`);
  process.exitCode = 1;
}
