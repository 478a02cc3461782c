import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scanFolder, secretPlaces } from '../../src/tools/secret-places.js';
import { HOME_SECRETS, secretByName, secretByPath } from '../../src/tools/secrets.js';
import { commandEnv } from '../../src/tools/shell/env.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

const home = '/home/ann';

describe('the one secrets list: every entry is refused by file_read and hidden by the sandbox', () => {
  for (const rule of HOME_SECRETS) {
    it(`~/${rule.path} (${rule.kind})`, () => {
      expect(secretByPath(join(home, rule.path), { home })).toBe(rule.kind);
      expect(secretByPath(join(home, rule.path, 'inner'), { home })).toBe(rule.kind);
      // Case does not matter (macOS and Windows file systems).
      expect(secretByPath(join(home, rule.path.toUpperCase()), { home })).toBe(rule.kind);
    });
  }

  it('covers the credential files the issue names, on Linux, macOS and Windows', () => {
    const must = [
      '.config/gh',
      '.pgpass',
      '.vault-token',
      '.bash_history',
      '.zsh_history',
      '.cargo/credentials.toml',
      '.config/rclone',
      '.local/share/keyrings',
      '.git-credentials',
      '.config/gcloud',
      '.aws',
      '.azure',
      'Library/Keychains',
      'AppData/Roaming/Microsoft/Credentials',
      'AppData/Local/Google/Chrome/User Data',
      '.mozilla',
    ];
    const paths = HOME_SECRETS.map((r) => r.path);
    for (const p of must) expect(paths).toContain(p);
  });

  const named: [string, string][] = [
    ['.env', 'env'],
    ['.env.production', 'env'],
    ['.envrc', 'env'],
    ['prod.env', 'env'],
    ['.env.', 'env'],
    ['.env_local', 'env'],
    ['.env-prod', 'env'],
    ['env.production', 'env'],
    ['id_rsa', 'private_key'],
    ['id_ed25519', 'private_key'],
    ['cert.p12', 'private_key'],
    ['vault.kdbx', 'private_key'],
    ['.pgpass', 'credentials'],
    ['.git-credentials', 'credentials'],
    ['.vault-token', 'credentials'],
    ['.netrc', 'credentials'],
    ['.npmrc', 'credentials'],
    ['.bash_history', 'history'],
    ['.zsh_history', 'history'],
    ['.ssh', 'credentials'],
    ['.aws', 'credentials'],
  ];
  for (const [name, kind] of named) {
    it(`${name} is secret wherever it lies (${kind})`, () => {
      expect(secretByName(name)).toBe(kind);
      expect(secretByPath(`/srv/project/${name}`, { home })).toBe(kind);
    });
  }

  it('leaves ordinary files alone', () => {
    for (const name of [
      'report.md',
      'environment.md',
      'env.ts',
      'env.d.ts',
      'envelope.txt',
      'history.txt',
      'id.txt',
      'keys.md',
    ]) {
      expect(secretByName(name)).toBeUndefined();
    }
  });
});

describe('secretPlaces: the list as places on this computer', () => {
  let root: string;
  beforeEach(() => {
    root = realpathSync(tempDir('zhi-places-'));
  });
  afterEach(() => cleanup(root));

  it("finds the present entries of the list, zhi's own folders and secret names in the current folder", () => {
    const h = join(root, 'home');
    const files = ['.pgpass', '.config/gh/hosts.yml', '.bash_history', 'work/app/.env', 'work/keys/id_rsa'];
    for (const f of files) {
      mkdirSync(dirname(join(h, f)), { recursive: true });
      writeFileSync(join(h, f), 'x');
    }
    mkdirSync(join(root, 'zhi', 'skills'), { recursive: true });
    const places = secretPlaces({ home: h, env: { ZHI_HOME: join(root, 'zhi') }, cwd: join(h, 'work') });
    const paths = places.hidden.map((p) => p.path);
    expect(paths).toContain(join(h, '.pgpass'));
    expect(paths).toContain(join(h, '.config/gh'));
    expect(paths).toContain(join(h, '.bash_history'));
    expect(paths).toContain(join(h, 'work/app/.env'));
    expect(paths).toContain(join(h, 'work/keys/id_rsa'));
    expect(paths).toContain(join(root, 'zhi'));
    expect(places.hidden.find((p) => p.path === join(h, '.config/gh'))?.dir).toBe(true);
    expect(places.readable).toContain(join(root, 'zhi', 'skills'));
    expect(paths).not.toContain(join(h, 'work'));
  });

  it('looks at any depth, inside node_modules and dist too (a .env seven folders down is hidden)', () => {
    const work = join(root, 'work');
    const deep = ['a/b/c/d/e/f/g/.env', 'node_modules/pkg/.env.production', 'dist/config/.envrc'];
    for (const f of deep) {
      mkdirSync(dirname(join(work, f)), { recursive: true });
      writeFileSync(join(work, f), 'x');
    }
    const paths = secretPlaces({ home: join(root, 'home'), env: {}, cwd: work }).hidden.map((p) => p.path);
    for (const f of deep) expect(paths).toContain(join(work, f));
  });

  it('hides whole every folder it had no time to look through (past the bound)', () => {
    const work = join(root, 'work');
    for (const d of ['one', 'two', 'three']) {
      mkdirSync(join(work, d, 'inner'), { recursive: true });
      writeFileSync(join(work, d, 'inner', 'notes.txt'), 'x');
    }
    const { found, unchecked } = scanFolder(work, 4);
    expect(unchecked).toBeGreaterThan(0);
    const hidden = found.map((p) => p.path);
    // Breadth-first: the top folders were listed; what lies below the bound is hidden, not trusted.
    expect(hidden).not.toContain(work);
    expect(hidden.some((p) => p.endsWith('inner'))).toBe(true);
    expect(found.every((p) => p.dir)).toBe(true);
    expect(scanFolder(work).unchecked).toBe(0);
  });
});

describe('commandEnv: the environment of a command is an allow-list', () => {
  const env = {
    PATH: '/usr/bin',
    HOME: '/home/ann',
    LANG: 'zh_CN.UTF-8',
    LC_ALL: 'C',
    TERM: 'xterm',
    GITHUB_TOKEN: 'ghp_x',
    OPENAI_API_KEY: 'sk-x',
    AWS_SECRET_ACCESS_KEY: 'x',
    SSH_AUTH_SOCK: '/run/agent',
    ZHI_API_KEY: 'k',
    PGHOST: 'db',
  };

  it('passes what a shell needs and nothing secret-shaped', () => {
    const out = commandEnv(env, []);
    expect(Object.keys(out).sort()).toEqual(['HOME', 'LANG', 'LC_ALL', 'PATH', 'TERM']);
  });

  it('passes the names the person listed in shell_env, never zhi’s own key', () => {
    const out = commandEnv(env, ['PGHOST', 'GITHUB_TOKEN', 'ZHI_API_KEY']);
    expect(out.PGHOST).toBe('db');
    expect(out.GITHUB_TOKEN).toBe('ghp_x');
    expect(out.ZHI_API_KEY).toBeUndefined();
    expect(out.OPENAI_API_KEY).toBeUndefined();
  });
});
