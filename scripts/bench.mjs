// `npm run bench`: measures zhi against its budgets and prints a table (scripts/bench/README.md
// says what each row measures and why it can fail). Every row module in scripts/bench/*.ts is
// bundled with esbuild and run in a process of its own; helpers live in scripts/bench/lib/.
// Uses only this machine (the fake server on 127.0.0.1).
//
//   node scripts/bench.mjs [--quick] [row…]
//     row      only these rows (file names in scripts/bench/ without .ts), e.g. `version stream`
//     --quick  every row once at small sizes: fails on a crash, reports budgets without
//              enforcing them (CI runs this after the tests; under a minute)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.filter((a) => !a.startsWith('--'));
const benchDir = join(root, 'scripts/bench');
const all = readdirSync(benchDir)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.replace(/\.ts$/, ''));
const unknown = only.filter((n) => !all.includes(n));
if (unknown.length) {
  console.error(`No such bench row: ${unknown.join(', ')}. Rows: ${all.join(', ')}`);
  process.exit(2);
}
const names = only.length ? only : all;

/**
 * Packages stay in node_modules, as the bench's own helpers need them, except those zhi's build
 * bundles whose loading a row times: importing the grammar's CommonJS glue from node_modules runs
 * Node's cjs-module-lexer over 168 KB (about 16 ms of a first shell call), which dist/ never does.
 */
const BUNDLED = ['@vscode/tree-sitter-wasm'];
const packagesAsZhiLoadsThem = {
  name: 'packages-as-zhi-loads-them',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      BUNDLED.some((p) => args.path === p || args.path.startsWith(`${p}/`)) ? undefined : { external: true },
    );
  },
};
// Bundled CommonJS code expects `require` and `__filename`: each bundle gets its own, as dist/ does.
const BANNER = [
  "import { createRequire as __benchCreateRequire } from 'node:module';",
  "import { fileURLToPath as __benchFileURLToPath } from 'node:url';",
  'const require = __benchCreateRequire(import.meta.url);',
  'const __benchFilename = __benchFileURLToPath(import.meta.url);',
].join('\n');

mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
// Bundled inside node_modules/.cache so that bare imports resolve from the project's node_modules.
const tmp = mkdtempSync(join(root, 'node_modules/.cache/zhi-bench-'));
const rows = [];
const crashed = [];
try {
  await build({
    entryPoints: [...names.map((n) => join(benchDir, `${n}.ts`)), join(benchDir, 'lib/host.ts')],
    outdir: tmp,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    plugins: [packagesAsZhiLoadsThem],
    banner: { js: BANNER },
    define: { __ZHI_VERSION__: '"bench"', __filename: '__benchFilename' },
    logLevel: 'error',
    outExtension: { '.js': '.mjs' },
  });
  for (const name of names) {
    const t = performance.now();
    const out = spawnSync(
      process.execPath,
      [join(tmp, 'lib/host.mjs'), join(tmp, `${name}.mjs`), ...(quick ? ['--quick'] : [])],
      { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    const secs = ((performance.now() - t) / 1000).toFixed(1);
    const last = out.stdout?.trim().split('\n').at(-1) ?? '';
    if (out.status !== 0 || !last.startsWith('[')) {
      crashed.push(name);
      console.error(`bench row ${name} crashed (exit ${out.status}, ${secs} s):\n${out.stderr}`);
      continue;
    }
    rows.push(...JSON.parse(last));
    console.error(`bench: ${name} (${secs} s)`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

const fmt = (v, unit) =>
  unit === 'ms'
    ? `${v.toFixed(v < 10 ? 2 : 0)} ms`
    : unit === 'MB' || unit === 'MB/MB'
      ? `${v.toFixed(1)} ${unit}`
      : unit === 'KB'
        ? `${v.toFixed(2)} KB`
        : unit === 'CPU-s'
          ? `${v.toFixed(3)} CPU-s`
          : `${Number.isInteger(v) ? v : v.toFixed(2)} ${unit}`;
const within = (r) => {
  if (r.budget !== undefined) return r.value <= r.budget;
  if (!r.floor || r.floor.value <= 0) return undefined;
  const ratio = r.value / r.floor.value;
  if (r.maxRatio !== undefined) return ratio <= r.maxRatio;
  if (r.minRatio !== undefined) return ratio >= r.minRatio;
  return undefined;
};
const budgetOf = (r) =>
  r.budget !== undefined
    ? `≤ ${fmt(r.budget, r.unit)}`
    : r.maxRatio !== undefined
      ? `≤ ${r.maxRatio}× floor`
      : r.minRatio !== undefined
        ? `≥ ${r.minRatio}× floor`
        : '-';
const header = ['measure', 'value', 'floor', 'ratio', 'budget', 'ok', 'note'];
const table = rows.map((r) => {
  const ok = within(r);
  return [
    r.name,
    fmt(r.value, r.unit),
    r.floor ? `${fmt(r.floor.value, r.unit)} (${r.floor.name})` : '',
    r.floor && r.floor.value > 0 ? `${(r.value / r.floor.value).toFixed(2)}×` : '',
    budgetOf(r),
    ok === undefined ? '' : ok ? 'yes' : quick ? 'no (not enforced)' : 'NO',
    r.note ?? '',
  ];
});
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
console.log(line(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const row of table) console.log(line(row));
// Ratios hold under load better than times; still, say how busy the machine was.
const [load1, load5] = loadavg();
console.log(
  `\nLoad average ${load1.toFixed(1)} (1 min), ${load5.toFixed(1)} (5 min) on ${cpus().length} cores.${quick ? ' Quick mode: small sizes, budgets reported, not enforced.' : ''}`,
);
if (crashed.length) {
  console.log(`\n${crashed.length} row(s) crashed: ${crashed.join(', ')}.`);
  process.exitCode = 1;
}
const failed = rows.filter((r) => within(r) === false);
if (failed.length && !quick) {
  console.log(`\n${failed.length} measure(s) over budget.`);
  process.exitCode = 1;
}
