import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  containsKnownSecret,
  installSecrets,
  redact,
  redactDeep,
  SecretRegistry,
} from '../../src/support/redact.js';

// Each test installs its own registry, as main() does at start.
let secrets: SecretRegistry;
beforeEach(() => {
  secrets = installSecrets(new SecretRegistry());
});
afterEach(() => installSecrets(new SecretRegistry()));

const ZHIPU = '0123456789abcdef0123456789abcdef.AbCdEfGh12345678';

describe('redact', () => {
  it('hides the registered key wherever it appears, whatever its shape', () => {
    secrets.add('my-own-custom-key-42');
    expect(redact('argv ["-c","use my-own-custom-key-42 now"]')).toBe('argv ["-c","use [redacted] now"]');
    expect(containsKnownSecret('x my-own-custom-key-42 y')).toBe(true);
    expect(containsKnownSecret('nothing here')).toBe(false);
  });

  it('ignores registered values too short to be a key (they would mangle text)', () => {
    secrets.add('abc');
    expect(redact('abc abc')).toBe('abc abc');
  });

  it('hides key-shaped strings it was never told about', () => {
    expect(redact(`key ${ZHIPU} end`)).toBe('key [redacted] end');
    expect(redact('sk-abcdefghijklmnopqrstuv')).toBe('[redacted]');
    expect(redact('Authorization: Bearer abc.def.ghi-12345')).toBe('Authorization: Bearer [redacted]');
    expect(redact('token ghp_abcdefghijklmnopqrstuvwxyz0123')).toBe('token [redacted]');
  });

  it('hides credentials in URLs, userinfo and query', () => {
    expect(redact('warning: https://bob:hunter2@proxy.example:8080/v4 is slow')).toBe(
      'warning: https://[redacted]@proxy.example:8080/v4 is slow',
    );
    expect(redact('GET https://x.example/?q=1&api_key=abcd1234&x=2')).toBe(
      'GET https://x.example/?q=1&api_key=[redacted]&x=2',
    );
    expect(redact('{"password": "correct horse"}')).toBe('{"password": "[redacted]"}');
  });

  it('hides a private key block', () => {
    const pem =
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA\n-----END OPENSSH PRIVATE KEY-----';
    expect(redact(`x ${pem} y`)).toBe('x -----BEGIN OPENSSH PRIVATE KEY----- [redacted] y');
  });

  it('leaves ordinary text alone', () => {
    const text = '总结 report.md: revenue grew 12% (https://example.com/a?b=c). How do I reset my password?';
    expect(redact(text)).toBe(text);
  });

  it('redacts strings inside objects and errors', () => {
    secrets.add(ZHIPU);
    const out = redactDeep({ argv: ['--key', ZHIPU], n: 1, err: new Error(`bad key ${ZHIPU}`) });
    expect(JSON.stringify(out)).not.toContain(ZHIPU);
    expect(out.n).toBe(1);
    expect(out.err).toBeInstanceOf(Error);
  });
});

describe('REPL history', () => {
  it('never stores a line with the configured key, whatever its shape', async () => {
    const { looksSecret } = await import('../../src/cli/repl/secrets.js');
    expect(looksSecret('use plain-looking-key-9 here')).toBe(false);
    secrets.add('plain-looking-key-9');
    expect(looksSecret('use plain-looking-key-9 here')).toBe(true);
    expect(looksSecret('an ordinary question')).toBe(false);
  });
});

describe('addFromArgv: a key typed on the command line is redacted from the start', () => {
  it('zhi config set api_key K, --api-key K, NAME_TOKEN=V: any shape', () => {
    const r = redact;
    secrets.addFromArgv(['config', 'set', 'api_key', 'plainkeyofnoshape', '--debug']);
    secrets.addFromArgv(['--api-key=otherplainsecret']);
    secrets.addFromArgv(['mcp', 'add', 'gh', '--env', 'GITHUB_TOKEN=unshapedtoken1']);
    secrets.addFromArgv(['config', 'set', 'output_dir', 'my-reports-folder']);
    const line =
      'argv ["config","set","api_key","plainkeyofnoshape"] otherplainsecret unshapedtoken1 my-reports-folder';
    expect(r(line)).toBe(
      'argv ["config","set","api_key","[redacted]"] [redacted] [redacted] my-reports-folder',
    );
  });

  it('a registry that is not installed guards nothing: the process has exactly one', () => {
    const other = new SecretRegistry();
    other.add('unshapedsecret99');
    expect(redact('x unshapedsecret99')).toBe('x unshapedsecret99');
    installSecrets(other);
    expect(redact('x unshapedsecret99')).toBe('x [redacted]');
  });
});
