import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFIG_KEYS, CONFIG_SCHEMA } from '../../src/support/config-schema.js';
import { OUTPUT_FORMAT_IDS, WRITE_FORMATS } from '../../src/tools/files/writers/formats.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

const dirs: string[] = [];
afterEach(() => cleanup(...dirs.splice(0)));

/** scripts/docs-tables.mjs over a copy of README.md (changed by `edit`). */
function runOnCopy(edit: (readme: string) => string, ...args: string[]) {
  const dir = tempDir();
  dirs.push(dir);
  const readme = join(dir, 'README.md');
  copyFileSync('README.md', readme);
  writeFileSync(readme, edit(readFileSync(readme, 'utf8')));
  const run = spawnSync(process.execPath, ['scripts/docs-tables.mjs', '--root', dir, ...args], {
    encoding: 'utf8',
  });
  return { status: run.status, stderr: run.stderr, readme: readFileSync(readme, 'utf8') };
}

describe('the README settings table is written from the config schema', () => {
  it('is up to date in this checkout', () => {
    expect(runOnCopy((s) => s, '--check').status).toBe(0);
  });

  it('has one row per key, in the schema order, with its default and values', () => {
    const readme = readFileSync('README.md', 'utf8');
    const rows = readme.split('\n').filter((l) => /^\| `[a-z_]+` \|/.test(l));
    const keys = rows.map((r) => /^\| `([a-z_]+)`/.exec(r)![1]);
    expect(keys).toEqual(CONFIG_KEYS);
    expect(rows.find((r) => r.startsWith('| `language`'))).toContain('`auto`, `en`, `zh`');
    expect(rows.find((r) => r.startsWith('| `platform`'))).toContain('`openrouter`');
    expect(rows.find((r) => r.startsWith('| `max_turns`'))).toContain(
      `\`${CONFIG_SCHEMA.max_turns.default}\``,
    );
  });

  it('--check fails on a row edited by hand, and writing puts it back', () => {
    const edit = (s: string) => s.replace('| `max_turns` | `30` |', '| `max_turns` | `40` |');
    const checked = runOnCopy(edit, '--check');
    expect(checked.status).toBe(1);
    expect(checked.stderr).toContain('settings table differs');
    expect(runOnCopy(edit).readme).toBe(readFileSync('README.md', 'utf8'));
  });

  it("the formats zhi writes, named in the README's sentence, are file_write's", () => {
    const sentence = /It writes <!-- generated:write-formats -->`([^`]*)`/.exec(
      readFileSync('README.md', 'utf8'),
    );
    expect(sentence?.[1]?.split(' ')).toEqual(OUTPUT_FORMAT_IDS.map((f) => WRITE_FORMATS[f].extensions[0]));
    const edit = (s: string) => s.replace('.docx .pptx`<!-- /generated', '.docx`<!-- /generated');
    expect(runOnCopy(edit, '--check').stderr).toContain('write-formats table differs');
  });

  it('--check fails when the markers are gone', () => {
    const checked = runOnCopy((s) => s.replace('<!-- generated:settings -->', ''), '--check');
    expect(checked.status).toBe(1);
    expect(checked.stderr).toContain('markers');
  });
});
