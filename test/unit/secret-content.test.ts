/**
 * Secrets by content over the whole file and every reader's text: a private key after 64 KB, in
 * UTF-16, inside a .docx or a PDF's text; zhi's key split over lines, base64, hex or reversed.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { installSecrets, SecretRegistry } from '../../src/support/redact.js';
import { readDocument } from '../../src/tools/files/readers/index.js';
import { resolveReadPath } from '../../src/tools/paths.js';
import { secretInFile, secretInText } from '../../src/tools/secret-content.js';
import { buildDocx, p } from '../helpers/docx-build.js';
import { makePositionedPdf } from '../helpers/pdf-build.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

const KEY = '0123456789abcdef0123456789abcdef.TestSecret1';
const PEM =
  '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n';
const b64 = (s: string, shift = 0) =>
  Buffer.concat([Buffer.alloc(shift, 65), Buffer.from(s)]).toString('base64');

beforeAll(() => {
  installSecrets(new SecretRegistry()).add(KEY);
});
afterAll(() => {
  installSecrets(new SecretRegistry());
});

describe('secretInText', () => {
  const rows: [string, string, string | undefined][] = [
    ['a PEM private key', `notes\n${PEM}`, 'private_key'],
    ['a service-account JSON', '{"private_key": "-----BEGIN PRIVATE KEY-----\\nMII"}', 'private_key'],
    ['the key as is', `token=${KEY}`, 'api_key'],
    ['split over two lines', `a = "${KEY.slice(0, 20)}"\n  + "${KEY.slice(20)}"`, 'api_key'],
    ['base64', `x: ${b64(KEY)}`, 'api_key'],
    ['base64 at another alignment', `x: ${b64(KEY, 1)}`, 'api_key'],
    ['base64 at the third alignment', `x: ${b64(KEY, 2)}`, 'api_key'],
    ['hex', `x=${Buffer.from(KEY).toString('hex').toUpperCase()}`, 'api_key'],
    ['reversed', [...KEY].reverse().join(''), 'api_key'],
    ['ordinary text', 'The quarterly report shows growth of 12%.', undefined],
    ['a public key', 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI user@host', undefined],
  ];
  it.each(rows)('%s', (_name, text, kind) => {
    expect(secretInText(text)).toBe(kind);
  });
});

describe('the whole file and every reader', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('zhi-content-');
    return () => cleanup(dir);
  });

  it('finds a private key after the first 64 KB, across a chunk boundary, and in UTF-16 (either order)', async () => {
    const cases: [string, Buffer][] = [
      ['late.txt', Buffer.from(`${'lorem ipsum '.repeat(20_000)}\n${PEM}`)],
      ['boundary.txt', Buffer.concat([Buffer.alloc(1024 * 1024 - 20, 97), Buffer.from(PEM)])],
      ['utf16le.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`hi\n${PEM}`, 'utf16le')])],
      [
        'utf16be.txt',
        Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(`hi\n${PEM}`, 'utf16le').swap16()]),
      ],
      ['key-b64.txt', Buffer.from(`config:\n  k: ${b64(KEY)}\n`)],
    ];
    for (const [name, bytes] of cases) {
      writeFileSync(join(dir, name), bytes);
      expect(await secretInFile(join(dir, name)), name).toBeDefined();
      await expect(resolveReadPath(dir, name), name).rejects.toThrow(/no tool may read it/);
    }
  });

  it('refuses a .docx or a PDF whose text holds a key, and reads an ordinary one', async () => {
    writeFileSync(
      join(dir, 'contract.docx'),
      await buildDocx({ body: p('Terms.') + p(PEM.split('\n')[0]!) + p('b3Bl') }),
    );
    writeFileSync(join(dir, 'plain.docx'), await buildDocx({ body: p('Terms and conditions.') }));
    writeFileSync(join(dir, 'key.pdf'), makePositionedPdf([{ x: 72, y: 700, text: `token ${KEY}` }]));
    await expect(readDocument(join(dir, 'contract.docx'))).rejects.toMatchObject({
      notice: { key: 'safety.secret.private_key' },
    });
    await expect(readDocument(join(dir, 'key.pdf'))).rejects.toMatchObject({
      notice: { key: 'safety.secret.api_key' },
    });
    expect((await readDocument(join(dir, 'plain.docx'))).text).toContain('Terms and conditions.');
    // What the person attaches themselves (@file) is theirs to send.
    expect((await readDocument(join(dir, 'key.pdf'), { allowSecrets: true })).text).toContain('token');
  });
});
