#!/usr/bin/env node
// No built-in tool name outside src/tools/ (docs/architecture.md, Tools): code elsewhere asks a
// tool's traits (`traitsOf(name)`) or names the entry it needs (`SHELL_TOOL.name`), so a new tool
// is declared once, in its folder. Read from the syntax tree, not by pattern: any string literal
// (or object key) equal to a tool's name is a leak, in a comparison, a list, a Set, a map or a
// switch. The names come from the tools' own declarations (`name:` of an object with `load` or
// `execute` under src/tools/), so this script keeps no list of them.
// Usage: node scripts/check-tool-names.mjs [root]   (exit 1 with one line per leak)
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

/**
 * Words that are spelled like a tool but name something else, each allowed in one file (or a
 * folder, ending in `/`) with the reason. Keep it short: a new entry needs a reason that is not
 * "the code needs to know which tool this is".
 */
const NOT_TOOL_NAMES = [
  { file: 'src/llm/', name: 'ocr', why: 'a model kind (GLM-OCR), not the tool' },
  { file: 'src/skills/create-schema.ts', name: 'ocr', why: 'a model kind: an OCR model cannot run a skill' },
  { file: 'src/skills/resolve.ts', name: 'ocr', why: "a model choice's problem (an OCR model)" },
  { file: 'src/cli/repl/commands/model.ts', name: 'ocr', why: "a model choice's problem (an OCR model)" },
  { file: 'src/support/config.ts', name: 'web_search', why: 'a config key (the search engine)' },
  { file: 'src/cli/render/highlight.ts', name: 'shell', why: "a code block's language" },
  { file: 'src/support/allow-config.ts', name: 'shell', why: 'an allow rule kind (`shell:` in config)' },
  { file: 'src/cli/allow-text.ts', name: 'shell', why: 'an allow rule kind' },
  { file: 'src/cli/commands/config-allow.ts', name: 'shell', why: 'an allow rule kind' },
  { file: 'src/agent/allow-rules.ts', name: 'shell', why: "an allow rule kind and the tool kind 'shell'" },
  { file: 'src/agent/call-decision.ts', name: 'shell', why: "the tool kind 'shell' (asked every time)" },
];

/** Folders and files that only show names (the catalogue, the page) or own them (tools/). */
const OWNERS = ['src/tools/', 'src/page/', 'src/support/i18n/messages/'];

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return walk(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const treeOf = (file) => ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
const keyOf = (p) =>
  p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : undefined;

/** The built-in tools' names: each tool's `name`, a literal or a constant of its own file. */
export function builtinToolNames(root) {
  const names = new Set();
  for (const file of walk(join(root, 'src', 'tools'))) {
    const tree = treeOf(file);
    const constants = new Map();
    const visit = (node) => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
        if (ts.isStringLiteral(node.initializer)) constants.set(node.name.text, node.initializer.text);
      }
      if (ts.isObjectLiteralExpression(node)) {
        const keys = new Set(node.properties.map(keyOf));
        const name = node.properties.find((p) => keyOf(p) === 'name' && ts.isPropertyAssignment(p));
        if (name && (keys.has('load') || keys.has('execute'))) {
          const value = name.initializer;
          if (ts.isStringLiteral(value)) names.add(value.text);
          else if (ts.isIdentifier(value) && constants.has(value.text)) names.add(constants.get(value.text));
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(tree);
  }
  return names;
}

/** Every place outside the owners where a tool's name is written, as `file:line 'name'`. */
export function toolNameLeaks(root, names = builtinToolNames(root)) {
  const leaks = [];
  for (const file of walk(join(root, 'src'))) {
    const rel = relative(root, file).split(sep).join('/');
    if (OWNERS.some((o) => rel.startsWith(o))) continue;
    const allowed = (name) =>
      NOT_TOOL_NAMES.some(
        (a) => a.name === name && (rel === a.file || (a.file.endsWith('/') && rel.startsWith(a.file))),
      );
    const tree = treeOf(file);
    const visit = (node) => {
      const text =
        ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)
          ? node.text
          : ts.isIdentifier(node) && isTableKey(node, names)
            ? node.text
            : undefined;
      if (text !== undefined && names.has(text) && !allowed(text)) {
        const line = tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1;
        leaks.push(`${rel}:${line} '${text}'`);
      }
      ts.forEachChild(node, visit);
    };
    visit(tree);
  }
  return leaks;
}

/**
 * `{ file_read: …, shell: … }`: a key of an object literal with two or more keys that are tool
 * names (a table by tool name). One such key alone is an option's name (`{ shell: true }`).
 */
function isTableKey(node, names) {
  const entry = node.parent;
  if (!(ts.isPropertyAssignment(entry) || ts.isShorthandPropertyAssignment(entry)) || entry.name !== node)
    return false;
  if (!ts.isObjectLiteralExpression(entry.parent)) return false;
  return entry.parent.properties.filter((p) => names.has(keyOf(p))).length >= 2;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const leaks = toolNameLeaks(root);
  for (const leak of leaks)
    console.error(
      `tool name outside src/tools/: ${leak} (ask traitsOf(name), or name the entry: SHELL_TOOL.name)`,
    );
  process.exit(leaks.length ? 1 : 0);
}
