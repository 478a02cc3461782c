#!/usr/bin/env node
// The claims of docs/architecture.md a script can check, checked (part of `npm run gate`):
//   - every source path it names exists (`cli/chat.ts`, `tools/files/writers/`, `scripts/…`);
//   - its layer table is check-imports.mjs's LAYERS, top layer first;
//   - the tool families it lists are the folders of src/tools/, no more, no fewer;
//   - one createChat: only cli/chat.ts constructs a ChatSession;
//   - one price consent: only cli/price-consent.ts asks a price (and the ocr tool, which the
//     document names as following the same rule inside the tool: tools cannot import cli/);
//   - no file outside llm/ names a client class (ZhipuClient);
//   - the web server (src/cli/web/) is reached only by dynamic imports from outside it;
//   - the config keys it names exist in the config schema.
// Usage: node scripts/check-docs.mjs [--root <dir>]   (exit 1 with one line per false claim)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = resolve(fileURLToPath(import.meta.url), '../..');
const rootFlag = process.argv.indexOf('--root');
const root = rootFlag > 0 ? resolve(process.argv[rootFlag + 1]) : here;
const src = join(root, 'src');
const DOC = 'docs/architecture.md';

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) return [];
    return entry.isDirectory() ? [`${path}/`, ...walk(path)] : [path];
  });
}

const relativePath = (p) => relative(root, p).replaceAll('\\', '/') + (p.endsWith('/') ? '/' : '');

const TREE = ['src', 'scripts', 'test', 'docs', 'native']
  .filter((d) => existsSync(join(root, d)))
  .flatMap((d) => walk(join(root, d)))
  .map(relativePath);
const SOURCES = TREE.filter(
  (p) => p.startsWith('src/') && !p.startsWith('src/support/i18n/') && /\.tsx?$/.test(p),
);
const read = (p) => readFileSync(join(root, p), 'utf8');

/** Paths the document names: `a/b.ts`, (a/b.ts), `a/b/` — relative to the root, to src/, or a tail of one. */
function namedPaths(doc) {
  const files = [...doc.matchAll(/(?<![\w/.<~%-])((?:[\w-]+\/)+[\w.-]+\.(?:tsx?|mjs|c|md))(?![\w/])/g)].map(
    (m) => m[1],
  );
  const folders = [...doc.matchAll(/`((?:src\/)?(?:[\w-]+\/)+)`/g)].map((m) => m[1]);
  return [...new Set([...files, ...folders])];
}

/** Folders that are places on the person's computer or in dist/, not source. */
const NOT_SOURCE = /^(dist|zhi-output|zhi-uploads|schedules|bin|node_modules)\//;

function checkPaths(doc) {
  const problems = [];
  for (const p of namedPaths(doc)) {
    if (NOT_SOURCE.test(p)) continue;
    const found = p === 'src/' || TREE.some((t) => t === p || t === `src/${p}` || t.endsWith(`/${p}`));
    if (!found) problems.push(`${DOC} names ${p}, which is not in the tree`);
  }
  return problems;
}

function checkLayers(doc) {
  const script = read('scripts/check-imports.mjs');
  const layers = JSON.parse((/const LAYERS = (\[[^\]]*\])/.exec(script)?.[1] ?? '[]').replaceAll("'", '"'));
  const table = [...doc.matchAll(/^\| `src\/([\w-]+)\/` \|/gm)].map((m) => m[1]);
  const top = [...layers].reverse();
  return table.join(' › ') === top.join(' › ')
    ? []
    : [`${DOC}'s layer table (${table.join(' › ')}) is not check-imports.mjs's LAYERS (${top.join(' › ')})`];
}

function checkToolFamilies(doc) {
  const row = /^\| `src\/tools\/` \|(.*)$/m.exec(doc)?.[1] ?? '';
  const named = [...row.matchAll(/`([\w-]+)\/`/g)].map((m) => m[1]).sort();
  const folders = readdirSync(join(src, 'tools'))
    .filter((n) => statSync(join(src, 'tools', n)).isDirectory())
    .sort();
  const missing = folders.filter((f) => !named.includes(f));
  const extra = named.filter((n) => !folders.includes(n));
  return [
    ...missing.map((f) => `${DOC}'s src/tools/ row does not name the tool folder ${f}/`),
    ...extra.map((n) => `${DOC}'s src/tools/ row names ${n}/, which is not a folder of src/tools/`),
  ];
}

/** Source files (relative to src/) in which `pattern` occurs, other than `allowed`. */
function occurrences(pattern, allowed) {
  return SOURCES.filter((p) => pattern.test(read(p)))
    .map((p) => p.slice('src/'.length))
    .filter((p) => !allowed.includes(p));
}

function checkOneOfEach(doc) {
  const problems = [];
  if (!/one function, `createChat` \(cli\/chat\.ts\)/.test(doc))
    problems.push(`${DOC} no longer says where createChat is; update scripts/check-docs.mjs with it`);
  for (const p of occurrences(/\bnew ChatSession\(/, ['cli/chat.ts']))
    problems.push(`${DOC} says one createChat builds every chat, but src/${p} constructs a ChatSession`);
  if (!/`agreeToPrice` \(cli\/price-consent\.ts\)/.test(doc))
    problems.push(`${DOC} no longer says where price consent is; update scripts/check-docs.mjs with it`);
  for (const p of occurrences(/['"`]price\.ask['"`]/, ['cli/price-consent.ts', 'tools/ocr/ocr.ts']))
    problems.push(`${DOC} says agreeToPrice is the one price consent, but src/${p} asks a price itself`);
  for (const p of occurrences(/\bZhipuClient\b/, []).filter((f) => !f.startsWith('llm/')))
    problems.push(`${DOC} says no file outside llm/ names a client class, but src/${p} names ZhipuClient`);
  for (const p of staticImportsOf('src/cli/web/'))
    problems.push(`${DOC} says the web server is reached only by a dynamic import, but src/${p} imports it`);
  return problems;
}

/** Files outside `folder` that import a value from it at load time (type-only imports are erased). */
function staticImportsOf(folder) {
  return SOURCES.filter((p) => !p.startsWith(folder))
    .filter((p) =>
      [...read(p).matchAll(/^import\s+(?!type\s)[^;]*?from\s*'(\.[^']+)'/gm)].some((m) =>
        relativePath(resolve(root, p, '..', m[1])).startsWith(folder),
      ),
    )
    .map((p) => p.slice('src/'.length));
}

/** Backticked snake_case words of `text` outside parentheses (a list's asides name values). */
function listedKeys(text) {
  let bare = text;
  for (let before = ''; before !== bare; ) {
    before = bare;
    bare = bare.replace(/\([^()]*\)/g, '');
  }
  return [...bare.matchAll(/`([a-z]+_[a-z_]+)`/g)].map((m) => m[1]);
}

/**
 * Config keys the document names: `key: value` in backticks, the words of the section on where
 * each setting is decided, and the list after "config keys:" (to the end of its item).
 */
function checkConfigKeys(doc) {
  const schema = read('src/support/config-schema.ts');
  const body = schema.slice(schema.indexOf('export const CONFIG_SCHEMA'));
  const keys = new Set([...body.matchAll(/^ {2}(\w+): key\(/gm)].map((m) => m[1]));
  if (keys.size === 0) return ['scripts/check-docs.mjs found no keys in src/support/config-schema.ts'];
  const settings = doc.slice(
    doc.indexOf('## Where each setting is decided'),
    doc.indexOf('### Per-run settings'),
  );
  const named = [
    ...[...doc.matchAll(/`([a-z]+_[a-z_]+): [\w|-]+`/g)].map((m) => m[1]),
    ...listedKeys(settings),
    ...[...doc.matchAll(/config keys?: ([\s\S]*?)(?=\n- |\n\n|$)/g)].flatMap((m) => listedKeys(m[1])),
  ];
  return [...new Set(named)]
    .filter((k) => !keys.has(k))
    .map((k) => `${DOC} names the config key ${k}, which the config schema does not have`);
}

const doc = read(DOC);
const problems = [
  ...checkPaths(doc),
  ...checkLayers(doc),
  ...checkToolFamilies(doc),
  ...checkOneOfEach(doc),
  ...checkConfigKeys(doc),
];
for (const p of problems) console.error(p);
if (problems.length === 0) console.log(`docs: ${DOC}'s checkable claims hold`);
process.exit(problems.length ? 1 : 0);
