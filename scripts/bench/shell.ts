/**
 * Shell budgets (issue 10), measured by scripts/bench.mjs:
 * - the first shell call's overhead in a fresh process: loading the bash grammar (WebAssembly),
 *   checking the command, and probing the sandbox — everything before the command itself runs;
 * - the same check once warm;
 * - that `zhi --version` and REPL start-up do not load the parser: the modules they import
 *   statically (dist/, followed chunk by chunk) never reach the grammar.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PLATFORMS } from '../../src/llm/platforms.js';
import { UsageTracker } from '../../src/llm/usage.js';
import shell from '../../src/tools/shell/shell.js';
import type { ToolContext } from '../../src/tools/types.js';

import { bareNode } from './lib/floors.js';
import { type BenchOptions, median, type Row } from './lib/row.js';

const COMMAND = 'cat notes.txt | grep -i todo | sort | uniq -c > zhi-output/todo.txt';

function ctx(): ToolContext {
  return {
    cwd: process.cwd(),
    outputDir: join(process.cwd(), 'zhi-output'),
    signal: new AbortController().signal,
    ask: async () => false,
    interactive: true,
    recordFile: () => {},
    progress: () => {},
    usage: new UsageTracker(PLATFORMS.bigmodel),
    reportUsage: () => {},
    emit: () => {},
  };
}

/** In a fresh process: the first assessment, grammar load included. */
export async function firstCall(): Promise<number> {
  const t = performance.now();
  const a = await shell.assess!({ command: COMMAND, timeout: 30 }, ctx());
  const ms = performance.now() - t;
  if (a.refuse) throw new Error(`shell bench: refused ${a.refuse}`);
  return ms;
}

function inFreshProcess(): number {
  const code = `import(${JSON.stringify(import.meta.url)}).then(async (m) => console.log(await m.firstCall()))`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  return Number(out.trim().split('\n').at(-1));
}

/** Every file of dist/ a module imports statically, transitively (dynamic `import()` not followed). */
function staticGraph(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/^(?:import|export)\s[^;]*?from\s*"(\.[^"]+)"|^import\s*"(\.[^"]+)"/gm)) {
    staticGraph(join(dirname(file), m[1] ?? m[2]!), seen);
  }
  return seen;
}

/** How many statically loaded files of an entry reach the grammar. */
function loadsParser(entry: string): number {
  return [...staticGraph(entry)].filter((f) => readFileSync(f, 'utf8').includes('tree-sitter-wasm')).length;
}

function replEntry(dist: string): string {
  // The REPL is a dynamic import of the app: find the chunk that defines runRepl.
  const app = readFileSync(join(dist, 'zhi.js'), 'utf8');
  const chunks = [...app.matchAll(/import\("(\.\/chunks\/[^"]+)"\)/g)].map((m) => join(dist, m[1]!));
  for (const c of [join(dist, 'zhi.js'), ...chunks]) {
    for (const f of staticGraph(c)) {
      const inner = readFileSync(f, 'utf8');
      for (const m of inner.matchAll(/import\("(\.\/[^"]+)"\)/g)) {
        const target = join(dirname(f), m[1]!);
        if (/function runRepl\b/.test(readFileSync(target, 'utf8'))) return target;
      }
    }
  }
  throw new Error('shell bench: cannot find the REPL chunk in dist/');
}

export async function measure(o: BenchOptions): Promise<Row[]> {
  const runs = o.quick ? [inFreshProcess()] : [inFreshProcess(), inFreshProcess(), inFreshProcess()];
  const first = median(runs);
  const node = bareNode(o.quick ? 3 : 9);
  await firstCall();
  const warm: number[] = [];
  for (let i = 0; i < 20; i++) warm.push(await firstCall());
  warm.sort((a, b) => a - b);
  const dist = join(process.cwd(), 'dist');
  const atStart = loadsParser(join(dist, 'zhi.js')) + loadsParser(replEntry(dist));
  return [
    {
      name: 'first shell call overhead (grammar load, policy, sandbox probe)',
      value: first,
      unit: 'ms',
      floor: { name: 'bare node wall', value: node.wallMs },
      maxRatio: 3,
      note: `median of ${runs.length} fresh processes; warm check ${warm[10]!.toFixed(2)} ms`,
    },
    {
      name: 'shell parser loaded by `zhi --version` / REPL start',
      value: atStart,
      unit: 'files',
      budget: 0,
      note: 'statically imported files of dist/zhi.js and the REPL chunk that reach tree-sitter',
    },
  ];
}
