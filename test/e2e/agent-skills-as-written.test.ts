/**
 * Agent Skills as they are written (issue 28, point 7): a script anywhere in the skill folder
 * gets the shell; `zhi run` gives the tools `allowed-tools` names (WebSearch, WebFetch, Bash…);
 * a skill's HTML report is written to the output folder; a bundled file read by its relative
 * path is found in the skill folder, and a missing one says how a skill's files are read.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { toolNames, toolResults } from '../helpers/requests.js';

const e = useE2E();
const { fake } = e;
let home: string;
let work: string;
beforeEach(() => {
  ({ home, cwd: work } = e);
});

/** A skill like file-organizer: its helper is not in scripts/, and it names shell and web tools. */
function organizer(allowed?: string): string {
  const dir = join(home, 'skills', 'organizer');
  mkdirSync(join(dir, 'tools', 'helpers'), { recursive: true });
  mkdirSync(join(dir, 'reference'), { recursive: true });
  writeFileSync(
    join(dir, 'SKILL.md'),
    [
      '---',
      'name: organizer',
      'description: Organize the files of a folder and write a report.',
      ...(allowed ? [`allowed-tools: ${allowed}`] : []),
      '---',
      'Run tools/helpers/sort.sh, read reference/naming.md, then write report.html.',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'tools', 'helpers', 'sort.sh'), '#!/bin/sh\necho sorted\n');
  chmodSync(join(dir, 'tools', 'helpers', 'sort.sh'), 0o755);
  writeFileSync(join(dir, 'reference', 'naming.md'), 'NAMING-RULES: dates first.\n');
  return dir;
}

async function trust(name: string): Promise<void> {
  const r = await e.zhi(['skill', 'trust', name]);
  expect(r.code, r.stderr).toBe(0);
}

describe('Agent Skills as written, with zhi run', () => {
  it('gives the tools allowed-tools names, tells the model of a script outside scripts/, reads a bundled file by relative path, writes report.html', async () => {
    const dir = organizer('Bash WebFetch WebSearch Read Write');
    await trust('organizer');
    fake.script(
      { kind: 'tools', calls: [{ name: 'file_read', arguments: { path: 'reference/naming.md' } }] },
      { kind: 'tools', calls: [{ name: 'file_read', arguments: { path: 'reference/missing.md' } }] },
      {
        kind: 'tools',
        calls: [{ name: 'file_write', arguments: { path: 'report.html', content: '<h1>Report</h1>' } }],
      },
      { kind: 'text', text: 'Organized.' },
    );
    const r = await e.zhi(['run', 'organizer', '--auto', 'organize this folder']);
    expect(r.code, r.stderr).toBe(0);
    const [first, , , last] = fake.chatRequests();
    expect(toolNames(first!).sort()).toEqual(
      expect.arrayContaining(['file_read', 'file_write', 'shell', 'web_fetch', 'web_search']),
    );
    const system: string = first!.body.messages[0].content;
    expect(system).toContain(JSON.stringify(join(dir, 'tools/helpers/sort.sh')));
    const [read, missing, written] = toolResults(last!);
    expect(read).toBe('NAMING-RULES: dates first.\n');
    expect(missing).toContain('File not found: "reference/missing.md"');
    expect(missing).toContain('A file bundled with a skill is read by its path in the skill folder');
    expect(written).not.toMatch(/^Error/);
    expect(readFileSync(join(work, 'zhi-output', 'report.html'), 'utf8')).toBe('<h1>Report</h1>\n');
  });

  it('without allowed-tools, a skill with a script in any folder gets the shell (each command still asks)', async () => {
    organizer();
    await trust('organizer');
    fake.script({ kind: 'text', text: 'Nothing to do.' });
    const r = await e.zhi(['run', 'organizer', 'organize']);
    expect(r.code, r.stderr).toBe(0);
    expect(toolNames(fake.chatRequests()[0]!)).toContain('shell');
    expect(existsSync(join(work, 'zhi-output', 'report.html'))).toBe(false);
  });
});
