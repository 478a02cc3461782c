import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installSecrets, SecretRegistry } from '../../src/support/redact.js';
import { resolveReadPath } from '../../src/tools/paths.js';
import { secretByPath } from '../../src/tools/secrets.js';
import { ToolError } from '../../src/tools/types.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let home: string;
let saved: { HOME?: string; ZHI_HOME?: string };

beforeEach(() => {
  home = realpathSync(tempDir('zhi-home-'));
  saved = { HOME: process.env.HOME, ZHI_HOME: process.env.ZHI_HOME };
  process.env.HOME = home;
  process.env.ZHI_HOME = join(home, '.config', 'zhi');
  mkdirSync(join(home, '.config', 'zhi', 'skills'), { recursive: true });
  writeFileSync(
    join(home, '.config', 'zhi', 'config.yaml'),
    'api_key: 0123456789abcdef0123456789abcdef.secretsecret\n',
  );
  writeFileSync(join(home, '.config', 'zhi', 'skills', 'mine.yaml'), 'name: mine\n');
  mkdirSync(join(home, '.ssh'));
  writeFileSync(join(home, '.ssh', 'id_ed25519'), 'key');
  writeFileSync(join(home, '.ssh', 'known_hosts'), 'hosts');
  writeFileSync(join(home, 'notes.md'), '# notes');
});
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  installSecrets(new SecretRegistry());
  cleanup(home);
});

async function refusal(cwd: string, input: string, opts = {}): Promise<ToolError> {
  const err = await resolveReadPath(cwd, input, opts).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolError);
  return err as ToolError;
}

describe('the secrets deny-list in the one containment function', () => {
  it("refuses zhi's own config from the home folder, saying why and that the person can attach it", async () => {
    const err = await refusal(home, '.config/zhi/config.yaml');
    expect(err.message).toMatch(/zhi's own files.*attach the file themselves/);
    expect(err.notice?.key).toBe('safety.secret.zhi');
  });

  it("lets the skills folder inside zhi's config folder be read (skills are not secrets); from the home folder it is a dot-folder like any other", async () => {
    const r = await resolveReadPath(join(home, '.config', 'zhi'), 'skills/mine.yaml');
    expect(r.display).toBe('skills/mine.yaml');
    expect((await refusal(home, '.config/zhi/skills/mine.yaml')).notice?.key).toBe('safety.scope.home_dot');
  });

  it('refuses everything in ~/.ssh, not only keys', async () => {
    expect((await refusal(home, '.ssh/id_ed25519')).notice?.key).toBe('safety.secret.credentials');
    expect((await refusal(home, '.ssh/known_hosts')).notice?.key).toBe('safety.secret.credentials');
    expect((await refusal(home, '.ssh')).notice?.key).toBe('safety.secret.credentials');
    // From inside the folder too: the place is what counts, not how it is named.
    expect((await refusal(join(home, '.ssh'), 'known_hosts')).notice?.key).toBe('safety.secret.credentials');
  });

  it('names a secret outside the folder (~/, absolute, ../) as a secret, not as "~ not expanded"', async () => {
    const work = join(home, 'work');
    mkdirSync(work);
    for (const input of [
      '~/.ssh/id_rsa',
      join(home, '.ssh', 'id_ed25519'),
      '../.ssh/known_hosts',
      '~/.aws',
    ]) {
      const err = await refusal(work, input);
      expect(err.notice?.key).toBe('safety.secret.credentials');
      expect(err.notice?.params).toEqual({ path: input });
      expect(err.message).toMatch(
        /credentials folder.*secrets never leave this computer\. Do not try another way/,
      );
    }
    expect((await refusal(work, '~/.config/zhi/config.yaml')).notice?.key).toBe('safety.secret.zhi');
    // An ordinary file outside keeps its own reasons.
    expect((await refusal(work, '~/notes.md')).message).toMatch(/starts with "~", which is not expanded/);
    expect((await refusal(work, '../notes.md')).notice?.key).toBe('safety.outside');
  });

  it('refuses a link with an innocent name that leads to a secret', async () => {
    const work = join(home, 'work');
    mkdirSync(work);
    writeFileSync(join(work, '.env'), 'PASSWORD=x');
    symlinkSync(join(work, '.env'), join(work, 'notes.txt'));
    expect((await refusal(work, 'notes.txt')).notice?.key).toBe('safety.secret.env');
    expect((await refusal(work, '.env')).notice?.key).toBe('safety.secret.env');
  });

  it('refuses private keys by content, whatever the name', async () => {
    const work = join(home, 'work');
    mkdirSync(work);
    writeFileSync(
      join(work, 'backup.txt'),
      'note\n-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\n',
    );
    writeFileSync(join(work, 'putty.txt'), 'PuTTY-User-Key-File-3: ssh-ed25519\n');
    writeFileSync(join(work, 'cert.pem'), '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    expect((await refusal(work, 'backup.txt')).notice?.key).toBe('safety.secret.private_key');
    expect((await refusal(work, 'putty.txt')).notice?.key).toBe('safety.secret.private_key');
    // A public certificate is a document like any other.
    expect((await resolveReadPath(work, 'cert.pem')).display).toBe('cert.pem');
  });

  it('refuses a file that contains the configured API key', async () => {
    installSecrets(new SecretRegistry()).add('0123456789abcdef0123456789abcdef.secretsecret');
    const work = join(home, 'work');
    mkdirSync(work);
    writeFileSync(join(work, 'copy.txt'), 'key=0123456789abcdef0123456789abcdef.secretsecret');
    expect((await refusal(work, 'copy.txt')).notice?.key).toBe('safety.secret.api_key');
  });

  it('reads ordinary files in the home folder', async () => {
    expect((await resolveReadPath(home, 'notes.md')).display).toBe('notes.md');
  });
});

describe('containment', () => {
  it('refuses ../, absolute and ~ paths, with a notice for the person on escapes', async () => {
    const work = join(home, 'work');
    mkdirSync(work);
    const up = await refusal(work, '../notes.md');
    expect(up.notice?.key).toBe('safety.outside');
    expect((await refusal(work, join(home, 'notes.md'))).message).toMatch(/Absolute paths/);
    expect((await refusal(work, '~/notes.md')).message).toMatch(/"~"/);
  });

  it('reads from an extra read-only root by relative path, with the same rules inside it', async () => {
    const work = join(home, 'work');
    const skill = join(home, 'skill');
    mkdirSync(work);
    mkdirSync(join(skill, 'reference'), { recursive: true });
    writeFileSync(join(skill, 'reference', 'guide.md'), '# guide');
    writeFileSync(join(skill, '.env'), 'TOKEN=x');
    symlinkSync(join(home, 'notes.md'), join(skill, 'escape.md'));
    const r = await resolveReadPath(work, 'reference/guide.md', { extraRoots: [skill] });
    expect(r.abs).toBe(join(skill, 'reference', 'guide.md'));
    expect(r.display).toBe('reference/guide.md');
    expect((await refusal(work, '.env', { extraRoots: [skill] })).notice?.key).toBe('safety.secret.env');
    expect((await refusal(work, 'escape.md', { extraRoots: [skill] })).notice?.key).toBe('safety.outside');
    expect((await refusal(work, '../notes.md', { extraRoots: [skill] })).notice?.key).toBe('safety.outside');
    // Without the extra root the file is simply not there.
    expect((await refusal(work, 'reference/guide.md')).message).toMatch(/File not found/);
  });
});

describe('secretByPath', () => {
  it('knows the credential and browser folders of all three systems, case-insensitively', () => {
    const h = '/home/u';
    const opts = { home: h, env: { ZHI_HOME: '/home/u/.zhi' } };
    expect(secretByPath('/home/u/.aws/credentials', opts)).toBe('credentials');
    expect(secretByPath('/home/u/.docker/config.json', opts)).toBe('credentials');
    expect(secretByPath('/home/u/.docker/other.json', opts)).toBeUndefined();
    expect(secretByPath('/home/u/Library/Keychains/login.keychain-db', opts)).toBe('browser');
    expect(secretByPath('/home/u/AppData/Local/Google/Chrome/User Data/Default/Login Data', opts)).toBe(
      'browser',
    );
    expect(secretByPath('/home/u/appdata/roaming/mozilla/firefox/x', opts)).toBe('browser');
    expect(secretByPath('/home/u/.zhi/history', opts)).toBe('zhi');
    expect(secretByPath('/home/u/.zhi/skills/a.yaml', opts)).toBeUndefined();
    expect(secretByPath('/data/backup/.ssh/id_rsa', opts)).toBe('credentials');
    expect(secretByPath('/data/proj/.env.production', opts)).toBe('env');
    expect(secretByPath('/data/proj/id_rsa', opts)).toBe('private_key');
    expect(secretByPath('/data/proj/report.md', opts)).toBeUndefined();
  });
});
