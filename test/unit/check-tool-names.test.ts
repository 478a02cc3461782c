import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const script = resolve('scripts/check-tool-names.mjs');
let root: string | undefined;

type Leaks = (root: string) => string[];
/** The checker's function, loaded once: a spawn per case loaded TypeScript's compiler each time (9 s). */
const { toolNameLeaks } = (await import(pathToFileURL(script).href)) as { toolNameLeaks: Leaks };

/** A tree with two tools (one named by a constant) and the given files; the checker's findings. */
function check(files: Record<string, string>): { status: number; leaks: string[] } {
  root = mkdtempSync(join(tmpdir(), 'zhi-names-'));
  const all: Record<string, string> = {
    'src/tools/shell/entry.ts':
      "export const SHELL_TOOL = { name: 'shell', traits: {}, load: async () => 0 };",
    'src/tools/search/search.ts':
      "export const FIND = 'tool_find';\nexport const tool = { name: FIND, execute: async () => '' };",
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const leaks = toolNameLeaks(root);
  return { status: leaks.length ? 1 : 0, leaks };
}

afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

describe('the tool-name gate (scripts/check-tool-names.mjs)', () => {
  it.each([
    ['a Set', "export const s = new Set(['shell']);"],
    ['a comparison', "export const f = (n: string) => n === 'tool_find';"],
    ['includes', "export const f = (n: string[]) => n.includes('shell');"],
    ['has / get', "export const f = (m: Map<string, 1>) => m.get('shell');"],
    ['a switch', "export function f(n: string) { switch (n) { case 'shell': return 1; } return 0; }"],
    ['an object value', "export const aliases = { bash: 'shell' };"],
    ['a table by name', 'export const words = { shell: 1, tool_find: 2 };'],
  ])('fails on a tool name in %s outside src/tools/', (_, code) => {
    const { status, leaks } = check({ 'src/cli/leak.ts': code });
    expect(status).toBe(1);
    expect(leaks).toHaveLength(/shell: 1, tool_find/.test(code) ? 2 : 1);
    expect(leaks[0]).toContain('src/cli/leak.ts:1');
  });

  it('passes the owners, an option named like a tool, a name in a sentence, and the allowed non-tool uses', () => {
    const { status, leaks } = check({
      'src/tools/shell/shell.ts': "export const x = new Set(['shell']);",
      'src/support/i18n/messages/tools.ts': "export const m = { 'tools.verb.shell': 'shell' };",
      'src/cli/ok.ts': "export const o = { shell: true };\nexport const s = 'Run it with shell.';",
      'src/support/allow-config.ts': "export const KINDS = ['tool', 'shell', 'mcp'];",
    });
    expect(leaks).toEqual([]);
    expect(status).toBe(0);
  });

  it('allows a non-tool use only in its own file', () => {
    const { status, leaks } = check({ 'src/cli/rules.ts': "export const KINDS = ['tool', 'shell', 'mcp'];" });
    expect(status).toBe(1);
    expect(leaks[0]).toContain("src/cli/rules.ts:1 'shell'");
  });

  it('passes the real tree, run as the gate runs it', () => {
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
