import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSkillFile, mapAllowedTools, parseSkillText } from '../../src/skills/loader.js';
import { describeIssue } from '../../src/skills/resolve.js';
import { isSafeRelativeDir } from '../../src/skills/schema.js';
import { setLanguage } from '../../src/support/i18n/index.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

const opts = { file: '/skills/demo.yaml', source: 'user' as const, format: 'yaml' as const };
const parse = (text: string, o = opts) => parseSkillText(text, o);

const VALID = `name: demo
description: A demo skill
model: glm-4-air
input:
  description: One document
  args:
    - name: file
      type: file
      required: true
    - name: to
      type: string
      default: English
output:
  description: A Markdown file
  directory: out/reports
system_prompt: |
  You are a careful assistant.
tools:
  - file_read
  - file_write
max_turns: 7
`;

afterEach(() => setLanguage('en'));

describe('skill loader: YAML', () => {
  it('loads a complete skill with its fields, defaults and lines', () => {
    const r = parse(VALID);
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    const s = r.skill!;
    expect(s.name).toBe('demo');
    expect(s.model).toBe('glm-4-air');
    expect(s.maxTurns).toBe(7);
    expect(s.thinking).toBe(false);
    expect(s.args).toEqual([
      { name: 'file', type: 'file', required: true },
      { name: 'to', type: 'string', required: false, default: 'English' },
    ]);
    expect(s.output).toEqual({ description: 'A Markdown file', directory: 'out/reports' });
    expect(s.systemPrompt).toBe('You are a careful assistant.');
    expect(s.tools).toEqual(['file_read', 'file_write']);
    expect(s.toolLines).toEqual([19, 20]);
    expect(s.modelLine).toBe(3);
    expect(s.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('applies defaults to a minimal skill: model open (config decides), 15 turns, no args', () => {
    const r = parse('name: demo\ndescription: d\nsystem_prompt: p\ntools: []\n');
    expect(r.errors).toEqual([]);
    expect(r.skill!.model).toBeUndefined();
    expect(r.skill!.maxTurns).toBe(15);
    expect(r.skill!.args).toEqual([]);
    expect(r.skill!.tools).toEqual([]);
  });

  it('names the line and field of a missing required field', () => {
    const r = parse('name: demo\ndescription: d\ntools: [file_read]\n');
    expect(r.skill).toBeUndefined();
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({
      file: '/skills/demo.yaml',
      field: 'system_prompt',
      message: { key: 'skills.err.required' },
    });
    expect(describeIssue(r.errors[0]!)).toBe(
      '/skills/demo.yaml, system_prompt: this required field is missing',
    );
  });

  it('names the line of a bad nested field', () => {
    const text = VALID.replace('      type: string', '      type: text');
    const r = parse(text);
    expect(r.errors[0]).toMatchObject({
      line: 11,
      field: 'input.args[1].type',
      message: { key: 'skills.err.argType' },
    });
    expect(describeIssue(r.errors[0]!)).toContain(
      'line 11, input.args[1].type: the type must be one of: file, directory, string, number, boolean',
    );
  });

  it('reports malformed YAML with its line', () => {
    const r = parse('name: demo\ndescription: "unclosed\nsystem_prompt: p\n');
    expect(r.skill).toBeUndefined();
    expect(r.errors[0]!.message.key).toBe('skills.err.yaml');
    expect(r.errors[0]!.line).toBeGreaterThanOrEqual(2);
  });

  it('rejects empty, non-mapping and binary files', () => {
    expect(parse('').errors[0]!.message.key).toBe('skills.err.emptyFile');
    expect(parse('   \n# only a comment\n').errors[0]!.message.key).toBe('skills.err.emptyFile');
    expect(parse('- a\n- b\n').errors[0]!.message.key).toBe('skills.err.notMapping');
  });

  it('warns about unknown fields (with their line) and still loads', () => {
    const r = parse(`${VALID}colour: blue\ninput_extra: 1\n`);
    expect(r.skill).toBeDefined();
    expect(r.warnings.map((w) => [w.field, w.line])).toEqual([
      ['colour', 22],
      ['input_extra', 23],
    ]);
  });

  it('rejects names that could escape the skills folder or are not plain', () => {
    for (const bad of ['../evil', 'a/b', 'a\\b', 'has space', '.hidden', '-dash', 'x'.repeat(65), '翻译']) {
      const r = parse(`name: ${JSON.stringify(bad)}\ndescription: d\nsystem_prompt: p\ntools: []\n`);
      expect(r.skill, bad).toBeUndefined();
      expect(r.errors[0]!.field, bad).toBe('name');
    }
  });

  it('accepts CJK text in descriptions and prompts', () => {
    const r = parse(
      'name: fanyi\ndescription: 把文档翻译成英文\nsystem_prompt: 你是翻译助手。\ntools: []\n',
      {
        ...opts,
        file: '/skills/fanyi.yaml',
      },
    );
    expect(r.errors).toEqual([]);
    expect(r.skill!.description).toBe('把文档翻译成英文');
  });

  it('checks max_turns, defaults and input types', () => {
    expect(parse(VALID.replace('max_turns: 7', 'max_turns: 51')).errors[0]).toMatchObject({
      field: 'max_turns',
      line: 21,
    });
    expect(parse(VALID.replace('max_turns: 7', 'max_turns: 0')).errors[0]!.field).toBe('max_turns');
    expect(parse(VALID.replace('default: English', 'default: 3')).errors[0]!.field).toBe(
      'input.args[1].default',
    );
    expect(parse(VALID.replace('directory: out/reports', 'directory: ../outside')).errors[0]!.field).toBe(
      'output.directory',
    );
  });

  it('warns when the name does not match the file name', () => {
    const r = parse(VALID, { ...opts, file: '/skills/other.yaml' });
    expect(r.skill!.name).toBe('demo');
    expect(r.warnings[0]!.message.key).toBe('skills.warn.nameMismatch');
  });

  it('translates problems', () => {
    setLanguage('zh');
    const r = parse('name: demo\ndescription: d\ntools: [file_read]\n');
    expect(describeIssue(r.errors[0]!)).toBe('/skills/demo.yaml, system_prompt：缺少这个必填字段');
  });
});

describe('skill loader: Agent Skills SKILL.md', () => {
  const md = (fm: string, body = 'Do the thing.\n\nStep by step.') => `---\n${fm}\n---\n\n${body}\n`;
  const o = {
    file: '/skills/pdf-notes/SKILL.md',
    source: 'user' as const,
    format: 'skill-md' as const,
    folder: '/skills/pdf-notes',
  };

  it('takes the body as the prompt and maps allowed-tools', () => {
    const r = parseSkillText(
      md(
        'name: pdf-notes\ndescription: Notes from PDFs\nallowed-tools: Read Write Bash(git:*) WebSearch Grep',
      ),
      o,
    );
    expect(r.errors).toEqual([]);
    expect(r.skill!.systemPrompt).toBe('Do the thing.\n\nStep by step.');
    // WebSearch is zhi's web_search; Grep has no zhi tool and is named in a warning.
    expect(r.skill!.tools).toEqual(['file_read', 'file_write', 'shell', 'web_search']);
    expect(r.warnings.map((w) => w.message.params?.tool)).toEqual(['Grep']);
    expect(r.skill!.format).toBe('skill-md');
  });

  it('accepts zhi keys (tools, model, input) and defaults the name to the folder', () => {
    const r = parseSkillText(
      md('description: d\nmodel: glm-4-air\ntools: [file_read, ocr]\nlicense: MIT'),
      o,
    );
    expect(r.errors).toEqual([]);
    expect(r.skill!.name).toBe('pdf-notes');
    expect(r.skill!.tools).toEqual(['file_read', 'ocr']);
    expect(r.warnings).toEqual([]);
  });

  it('counts lines from the top of the file (front matter starts at line 2)', () => {
    const r = parseSkillText(md('name: pdf-notes\ndescription: d\nmax_turns: 99'), o);
    expect(r.errors[0]).toMatchObject({ field: 'max_turns', line: 4 });
  });

  it('requires front matter and a body', () => {
    expect(parseSkillText('# Just markdown\n', o).errors[0]!.message.key).toBe('skills.err.noFrontMatter');
    expect(parseSkillText(md('name: pdf-notes\ndescription: d', ''), o).errors[0]!.message.key).toBe(
      'skills.err.emptyBody',
    );
  });

  it('lists reference files beside SKILL.md, not their contents', async () => {
    const dir = tempDir();
    try {
      const folder = join(dir, 'pdf-notes');
      mkdirSync(join(folder, 'reference'), { recursive: true });
      writeFileSync(join(folder, 'SKILL.md'), md('name: pdf-notes\ndescription: d'));
      writeFileSync(join(folder, 'reference', 'style.md'), '# Style');
      writeFileSync(join(folder, 'template.txt'), 'T');
      const r = await loadSkillFile(join(folder, 'SKILL.md'), 'user');
      expect(r.skill!.resources).toEqual(['reference/style.md', 'template.txt']);
      expect(r.skill!.systemPrompt).not.toContain('# Style');
    } finally {
      cleanup(dir);
    }
  });

  it('maps allowed-tools given as a list', () => {
    expect(mapAllowedTools(['Read', 'file_list', 'Grep'])).toEqual({
      tools: ['file_read', 'file_list'],
      ignored: ['Grep'],
    });
  });
});

describe('skill files on disk', () => {
  it('reads GBK files and rejects binary ones', async () => {
    const dir = tempDir();
    try {
      // "翻译" in GBK: B7AD D2EB.
      const gbk = Buffer.concat([
        Buffer.from('name: gbk\ndescription: '),
        Buffer.from([0xb7, 0xad, 0xd2, 0xeb]),
        Buffer.from('\nsystem_prompt: p\ntools: []\n'),
      ]);
      writeFileSync(join(dir, 'gbk.yaml'), gbk);
      expect((await loadSkillFile(join(dir, 'gbk.yaml'), 'user')).skill?.description).toBe('翻译');
      writeFileSync(join(dir, 'bin.yaml'), Buffer.from([0x6e, 0x00, 0x01, 0x02]));
      expect((await loadSkillFile(join(dir, 'bin.yaml'), 'user')).errors[0]!.message.key).toBe(
        'skills.err.binary',
      );
    } finally {
      cleanup(dir);
    }
  });

  it('only allows relative output folders without ..', () => {
    expect(isSafeRelativeDir('out')).toBe(true);
    expect(isSafeRelativeDir('a/b')).toBe(true);
    expect(isSafeRelativeDir('/tmp/x')).toBe(false);
    expect(isSafeRelativeDir('a/../../b')).toBe(false);
    expect(isSafeRelativeDir('~/x')).toBe(false);
    expect(isSafeRelativeDir('C:\\x')).toBe(false);
  });
});

describe('YAML errors point at the line a person must fix', () => {
  it('an unclosed quote is reported where it opens, not at the end of the file', () => {
    const r = parseSkillText(
      'name: demo\ndescription: d\nsystem_prompt: "unclosed\ntools: []\nmax_turns: 3\n',
      opts,
    );
    expect(r.errors[0]).toMatchObject({ line: 3, message: { key: 'skills.err.yaml' } });
  });
});
