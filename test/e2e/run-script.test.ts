/**
 * The script workspace (issue 43 point 1), end to end with the built zhi and the fake API: an
 * Anthropic-style document skill has the model write a script and run it with run_script; the
 * file it makes lands in zhi-output, the script in zhi-output/.zhi-work/; a missing Python
 * package and a missing interpreter are said plainly; with no one to approve, nothing runs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { sandboxState } from '../../src/tools/shell/sandbox.js';
import { useE2E } from '../helpers/e2e.js';
import { toolResults } from '../helpers/requests.js';

const e = useE2E();
const { fake } = e;
const sandboxed = sandboxState().kind !== 'none';
// A Python in a system folder: one in a home folder (a pyenv shim) is hidden by the sandbox when
// the tests move HOME.
const PYTHON = ['/usr/bin/python3', '/usr/local/bin/python3'].find((p) => existsSync(p));
const hasPython = PYTHON !== undefined;
const hasOpenpyxl = hasPython && spawnSync(PYTHON, ['-c', 'import openpyxl']).status === 0;

const DESCRIPTION =
  'Create, edit and analyse spreadsheets (.xlsx, .csv): formulas, formatting, charts and data cleaning. ' +
  'It writes a short Python script with openpyxl, or a Node script when the Python libraries are missing, and runs it. ' +
  'Use when the user asks for a spreadsheet, a workbook, an Excel file or a CSV export of data.';

const NODE_CSV = [
  "import { writeFileSync } from 'node:fs';",
  "const rows = [['product', 'units'], ['tea', 12], ['coffee', 7]];",
  "writeFileSync('zhi-output/sales.csv', rows.map((r) => r.join(',')).join('\\n') + '\\n');",
  "console.log('rows written:', rows.length - 1);",
].join('\n');

beforeEach(() => {
  const folder = join(e.home, 'skills', 'xlsx');
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'SKILL.md'),
    `---\nname: xlsx\ndescription: ${DESCRIPTION}\n---\n# Spreadsheets\n\nWrite a Python script using openpyxl and run it. If openpyxl is missing, write a Node script that writes the file with plain code.\n`,
  );
});

describe('run_script', () => {
  it('a document skill has the model write a Node script and run it: the file lands in zhi-output (--auto, sandboxed)', async () => {
    fake.script(
      { kind: 'tools', calls: [{ name: 'skill', arguments: { name: 'xlsx' } }] },
      {
        kind: 'tools',
        calls: [{ name: 'run_script', arguments: { language: 'node', name: 'sales', code: NODE_CSV } }],
      },
      { kind: 'text', text: 'Wrote zhi-output/sales.csv.' },
    );
    const r = await e.zhi(['-c', 'make a csv of this week sales', '--auto']);
    if (!sandboxed) {
      // Without a sandbox --auto does not cover a script: no one is there to ask, so it is refused.
      expect(existsSync(join(e.cwd, 'zhi-output', 'sales.csv'))).toBe(false);
      return;
    }
    expect(r.code).toBe(0);
    expect(readFileSync(join(e.cwd, 'zhi-output', 'sales.csv'), 'utf8')).toBe(
      'product,units\ntea,12\ncoffee,7\n',
    );
    expect(r.stderr).toContain('zhi-output/sales.csv');
    // The whole description reached the model's list, trigger words at its end included.
    const system = String(fake.chatRequests()[0]!.body.messages[0].content);
    expect(system).toContain(DESCRIPTION);
    // Loading the skill told the model which tool runs the code it asks for.
    expect(toolResults(fake.chatRequests()[1]!).at(-1)).toContain('pass it to run_script');
    const result = toolResults(fake.chatRequests()[2]!).at(-1)!;
    expect(result).toContain('Exit code: 0');
    expect(result).toContain('rows written: 2');
    expect(result).toContain('New files in the output folder: sales.csv');
    expect(result).toContain('It ran in the sandbox');
    const work = join(e.cwd, 'zhi-output', '.zhi-work');
    const [run] = readdirSync(work);
    expect(readFileSync(join(work, run!, 'sales.mjs'), 'utf8')).toBe(NODE_CSV);
  });

  it.runIf(sandboxed)(
    'zhi run of the skill: it gets run_script, needs trust, and with --auto the file lands',
    async () => {
      fake.script(
        {
          kind: 'tools',
          calls: [{ name: 'run_script', arguments: { language: 'node', name: 'sales', code: NODE_CSV } }],
        },
        { kind: 'text', text: 'Wrote it.' },
      );
      const untrusted = await e.zhi(['run', 'xlsx', 'sales as csv', '--auto']);
      expect(untrusted.code).toBe(3);
      expect(untrusted.stderr).toContain('has not been trusted yet');
      expect((await e.zhi(['skill', 'trust', 'xlsx'])).code).toBe(0);
      const r = await e.zhi(['run', 'xlsx', 'sales as csv', '--auto']);
      expect(r.code).toBe(0);
      const names = (fake.chatRequests()[0]!.body.tools ?? []).map(
        (t: { function: { name: string } }) => t.function.name,
      );
      expect(names).toContain('run_script');
      expect(readFileSync(join(e.cwd, 'zhi-output', 'sales.csv'), 'utf8')).toContain('tea,12');
    },
  );

  it.runIf(sandboxed)('the sandbox holds: no write outside the output folder, no network', async () => {
    const code = [
      "import { writeFileSync } from 'node:fs';",
      "try { writeFileSync('escaped.txt', 'x'); console.log('WROTE'); } catch (e) { console.log('write refused', e.code); }",
      "try { await fetch('http://example.com'); console.log('FETCHED'); } catch { console.log('no network'); }",
    ].join('\n');
    fake.script(
      { kind: 'tools', calls: [{ name: 'run_script', arguments: { language: 'node', code } }] },
      { kind: 'text', text: 'ok' },
    );
    expect((await e.zhi(['-c', 'try it', '--auto'])).code).toBe(0);
    const result = toolResults(fake.chatRequests()[1]!).at(-1)!;
    expect(result).toContain('write refused');
    expect(result).toContain('no network');
    expect(existsSync(join(e.cwd, 'escaped.txt'))).toBe(false);
  });

  it.runIf(hasPython && !hasOpenpyxl && sandboxed)(
    'a missing Python package is said to the person and the model, with how to install it (en, zh)',
    async () => {
      const code = "import openpyxl\nwb = openpyxl.Workbook()\nwb.save('zhi-output/a.xlsx')\n";
      for (const [language, line] of [
        [
          'en',
          'The script needs the Python 3 package openpyxl, which is not installed here. To install it: python3 -m pip install openpyxl',
        ],
        ['zh', '脚本需要 Python 3 包 openpyxl，但这里没有安装。安装方法：python3 -m pip install openpyxl'],
      ] as const) {
        fake.restore();
        fake.script(
          { kind: 'tools', calls: [{ name: 'run_script', arguments: { language: 'python', code } }] },
          { kind: 'text', text: 'missing' },
        );
        const r = await e.zhi(['-c', 'make a workbook', '--auto'], {
          env: { ZHI_LANGUAGE: language, ZHI_PYTHON: PYTHON },
        });
        expect(r.stderr).toContain(line);
        const result = toolResults(fake.chatRequests()[1]!).at(-1)!;
        expect(result).toContain('The Python 3 module "openpyxl" is not installed here');
        expect(result).toContain('python3 -m pip install openpyxl');
      }
    },
  );

  it('with no one to approve and no --auto, the script is neither written nor run', async () => {
    fake.script(
      { kind: 'tools', calls: [{ name: 'run_script', arguments: { language: 'node', code: NODE_CSV } }] },
      { kind: 'text', text: 'not run' },
    );
    await e.zhi(['-c', 'make a csv']);
    expect(existsSync(join(e.cwd, 'zhi-output', 'sales.csv'))).toBe(false);
    expect(existsSync(join(e.cwd, 'zhi-output', '.zhi-work'))).toBe(false);
  });

  it('a missing interpreter is refused with what is missing and what to try (en, zh)', async () => {
    for (const [language, text] of [
      [
        'en',
        'Python 3 is not installed here (or not on PATH), so the script cannot run. Install it, or set ZHI_PYTHON to its path',
      ],
      [
        'zh',
        '这台电脑没有安装 Python 3（或不在 PATH 中），脚本无法运行。请安装它，或将 ZHI_PYTHON 设为它的路径',
      ],
    ] as const) {
      fake.restore();
      fake.script(
        {
          kind: 'tools',
          calls: [{ name: 'run_script', arguments: { language: 'python', code: 'print(1)' } }],
        },
        { kind: 'text', text: 'no python' },
      );
      const r = await e.zhi(['-c', 'run it', '--auto'], {
        env: { ZHI_PYTHON: 'off', ZHI_LANGUAGE: language },
      });
      expect(r.stderr).toContain(text);
      // A refusal reaches the model in the words the person read, as the shell's do.
      expect(toolResults(fake.chatRequests()[1]!).at(-1)).toContain(text);
    }
  });

  it('with shell_sandbox off, --auto does not run a script: it is asked every time (refused with no terminal)', async () => {
    writeFileSync(join(e.home, 'config.yaml'), 'shell_sandbox: off\n');
    fake.script(
      { kind: 'tools', calls: [{ name: 'run_script', arguments: { language: 'node', code: NODE_CSV } }] },
      { kind: 'text', text: 'not run' },
    );
    await e.zhi(['-c', 'make a csv', '--auto']);
    expect(existsSync(join(e.cwd, 'zhi-output', 'sales.csv'))).toBe(false);
  });
});
