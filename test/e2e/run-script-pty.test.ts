/**
 * run_script's approval in a terminal (issue 43 point 1): the code is shown whole with its line
 * count, only the network widens it, a yes runs it and the file lands in zhi-output; a no runs
 * nothing (en, zh).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxState } from '../../src/tools/shell/sandbox.js';
import { useE2E } from '../helpers/e2e.js';

const e = useE2E();
const sandboxed = process.platform === 'linux' && sandboxState().kind === 'bwrap';

const CODE = [
  "import { writeFileSync } from 'node:fs';",
  '// 写一个表格',
  "writeFileSync('zhi-output/t.csv', 'a,b\\n1,2\\n');",
].join('\n');

function script(): void {
  e.fake.script(
    {
      kind: 'tools',
      calls: [{ name: 'run_script', arguments: { language: 'node', name: 'table', code: CODE } }],
    },
    { kind: 'text', text: 'Done.' },
  );
}

describe.runIf(sandboxed)('run_script approval', () => {
  it('shows the code and its line count; y runs it, the file lands in zhi-output', async () => {
    script();
    const s = e.pty({ args: ['-c', 'make a table'] });
    await s.waitFor('Allow?');
    const shown = s.text();
    expect(shown).toContain('zhi wants to run a script (run_script):');
    expect(shown).toContain('Node.js script, 3 lines:');
    expect(shown).toContain("writeFileSync('zhi-output/t.csv', 'a,b\\n1,2\\n');");
    expect(shown).toContain('// 写一个表格');
    expect(shown).toContain('i = also reach the internet');
    expect(shown).not.toContain('w = also write in this folder');
    expect(shown).toContain(
      'sandboxed: reads this folder and system files, new files only in zhi-output/, no network',
    );
    s.write('y\r');
    await s.exited();
    expect(readFileSync(join(e.cwd, 'zhi-output', 't.csv'), 'utf8')).toBe('a,b\n1,2\n');
  });

  it('in Chinese; n runs nothing', async () => {
    script();
    const s = e.pty({ args: ['-c', '做一个表格'], env: { ZHI_LANGUAGE: 'zh' } });
    await s.waitFor('允许吗');
    expect(s.text()).toContain('Node.js 脚本，共 3 行：');
    s.write('n\r');
    await s.exited();
    expect(existsSync(join(e.cwd, 'zhi-output', 't.csv'))).toBe(false);
  });
});
