#!/usr/bin/env node
// Tables of the documentation written from the tables of the code, so they cannot drift: the
// README's settings table from the config schema (src/support/config-schema.ts), and the formats
// zhi writes from file_write's (src/tools/files/writers/formats.ts). Each lives
// between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->` in its file.
// Usage: node scripts/docs-tables.mjs           write them
//        node scripts/docs-tables.mjs --check   exit 1 when a file differs (part of `npm run gate`)
// The TypeScript is bundled in memory with esbuild (offline, about 50 ms); nothing is built on disk.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Where the documents are (`--root <dir>`: a copy, in tests); the code is always this checkout's. */
const rootFlag = process.argv.indexOf('--root');
const docsRoot = rootFlag > 0 ? resolve(process.argv[rootFlag + 1]) : root;

/** The code's tables, loaded from src/ without building dist/. */
async function loadSources() {
  const entry = `
    export { CONFIG_SCHEMA, CONFIG_KEYS } from './src/support/config-schema.ts';
    export { config as configMessages } from './src/support/i18n/messages/config.ts';
    export { PLATFORMS, PLATFORM_IDS } from './src/llm/platforms.ts';
    export { DEFAULT_CHAT_MODEL } from './src/llm/models.ts';
    export { WRITE_FORMATS, OUTPUT_FORMAT_IDS } from './src/tools/files/writers/formats.ts';
  `;
  const out = await build({
    stdin: { contents: entry, resolveDir: root, loader: 'ts' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    logLevel: 'error',
  });
  const code = out.outputFiles[0].text;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

const fill = (text, params) => text.replace(/\{(\w+)\}/g, (m, name) => params[name] ?? m);
const code = (words) => words.map((w) => `\`${w}\``).join(', ');
/** A table cell: a `|` inside would start a new cell. */
const cell = (text) => String(text).replace(/\|/g, '\\|');

/** The skill models by platform, as a person reads them: `glm-4-flash` (bigmodel, custom), … */
function skillModels(platforms) {
  const byModel = new Map();
  for (const p of Object.values(platforms))
    byModel.set(p.skillModel, [...(byModel.get(p.skillModel) ?? []), p.id]);
  return [...byModel].map(([model, ids]) => `\`${model}\` (${ids.join(', ')})`).join(', ');
}

function settingsTable(s) {
  const en = s.configMessages.en;
  const params = { model: s.DEFAULT_CHAT_MODEL, models: skillModels(s.PLATFORMS) };
  const rows = s.CONFIG_KEYS.map((key) => {
    const spec = s.CONFIG_SCHEMA[key];
    const shown =
      spec.default !== undefined
        ? `\`${spec.default}\``
        : spec.defaultText
          ? fill(en[spec.defaultText], params)
          : '–';
    const words = key === 'platform' ? s.PLATFORM_IDS : spec.check.words;
    const values = words
      ? code(words)
      : en[spec.expected ?? 'config.expected.text'].replace(/^It must be /, '').replace(/\.$/, '');
    const setBy = [
      spec.setWith === 'config.yaml' ? 'the file only' : `\`${spec.setWith ?? 'zhi config set'}\``,
      ...(spec.env ? [`\`$${spec.env}\``] : []),
      ...(spec.flag ? [`\`${spec.flag}\``] : []),
    ].join(', ');
    return `| \`${key}\` | ${cell(shown)} | ${cell(values)} | ${cell(en[spec.describe])} | ${setBy} |`;
  });
  return ['| key | default | values | meaning | set with |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** The extensions file_write takes, one per format, inline in a sentence: `.md .txt …`. */
const writeFormats = (s) =>
  `\`${s.OUTPUT_FORMAT_IDS.map((f) => s.WRITE_FORMATS[f].extensions[0]).join(' ')}\``;

const TABLES = [
  { file: 'README.md', name: 'settings', render: settingsTable },
  { file: 'README.md', name: 'write-formats', render: writeFormats, inline: true },
];

/**
 * `text` with the generated part NAME replaced by `body` (on lines of its own, or `inline` in a
 * sentence); undefined when the markers are missing.
 */
function replaceGenerated(text, name, body, inline = false) {
  const open = `<!-- generated:${name} -->`;
  const close = `<!-- /generated:${name} -->`;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start < 0 || end < start) return undefined;
  const gap = inline ? '' : '\n';
  return `${text.slice(0, start + open.length)}${gap}${body}${gap}${text.slice(end)}`;
}

async function main() {
  const check = process.argv.includes('--check');
  const sources = await loadSources();
  let problems = 0;
  for (const table of TABLES) {
    const path = join(docsRoot, table.file);
    const text = readFileSync(path, 'utf8');
    const next = replaceGenerated(text, table.name, table.render(sources), table.inline);
    if (next === undefined) {
      console.error(
        `${table.file}: no <!-- generated:${table.name} --> … <!-- /generated:${table.name} --> markers`,
      );
      problems++;
    } else if (next !== text) {
      if (check) {
        console.error(
          `${table.file}: the ${table.name} table differs from the code; run node scripts/docs-tables.mjs`,
        );
        problems++;
      } else {
        writeFileSync(path, next);
        console.log(`${table.file}: ${table.name} table written`);
      }
    }
  }
  process.exit(problems ? 1 : 0);
}

await main();
