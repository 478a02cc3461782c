import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from '../helpers/zhi.js';

const dirs: string[] = [];
afterEach(() => cleanup(...dirs.splice(0)));

const checkDocs = (root?: string) =>
  spawnSync(process.execPath, ['scripts/check-docs.mjs', ...(root ? ['--root', root] : [])], {
    encoding: 'utf8',
  });

/** A copy of what the check reads: the sources, scripts, docs and tests. */
function copyTree(): string {
  const dir = tempDir();
  dirs.push(dir);
  for (const d of ['src', 'scripts', 'docs', 'test', 'native']) cpSync(d, join(dir, d), { recursive: true });
  return dir;
}

const edit = (path: string, change: (text: string) => string) =>
  writeFileSync(path, change(readFileSync(path, 'utf8')));

describe('scripts/check-docs.mjs: the claims of docs/architecture.md a script can check', () => {
  it('hold in this checkout', () => {
    const r = checkDocs();
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('fails on each seeded fault, one line each', () => {
    const root = copyTree();
    // A second place that builds a chat, asks a price, names the client class, loads the server.
    writeFileSync(
      join(root, 'src/cli/repl/twin.ts'),
      [
        "import { serve } from '../web/command.js';",
        'const chat = new ChatSession(deps, settings, {});',
        "t('price.ask');",
        'new ZhipuClient();',
      ].join('\n'),
    );
    // A file the document names is gone; a tool folder it does not name appears.
    rmSync(join(root, 'src/support/heap.ts'));
    mkdirSync(join(root, 'src/tools/calendar'));
    // A config key that is not in the schema; layers that are not the gate's.
    edit(join(root, 'docs/architecture.md'), (s) =>
      s.replace('`shell_sandbox: restricted`', '`shell_sandboxed: restricted`'),
    );
    edit(join(root, 'scripts/check-imports.mjs'), (s) => s.replace("'skills', 'agent'", "'agent', 'skills'"));
    const r = checkDocs(root);
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split('\n');
    for (const fault of [
      'src/cli/repl/twin.ts constructs a ChatSession',
      'src/cli/repl/twin.ts asks a price itself',
      'src/cli/repl/twin.ts names ZhipuClient',
      'src/cli/repl/twin.ts imports it',
      'names support/heap.ts, which is not in the tree',
      'does not name the tool folder calendar/',
      'names the config key shell_sandboxed',
      "is not check-imports.mjs's LAYERS",
    ]) {
      expect(
        lines.filter((l) => l.includes(fault)),
        fault,
      ).toHaveLength(1);
    }
  });
});
