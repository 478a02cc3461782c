import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { instructionsPrompt, loadInstructions, MAX_FILE_CHARS } from '../../src/agent/instructions.js';
import { houseRuleNotes } from '../../src/cli/house-rules.js';
import { setLanguage } from '../../src/support/i18n/index.js';
import { installSecrets, SecretRegistry } from '../../src/support/redact.js';

let root: string;
let project: string;
let config: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'zhi-house-')));
  project = join(root, 'project');
  config = join(root, 'config');
  mkdirSync(project);
  mkdirSync(config);
  setLanguage('en');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const write = (rel: string, text: string) => {
  const path = join(project, rel);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
};
const load = () => loadInstructions(project, root, config);

describe('house rules', () => {
  it('reads CLAUDE.md only where there is no ZHI.md or AGENTS.md', async () => {
    write('CLAUDE.md', 'claude rules');
    expect((await load()).files.map((f) => f.text)).toEqual(['claude rules']);
    write('AGENTS.md', 'agents rules');
    expect((await load()).files.map((f) => f.text)).toEqual(['agents rules']);
    expect(instructionsPrompt(await load())).not.toContain('claude rules');
  });

  it('replaces an @file line with the file, nested imports too, relative to the importing file', async () => {
    write('ZHI.md', 'Rules:\n@docs/style.md\nmail me@example.com stays');
    write('docs/style.md', 'Use short sentences.\n@more/tone.md');
    write('docs/more/tone.md', 'Be kind.');
    const found = await load();
    expect(found.files[0]!.text).toBe('Rules:\nUse short sentences.\nBe kind.\nmail me@example.com stays');
    expect(found.problems).toEqual([]);
  });

  it.each([
    ['a file outside the project folder', '@../outside.md', 'outside'],
    ['a missing file', '@docs/none.md', 'missing'],
    ['a secret', '@conf/.env', 'refused'],
    ['a link leading out', '@link.md', 'refused'],
  ])('does not import %s', async (_what, line, code) => {
    writeFileSync(join(root, 'outside.md'), 'SECRET PLAN');
    write('conf/.env', 'API_KEY=abc');
    symlinkSync(join(root, 'outside.md'), join(project, 'link.md'));
    write('ZHI.md', `top\n${line}`);
    const found = await load();
    expect(found.files[0]!.text).not.toContain('SECRET PLAN');
    expect(found.files[0]!.text).not.toContain('API_KEY');
    expect(found.files[0]!.text).toMatch(/\[@.+: not imported/);
    expect(found.problems.map((p) => p.code)).toEqual([code]);
  });

  it("the person's own ZHI.md cannot import zhi's config with the key", async () => {
    const key = '0123456789abcdef0123456789abcdef.TestSecret1';
    installSecrets(new SecretRegistry()).add(key);
    writeFileSync(join(config, 'config.yaml'), `api_key: ${key}\n`);
    writeFileSync(join(config, 'ZHI.md'), 'mine\n@config.yaml');
    const found = await load();
    installSecrets(new SecretRegistry());
    expect(JSON.stringify(found.files)).not.toContain('TestSecret1');
    expect(found.problems.map((p) => p.code)).toEqual(['refused']);
  });

  it('stops a cycle and goes at most 3 deep', async () => {
    write('ZHI.md', '@a.md');
    write('a.md', 'A\n@ZHI.md');
    expect((await load()).problems.map((p) => p.code)).toEqual(['cycle']);
    write('ZHI.md', '@1.md');
    write('1.md', 'one\n@2.md');
    write('2.md', 'two\n@3.md');
    write('3.md', 'three\n@4.md');
    write('4.md', 'four');
    const deep = await load();
    expect(deep.files[0]!.text).toContain('three');
    expect(deep.files[0]!.text).not.toContain('four');
    expect(deep.problems.map((p) => p.code)).toEqual(['depth']);
  });

  it('says a cut and an import not made, naming the file, in English and Chinese', async () => {
    write('ZHI.md', `${'x'.repeat(MAX_FILE_CHARS + 10)}\n@none.md`);
    const found = await load();
    expect(found.files[0]!.cut).toBe(true);
    const notes = houseRuleNotes(found);
    expect(notes[0]).toBe(
      `The house rules in ${join(project, 'ZHI.md')} are longer than 12,000 characters: only the first 12,000 reach the model. Shorten the file or move parts into files it imports (@file).`,
    );
    setLanguage('zh');
    expect(houseRuleNotes(found)[1]).toBe(
      `${join(project, 'ZHI.md')} 导入的 @none.md 未被读取：没有这个文件。`,
    );
  });
});
