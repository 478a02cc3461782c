import { describe, expect, it } from 'vitest';
import { parseYamlSafe } from '../../src/support/yaml.js';
import { BILLION_LAUGHS } from '../helpers/attacks.js';

describe('parseYamlSafe', () => {
  it('parses ordinary YAML into data and keeps the document', () => {
    const r = parseYamlSafe('name: 摘要\nargs:\n  - a\n  - b\nref: &x 1\nagain: *x\n');
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value).toEqual({ name: '摘要', args: ['a', 'b'], ref: 1, again: 1 });
      expect(r.doc.contents).toBeTruthy();
    }
  });

  it('refuses a billion-laughs file as an alias problem instead of throwing', () => {
    const r = parseYamlSafe(BILLION_LAUGHS);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems[0]!.code).toBe('aliases');
  });

  it('refuses nesting deeper than the limit, block and flow', () => {
    const deepFlow = `${'['.repeat(100)}1${']'.repeat(100)}`;
    const r = parseYamlSafe(deepFlow);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems[0]!.code).toBe('depth');
    const block = Array.from({ length: 10 }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n') + ' 1';
    expect(parseYamlSafe(block, { limits: { maxDepth: 5 } }).ok).toBe(false);
    expect(parseYamlSafe(block, { limits: { maxDepth: 20 } }).ok).toBe(true);
  });

  it('survives a pathological depth that would exhaust a recursive parser', () => {
    const r = parseYamlSafe(`${'['.repeat(50_000)}${']'.repeat(50_000)}`);
    expect(r.ok).toBe(false);
  });

  it('refuses text over the size limit before parsing it', () => {
    const r = parseYamlSafe(`a: "${'x'.repeat(2000)}"`, { limits: { maxBytes: 1000 } });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems[0]!.code).toBe('too_big');
  });

  it('reports syntax errors with their offset and the library code', () => {
    const r = parseYamlSafe('a: "open\nb: 2\n');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.problems[0]!.code).toBe('syntax');
      expect(r.problems[0]!.yamlCode).toBeTruthy();
    }
  });
});

describe('skill files go through the safe parser', () => {
  it('a billion-laughs skill file is an error for that file, not an exception', async () => {
    const { parseSkillText } = await import('../../src/skills/loader.js');
    const out = parseSkillText(`name: lol\ndescription: x\n${BILLION_LAUGHS}\n`, {
      file: '/skills/lol.yaml',
      source: 'user',
      format: 'yaml',
    });
    expect(out.skill).toBeUndefined();
    expect(out.errors[0]!.file).toBe('/skills/lol.yaml');
    expect(JSON.stringify(out.errors[0]!.message)).toMatch(/alias/);
  });
});
