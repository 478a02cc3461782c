/**
 * Skills from elsewhere: a project skill that stands in for a built-in or personal one needs the
 * person's trust; a hand-written share manifest is read field by field (never a crash).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { discoverSkills } from '../../src/skills/discovery.js';
import { readManifest, ShareError } from '../../src/skills/share.js';
import { chatSkillsOf, shadowedBy, TrustStore, untrustedOf } from '../../src/skills/trust.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('zhi-skill-safety-');
  return () => cleanup(dir);
});

const put = (rel: string, text: string) => {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
};
const minimal = (name: string, extra = '') =>
  `name: ${name}\ndescription: ${name} skill\nsystem_prompt: p\ntools: []\n${extra}`;

describe('project skills that replace another', () => {
  it('records which built-in or personal skill a project skill stands in for, and asks trust for it', async () => {
    put('builtin/summarize.yaml', minimal('summarize'));
    put('builtin/translate.yaml', minimal('translate'));
    put('user/mine.yaml', minimal('mine'));
    put('project/.agents/skills/summarize/SKILL.md', '---\nname: summarize\ndescription: s\n---\nSend it.\n');
    put('project/.agents/skills/mine.yaml', minimal('mine'));
    put('project/.agents/skills/fresh.yaml', minimal('fresh'));
    const catalog = await discoverSkills({
      builtinDir: join(dir, 'builtin'),
      userDir: join(dir, 'user'),
      projectDirs: [join(dir, 'project/.agents/skills')],
    });
    const rows = ['summarize', 'mine', 'fresh', 'translate'].map((name) => {
      const s = catalog.skills.get(name)!;
      return [name, s.source, shadowedBy(s, catalog)?.source];
    });
    expect(rows).toEqual([
      ['summarize', 'project', 'builtin'],
      ['mine', 'project', 'user'],
      ['fresh', 'project', undefined],
      ['translate', 'builtin', undefined],
    ]);
    const store = await TrustStore.open(join(dir, 'trust.json'));
    // In chat (no place to ask), the untrusted stand-in gives way to the one it replaces.
    const sources = (m: Map<string, { source: string }>) => [...m].map(([n, s]) => `${n}:${s.source}`).sort();
    expect(sources(await chatSkillsOf(store, catalog))).toEqual([
      'fresh:project',
      'mine:user',
      'summarize:builtin',
      'translate:builtin',
    ]);
    const all = [...catalog.skills.values()];
    expect((await untrustedOf(store, all, catalog)).map((s) => s.name).sort()).toEqual(['mine', 'summarize']);
    await store.trust([catalog.skills.get('summarize')!]);
    expect((await untrustedOf(store, all, catalog)).map((s) => s.name)).toEqual(['mine']);
    expect((await chatSkillsOf(store, catalog)).get('summarize')?.source).toBe('project');
    // Changing the project file asks again.
    put(
      'project/.agents/skills/summarize/SKILL.md',
      '---\nname: summarize\ndescription: s\n---\nSend more.\n',
    );
    const again = await discoverSkills({
      builtinDir: join(dir, 'builtin'),
      userDir: join(dir, 'user'),
      projectDirs: [join(dir, 'project/.agents/skills')],
    });
    const names = (await untrustedOf(store, [...again.skills.values()], again)).map((s) => s.name);
    expect(names.sort()).toEqual(['mine', 'summarize']);
  });
});

describe('readManifest', () => {
  const base = { format: 'zhi-skill/1', name: 'mini', files: [{ path: 'mini.yaml', sha256: 'a' }] };
  const ok: [string, object, string[], object][] = [
    ['minimal YAML', base, ['mini.yaml'], { skill_format: 'yaml', tools: [], version: '-', hash: '' }],
    [
      'minimal SKILL.md, format from its files',
      { ...base, files: [{ path: 'mini/SKILL.md', sha256: 'a' }] },
      ['mini/SKILL.md'],
      { skill_format: 'skill-md', tools: [] },
    ],
    [
      'version from the hash',
      { ...base, hash: 'abcdef0123' },
      ['mini.yaml'],
      { version: 'sha-abcdef01', version_source: 'content' },
    ],
    [
      'own version',
      { ...base, version: '2.1', tools: ['file_read'] },
      [],
      { version: '2.1', version_source: 'skill', tools: ['file_read'] },
    ],
  ];
  ok.push([
    'an export of a skill without a version of its own',
    { ...base, version: 'sha-1234abcd', version_source: 'content', hash: 'x' },
    [],
    { version: 'sha-1234abcd', version_source: 'content' },
  ]);
  it.each(ok)('reads %s', (_name, json, paths, expected) => {
    expect(readManifest(json, paths)).toMatchObject(expected);
  });

  const bad: [string, unknown, RegExp][] = [
    ['not an object', null, /not a zhi skill manifest/],
    ['no name', { format: 'zhi-skill/1', files: [] }, /not a zhi skill manifest/],
    ['bad name', { ...base, name: '../x' }, /not a valid skill name/],
    ['no files', { format: 'zhi-skill/1', name: 'mini' }, /does not list its files/],
    ['a null file', { ...base, files: [null] }, /does not list its files/],
    ['a file with no hash', { ...base, files: [{ path: 'mini.yaml' }] }, /does not list its files/],
    ['tools not names', { ...base, tools: [1] }, /tools that are not names/],
  ];
  it.each(bad)('refuses %s with a reason', (_name, json, reason) => {
    expect(() => readManifest(json, [])).toThrow(ShareError);
    expect(() => readManifest(json, [])).toThrow(reason);
  });
});
