#!/usr/bin/env node
// The structure gate: imports inside src/ point down the layers of docs/architecture.md (and one
// way between agent/folder, agent/batch-api and agent/skills), and no two modules need each
// other's values at load time (a value-import cycle). Type-only imports are erased by the
// compiler, but a cycle through them still ties two modules' meaning together: no cycle is
// allowed counting type imports either (issue 39). In the areas already untied (agent/skills,
// agent/folder, agent/batch-api) lazy imports count too; lazy cycles elsewhere are warnings.
// It also runs the tool-name check (check-tool-names.mjs), a failure like the others.
// Usage: node scripts/check-imports.mjs   (exit 1 with one line per problem)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

/** Lower layers first; a module may import its own layer and those below it. */
const LAYERS = ['support', 'llm', 'tools', 'skills', 'agent', 'cli'];

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return walk(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const STATIC = /^(?:import|export)\s+(type\s+)?([^;]*?)\s*from\s*'([^']+)'/gm;
const BARE = /^import\s+'([^']+)'/gm;
const DYNAMIC = /\bimport\(\s*'([^']+)'\s*\)/g;

/** Whether `{ type A, type B }` names only types (erased like `import type`). */
function onlyTypes(clause) {
  const braces = clause.match(/^\{([\s\S]*)\}$/);
  if (!braces) return false;
  const names = braces[1]
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return names.length > 0 && names.every((n) => n.startsWith('type '));
}

function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const found = [];
  const add = (spec, value, lazy) => {
    if (!spec.startsWith('.')) return;
    const ts = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
    const target = existsSync(ts) ? ts : ts.replace(/\.ts$/, '.tsx');
    found.push({ target, value, lazy });
  };
  for (const m of text.matchAll(STATIC)) add(m[3], !m[1] && !onlyTypes(m[2].trim()), false);
  for (const m of text.matchAll(BARE)) add(m[1], true, false);
  for (const m of text.matchAll(DYNAMIC)) add(m[1], true, true);
  return found;
}

function layerOf(file) {
  const top = relative(src, file).split(/[\\/]/)[0];
  return LAYERS.indexOf(top);
}

/**
 * The browser page (src/page/) is a world of its own: it imports only itself, and of the rest of
 * src/ only the names of its catalogue's keys, as a type; nothing else imports it.
 */
const page = join(src, 'page');
const PAGE_TYPES = [join(src, 'support/i18n/messages/page.ts')];
function pageBoundary(file, edge) {
  const fromPage = file.startsWith(`${page}/`);
  const toPage = edge.target.startsWith(`${page}/`);
  if (fromPage === toPage) return undefined;
  if (fromPage && !edge.value && PAGE_TYPES.includes(edge.target)) return undefined;
  return `page boundary: ${relative(root, file)} → ${relative(root, edge.target)}`;
}

/**
 * One direction inside agent/ (issue 39): folder runs know nothing of skills or of the Batch API
 * (both reach them through agent/folder/job.ts), and the Batch API nothing of skills.
 */
const NOT_INTO = [
  ['agent/folder/', ['agent/skills/', 'agent/batch-api/']],
  ['agent/batch-api/', ['agent/skills/']],
].map(([from, to]) => [join(src, from), to.map((d) => join(src, d))]);
function wrongWay(file, edge) {
  const rule = NOT_INTO.find(([from]) => file.startsWith(from));
  if (!rule?.[1].some((d) => edge.target.startsWith(d))) return undefined;
  return `one-way area: ${relative(root, file)} → ${relative(root, edge.target)}`;
}

const files = walk(src);
const graph = new Map();
/** Every import, type-only and lazy ones too. */
const allKinds = new Map();
/** Static imports, type-only ones included (lazy `import()` left out). */
const statics = new Map();
const problems = [];
for (const file of files) {
  const edges = importsOf(file);
  graph.set(
    file,
    edges.filter((e) => e.value && !e.lazy).map((e) => e.target),
  );
  allKinds.set(
    file,
    edges.map((e) => e.target),
  );
  statics.set(
    file,
    edges.filter((e) => !e.lazy).map((e) => e.target),
  );
  for (const edge of edges) {
    const pageProblem = pageBoundary(file, edge);
    if (pageProblem) problems.push(pageProblem);
    const wrong = wrongWay(file, edge);
    if (wrong) problems.push(wrong);
    const from = layerOf(file);
    const to = layerOf(edge.target);
    if (from >= 0 && to > from) {
      problems.push(`upward import: ${relative(root, file)} → ${relative(root, edge.target)}`);
    }
  }
}

// Every switch over an event's type names every member: it ends in `exhaustive(…)`
// (support/exhaustive.ts), so a new event type stops the build where it is not handled. Read from
// the syntax tree, whatever the switched value is called: a switch over `X.type` whose cases
// are mostly event types (two or more `type` members of the event unions) is an event switch.
const ts = (await import('typescript')).default;
const EVENT_FILES = ['agent/events.ts', 'agent/folder/events.ts'].map((f) => join(src, f));
const eventTypes = new Set();
for (const file of EVENT_FILES) {
  const tree = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isPropertySignature(node) && node.name.getText(tree) === 'type' && node.type) {
      const t = node.type;
      if (ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal)) eventTypes.add(t.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
}
function callsExhaustive(node) {
  let found = false;
  const visit = (n) => {
    if (ts.isCallExpression(n) && n.expression.getText() === 'exhaustive') found = true;
    else ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}
// The page is left out: its events come over the wire, typed by itself (src/page/types.ts), and
// one it does not know (from a newer zhi) is not drawn rather than a build error.
for (const file of files.filter((f) => !f.startsWith(`${page}/`))) {
  const text = readFileSync(file, 'utf8');
  if (!text.includes('switch')) continue;
  const tree = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (
      ts.isSwitchStatement(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'type'
    ) {
      const labels = node.caseBlock.clauses
        .filter((c) => ts.isCaseClause(c) && ts.isStringLiteral(c.expression))
        .map((c) => c.expression.text);
      const named = labels.filter((l) => eventTypes.has(l));
      // Mostly event types (a session file's lines share a few names, such as 'message').
      const overEvents = named.length >= 2 && named.length * 2 >= labels.length;
      const fallback = node.caseBlock.clauses.find((c) => ts.isDefaultClause(c));
      if (overEvents && !(fallback && callsExhaustive(fallback))) {
        const line = tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1;
        problems.push(`event switch without exhaustive() in its default: ${relative(root, file)}:${line}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
}

/** Tarjan's strongly connected components of `g`: every component of more than one module is a cycle. */
function cyclesOf(g) {
  let index = 0;
  const stack = [];
  const meta = new Map();
  const found = [];
  const connect = (v) => {
    meta.set(v, { index, low: index, onStack: true });
    index++;
    stack.push(v);
    for (const w of g.get(v) ?? []) {
      if (!g.has(w)) continue;
      if (!meta.has(w)) {
        connect(w);
        meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).low);
      } else if (meta.get(w).onStack) {
        meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).index);
      }
    }
    if (meta.get(v).low === meta.get(v).index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        meta.get(w).onStack = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.map((f) => relative(root, f)).sort());
    }
  };
  for (const file of g.keys()) if (!meta.has(file)) connect(file);
  return found;
}
const valueCycleList = cyclesOf(graph);
const staticCycleList = cyclesOf(statics);
for (const names of valueCycleList) problems.push(`value-import cycle: ${names.join(' ↔ ')}`);

// Counting type imports too: a cycle of any static import is a failure everywhere (issue 39).
const valueCycles = new Set(valueCycleList.map((c) => c.join()));
for (const names of staticCycleList.filter((c) => !valueCycles.has(c.join())))
  problems.push(`import cycle (type imports counted): ${names.join(' ↔ ')}`);

// Lazy imports counted as well: the areas already untied stay so; elsewhere a warning.
const UNTIED = ['agent/skills/', 'agent/folder/', 'agent/batch-api/'].map((d) => `src/${d}`);
const staticCycles = new Set(staticCycleList.map((c) => c.join()));
const lazyCycles = cyclesOf(allKinds).filter((c) => !staticCycles.has(c.join()));
for (const names of lazyCycles.filter((c) => c.some((f) => UNTIED.some((d) => f.startsWith(d)))))
  problems.push(`import cycle (lazy imports counted) in an untied area: ${names.join(' ↔ ')}`);

// No built-in tool name outside src/tools/ (scripts/check-tool-names.mjs, from the syntax tree).
const { toolNameLeaks } = await import('./check-tool-names.mjs');
for (const leak of toolNameLeaks(root)) {
  problems.push(
    `tool name outside src/tools/: ${leak} (ask traitsOf(name), or name the entry: SHELL_TOOL.name)`,
  );
}

if (problems.length > 0) {
  for (const p of problems) console.error(p);
  console.error(
    `\n${problems.length} structure problem(s) in ${files.length} files (see docs/architecture.md, Layers)`,
  );
  process.exit(1);
}
console.log(
  `imports: ${files.length} files, no upward import, no import cycle (type imports counted), event switches exhaustive, no tool name outside src/tools/`,
);

for (const names of lazyCycles)
  console.warn(`warning: import cycle through lazy imports (${names.length} files): ${names.join(' ↔ ')}`);

// Warnings (not failures): files past the ~400-line budget.
const MAX_LINES = 400;
const long = files
  .map((file) => ({ file, lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
  .filter((f) => f.lines > MAX_LINES)
  .sort((a, b) => b.lines - a.lines);
for (const f of long)
  console.warn(`warning: ${relative(root, f.file)} has ${f.lines} lines (budget ${MAX_LINES})`);

// Functions past the 80-line budget (docs/architecture.md) fail: split by what they do. (A
// warning was not enough: six came back within a round.)
const MAX_FUNCTION_LINES = 80;
const longFunctions = [];
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const tree = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    const isFunction =
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node);
    if (isFunction && node.body && ts.isBlock(node.body)) {
      const from = tree.getLineAndCharacterOfPosition(node.getStart(tree)).line;
      const to = tree.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (to - from + 1 > MAX_FUNCTION_LINES) {
        const name = node.name?.getText(tree) ?? '(anonymous)';
        longFunctions.push(
          `${relative(root, file)}:${from + 1} ${name} has ${to - from + 1} lines (budget ${MAX_FUNCTION_LINES})`,
        );
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
}
if (longFunctions.length) {
  for (const line of longFunctions) console.error(`function too long: ${line}`);
  process.exit(1);
}
