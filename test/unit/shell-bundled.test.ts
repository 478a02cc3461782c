/**
 * Scripts bundled with an Agent Skill (issue 43 point 1): the shell shows them in the approval
 * instead of refusing what real skills' scripts do (`$SED_INPLACE` as a program, their own file
 * named twice); the same script outside a skill's folder is still read line by line and refused.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../src/support/i18n/index.js';
import { assessCommand } from '../../src/tools/shell/policy.js';
import { createShellTool } from '../../src/tools/shell/shell.js';
import { loadBashParser } from '../../src/tools/shell/tree.js';
import { toolContext } from '../helpers/file-fixtures.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let root = '';
let skill = '';
let cwd = '';
const SED = '#!/bin/bash\nSED_INPLACE="sed -i"\n$SED_INPLACE "s/a/b/" "$1"\n';
const SERVER = '#!/bin/bash\npkill -f server.cjs || true\nnode "$(dirname "$0")/server.cjs" &\n';

beforeAll(async () => {
  await loadBashParser();
  setLanguage('en');
  root = tempDir('zhi-bundled-');
  skill = join(root, 'skills', 'brainstorm');
  cwd = join(root, 'work');
  mkdirSync(join(skill, 'scripts'), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(skill, 'scripts', 'fix.sh'), SED);
  writeFileSync(join(skill, 'scripts', 'start.sh'), SERVER);
  writeFileSync(join(skill, 'scripts', 'recalc.py'), `${'print(1)\n'.repeat(50)}`);
  writeFileSync(join(cwd, 'fix.sh'), SED);
});
afterAll(() => cleanup(root));

describe("a skill's bundled scripts", () => {
  it('are collected with their text, not refused for lines the policy cannot read', () => {
    const opts = { cwd, home: '/home/nobody', skillFolders: [skill] };
    for (const [line, file, text] of [
      [`bash ${skill}/scripts/fix.sh notes.md`, 'fix.sh', SED],
      [`bash ${skill}/scripts/start.sh`, 'start.sh', SERVER],
      [`cd ${skill} && ./scripts/start.sh`, 'start.sh', SERVER],
    ] as const) {
      const v = assessCommand(line, opts);
      expect(v.level, line).toBe('allow');
      expect(v.bundled?.map((b) => [b.file.split('/').pop(), b.text])).toEqual([[file, text]]);
    }
  });

  it('without the skill folder known, as before, they are refused for what the policy cannot read', () => {
    const opts = { cwd, home: '/home/nobody' };
    expect(assessCommand(`bash ${skill}/scripts/fix.sh notes.md`, opts).findings[0]?.rule).toBe('dynamic');
    expect(assessCommand(`bash ${skill}/scripts/start.sh`, opts).level).toBe('refuse');
  });

  it('outside a skill folder the same script is still checked and refused', () => {
    const v = assessCommand('bash ./fix.sh notes.md', { cwd, home: '/home/nobody', skillFolders: [skill] });
    expect(v.level).toBe('refuse');
    expect(v.bundled).toBeUndefined();
  });

  it('the approval shows the script with its line count, folded after 40 lines (v shows all)', async () => {
    const tool = createShellTool({ sandbox: 'off', envNames: [] });
    const ctx = toolContext({ cwd, outputDir: join(cwd, 'zhi-output'), extraReadable: [skill] });
    const short = await tool.assess!({ command: `bash ${skill}/scripts/fix.sh a.md`, timeout: 30 }, ctx);
    expect(short.refuse).toBeUndefined();
    expect(short.shows?.[0]).toMatch(/^It runs .*fix\.sh, a script of the skill \(3 lines\):$/);
    expect(short.shows).toContain('  │ $SED_INPLACE "s/a/b/" "$1"');
    const long = await tool.assess!(
      { command: `python3 ${skill}/scripts/recalc.py out.xlsx`, timeout: 30 },
      ctx,
    );
    expect(long.shows).toHaveLength(1 + 40 + 1);
    expect(long.shows?.at(-1)).toContain('10 more lines');
    expect(long.full?.split('\n').filter((l) => l.includes('print(1)'))).toHaveLength(50);
  });
});
