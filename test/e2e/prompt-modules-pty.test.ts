/**
 * What the REPL's prompt costs: the modules loaded before it appears, and nothing loaded while
 * nobody types. Every module Node loads is logged by a loader hook (NODE_OPTIONS --import); each
 * built chunk's source map says what it holds. The tools' schemas (zod), the shell tool, the
 * conversation, the message path and the Markdown renderer load once a message is being typed.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { KEY } from '../helpers/pty.js';
import { stretched } from '../helpers/slowdown.js';

const e = useE2E();
const PROMPT = /zhi \[approve\]> $/;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A loader hook that appends every file URL Node loads to $ZHI_TEST_MODULE_LOG. */
const HOOK = `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(process.env.ZHI_TEST_MODULE_LOG, url + '\\\\n');
  return next(url, context);
}\`));
`;

/** The sources (from the source maps) of the modules loaded so far, written in the log. */
function loadedSources(log: string): string[] {
  if (!existsSync(log)) return [];
  const files = readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((u) => fileURLToPath(u));
  return files.flatMap((f) => {
    const map = `${f}.map`;
    if (!existsSync(map)) return [];
    const sources = (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources;
    return sources.map((s) => s.replace(/^(\.\.\/)+/, ''));
  });
}

/** Poll until `ok` (the log grows without anything drawn on the screen); a ceiling, never a pace. */
async function eventually(ok: () => boolean, ceilingMs = 30_000): Promise<void> {
  const start = Date.now();
  while (!ok()) {
    if (Date.now() - start > ceilingMs) throw new Error('not loaded while typing');
    await sleep(50);
  }
}

/** What the prompt must not load: heavy, and only needed once a message or `!command` is sent. */
const LATER = [
  /^node_modules\/zod\//,
  /^node_modules\/marked\//,
  /^src\/tools\/shell\/shell\.ts$/,
  /^src\/agent\/chat\.ts$/,
  /^src\/cli\/repl\/message\.ts$/,
];

describe('the prompt loads little, and nothing while nobody types', () => {
  it(
    'loads no schema, tool, chat or renderer before the prompt or while it waits; typing loads them',
    async () => {
      const hook = join(e.home, 'hook.mjs');
      const log = join(e.home, 'modules.log');
      writeFileSync(hook, HOOK);
      const s = e.pty({ env: { NODE_OPTIONS: `--import ${hook}`, ZHI_TEST_MODULE_LOG: log } });
      await s.waitFor(PROMPT);
      const atPrompt = loadedSources(log);
      expect(atPrompt).toContain('src/cli/repl/repl.ts');
      expect(atPrompt.filter((src) => LATER.some((re) => re.test(src)))).toEqual([]);
      await sleep(1500);
      expect(loadedSources(log)).toEqual(atPrompt);
      s.write('h');
      await eventually(() => loadedSources(log).some((src) => src.startsWith('node_modules/zod/')));
      await eventually(() => loadedSources(log).includes('src/cli/repl/message.ts'));
      s.write(KEY.ctrlC);
      s.write(KEY.ctrlD);
      expect((await s.exited()).exitCode).toBe(0);
    },
    stretched(60_000),
  );
});
