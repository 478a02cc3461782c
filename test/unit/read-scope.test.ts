/**
 * Reads by scope, not by name: hidden parts, VCS internals and state files are out of scope at
 * any depth unless the person named the path; the home folder's dot-files when zhi runs there.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { resolveReadPath } from '../../src/tools/paths.js';
import { NamedPaths, namedFrom, scopeOfName, scopeReason } from '../../src/tools/scope.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

describe('scopeReason', () => {
  const root = '/work/project';
  const home = '/home/ann';
  const rows: [string, string, string, string | undefined][] = [
    ['a document', root, 'report.docx', undefined],
    ['a hidden file', root, '.env_local', 'hidden'],
    ['.env-prod', root, '.env-prod', 'hidden'],
    ['.env.', root, '.env.', 'hidden'],
    ['a hidden folder, deep', root, 'a/b/c/d/e/f/.cache/x.txt', 'hidden'],
    ['inside node_modules', root, 'node_modules/pkg/.env', 'hidden'],
    ['inside dist', root, 'dist/.env.production', 'hidden'],
    ['.git/config', root, '.git/config', 'vcs'],
    ['CVS internals', root, 'src/CVS/Root', 'vcs'],
    ['terraform state', root, 'infra/terraform.tfstate', 'state'],
    ['terraform backup', root, 'infra/prod.tfstate.backup', 'state'],
    ['rails master key', root, 'config/master.key', 'state'],
    ['credentials.json', root, 'credentials.json', 'state'],
    ['credentials.yml.enc', root, 'config/credentials.yml.enc', 'state'],
    ['env.production', root, 'env.production', 'state'],
    ['env.md is a document', root, 'docs/env.md', undefined],
    ['secrets.md is a document', root, 'secrets.md', undefined],
    ['folders above the root do not count', '/home/ann/.local/src/app', 'main.py', undefined],
    ['WSL: a Windows profile dot-folder', '/mnt/c/Users', 'ann/.aws/credentials', 'hidden'],
    ['started in home: a dot-file', home, '.bashrc', 'home_dot'],
    ['started above home: a dot-folder', '/home', 'ann/.config/aliyun/config.json', 'home_dot'],
    ['started in home: a document', home, 'Documents/a.docx', undefined],
  ];
  it.each(rows)('%s', (_name, r, rel, why) => {
    expect(scopeReason(r, join(r, rel), home)).toBe(why);
  });
  it('names', () => {
    expect(['.x', 'CVS', 'a.tfstate', 'notes.txt', '.'].map((n) => scopeOfName(n) ?? '-')).toEqual([
      'hidden',
      'vcs',
      'state',
      '-',
      '-',
    ]);
  });
});

describe('NamedPaths', () => {
  const rows: [string, string, boolean][] = [
    ['read .git/config please', '.git/config', true],
    ['read ./.git/config.', '.git/config', true],
    ['看看“.env.local”', '.env.local', true],
    ['看看 .github 里的工作流', '.github/workflows/ci.yml', true],
    ['read @config/master.key', 'config/master.key', true],
    ['read the config', '.git/config', false],
    ['read config', 'config/master.key', false],
    ['read .git', '.gitignore', false],
  ];
  it.each(rows)('%j names %s: %s', (text, path, named) => {
    const n = new NamedPaths();
    n.addText(text);
    expect(n.has(path)).toBe(named);
  });
  it('skill inputs name their paths whole', () => {
    expect(namedFrom(['.env.local', 3, undefined]).has('.env.local')).toBe(true);
  });
});

describe('resolveReadPath with the scope rule', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('zhi-scope-');
    return () => cleanup(dir);
  });
  const put = (rel: string, text = 'x') => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };

  it('refuses out-of-scope paths with a catalogue notice, and reads them once named', async () => {
    put('.git/config', '[remote] url = https://token@host/x');
    put('deep/a/b/c/d/e/.npmrc-copy');
    put('notes.md');
    const refused = await resolveReadPath(dir, '.git/config').catch((e) => e);
    expect(refused.notice).toMatchObject({ key: 'safety.scope.vcs', params: { path: '.git/config' } });
    expect(refused.message).toContain('unless the user names it');
    await expect(resolveReadPath(dir, 'deep/a/b/c/d/e/.npmrc-copy')).rejects.toThrow(/hidden file/);
    const named = new NamedPaths();
    named.addText('look at .git/config');
    await expect(resolveReadPath(dir, '.git/config', { named })).resolves.toMatchObject({
      display: '.git/config',
    });
    await expect(resolveReadPath(dir, 'notes.md')).resolves.toMatchObject({ display: 'notes.md' });
  });

  it('the secrets list stays as a second line: a named .env is still refused', async () => {
    put('.env', 'A=1');
    const named = new NamedPaths();
    named.addText('read .env');
    const err = await resolveReadPath(dir, '.env', { named }).catch((e) => e);
    expect(err.notice?.key).toBe('safety.secret.env');
  });

  it("started in the home folder: its dot-files stay closed even when named; a parent's .env is outside", async () => {
    put('home/.config/aliyun/config.json', '{"ak":"x"}');
    put('home/.bashrc', 'alias x=y');
    put('home/Documents/a.md', 'doc');
    put('.env', 'PASSWORD=x');
    mkdirSync(join(dir, 'project'));
    const old = process.env.HOME;
    process.env.HOME = join(dir, 'home');
    try {
      const named = new NamedPaths();
      named.addText('read .bashrc and .config/aliyun/config.json');
      for (const path of ['.bashrc', '.config/aliyun/config.json']) {
        const err = await resolveReadPath(join(dir, 'home'), path, { named }).catch((e) => e);
        expect(err.notice?.key, path).toBe('safety.scope.home_dot');
      }
      await expect(resolveReadPath(join(dir, 'home'), 'Documents/a.md')).resolves.toBeDefined();
    } finally {
      process.env.HOME = old;
    }
    const parent = await resolveReadPath(join(dir, 'project'), '../.env').catch((e) => e);
    expect(parent.notice?.key).toMatch(/^safety\.(secret\.env|outside)$/);
  });
});
