import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseFlatYaml } from '../../src/support/flat-yaml.js';

/** Each line becomes `key: <value>`: the fast reader must agree with the yaml library or step aside. */
const VALUES = [
  'glm-5',
  'bigmodel',
  'zai-coding',
  '0123456789abcdef0123456789abcdef.TestSecret1',
  'abc.def',
  'https://open.bigmodel.cn/api/paas/v4',
  'http://127.0.0.1:8080/api/paas/v4',
  '~/Documents/zhi-output',
  './out',
  '/abs/path',
  'on',
  'off',
  'yes',
  'no',
  'auto',
  '30',
  '0',
  '-1',
  '0.85',
  '1.5',
  '0755',
  '1e3',
  '0x1F',
  '0o17',
  '.5',
  '1.',
  '+1',
  '.inf',
  '-.inf',
  '.nan',
  'true',
  'True',
  'false',
  'null',
  '~',
  '',
  '"quoted value"',
  '"with \\"escape\\""',
  "'single'",
  "'it''s'",
  '"中文 路径"',
  '中文',
  'value # comment',
  'value#notcomment',
  'a: b',
  'abc:',
  '-',
  '- item',
  '[a, b]',
  '{a: 1}',
  '&anchor x',
  '*alias',
  '!tag x',
  '|',
  '>',
  '@reserved',
  '`reserved',
  '%percent',
  '2026-01-01',
  '12:30',
  '1_000',
];

describe('flat config reading without the yaml library', () => {
  it.each(VALUES)('reads `key: %s` as yaml does, or leaves it to yaml', (value) => {
    const text = `platform: bigmodel\nkey: ${value}\n`;
    const fast = parseFlatYaml(text);
    if (fast === undefined) return; // the real parser reads it
    let real: unknown;
    try {
      real = parse(text);
    } catch {
      throw new Error(`the fast reader accepted what yaml rejects: ${text}`);
    }
    expect(fast).toEqual(real);
  });

  it('reads what the wizard writes, comments and blank lines included', () => {
    const text =
      '# zhi\nplatform: bigmodel\r\n\ndefault_model: glm-5   # the best\nlanguage: auto\nmax_turns: 20\n';
    expect(parseFlatYaml(text)).toEqual(parse(text));
    expect(parseFlatYaml(text)).toEqual({
      platform: 'bigmodel',
      default_model: 'glm-5',
      language: 'auto',
      max_turns: 20,
    });
    expect(parseFlatYaml('a:\tb\n')).toEqual(parse('a:\tb\n'));
  });

  it('leaves nesting, lists, repeated keys, documents and indentation to yaml', () => {
    for (const text of [
      'mcp_servers:\n  files:\n    command: npx\n',
      'list:\n- a\n',
      'a: 1\na: 2\n',
      '---\na: 1\n',
      '  a: 1\n',
      '__proto__: x\n',
      `a: ${'x'.repeat(9000)}\n`,
    ]) {
      expect(parseFlatYaml(text), text).toBeUndefined();
    }
  });

  it('reads an empty file as an empty mapping', () => {
    expect(parseFlatYaml('')).toEqual({});
    expect(parseFlatYaml('# nothing\n\n')).toEqual({});
  });
});
