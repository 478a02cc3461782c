/**
 * Secrets by content, over the whole file and over every reader's text: a private key anywhere
 * (after the first 64 KB, in UTF-16, inside a .docx or a PDF's text), and zhi's own key as it is,
 * split over lines or between quotes, base64- or hex-encoded, or reversed. The file is read in
 * chunks with an overlap, up to SCAN_BYTES; a reader's text is checked whole before it goes to
 * the model, so a page past that bound is still checked when it is read.
 */
import { open } from 'node:fs/promises';
import { processSecrets } from '../support/redact.js';

/** What was found: the secrets list's kinds (secrets.ts). */
export type ContentSecret = 'private_key' | 'api_key';

export const KEY_CONTENT =
  /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d|-----BEGIN PGP PRIVATE KEY BLOCK-----|"private_key"\s*:\s*"-----BEGIN/;

/** How much of a file the path check reads (a reader's text is checked whatever the size). */
export const SCAN_BYTES = 32 * 1024 * 1024;
const CHUNK = 1024 * 1024;
/** Kept from one chunk to the next, so a key across the boundary is seen whole. */
const OVERLAP = 16 * 1024;

/** The encoded forms of one key that a file could hold instead of the key itself. */
function forms(key: string): string[] {
  const bytes = Buffer.from(key, 'utf8');
  const out = [key, [...key].reverse().join(''), bytes.toString('hex')];
  // Base64 at each of the three alignments: the characters that depend only on the key.
  for (let shift = 0; shift < 3; shift++) {
    const b64 = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const core = b64.slice(shift === 0 ? 0 : 4, b64.length - 4);
    if (core.length >= 12) out.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

/** Why this text must not reach the model, if it holds a private key or zhi's key in any form. */
export function secretInText(text: string): ContentSecret | undefined {
  if (KEY_CONTENT.test(text)) return 'private_key';
  const keys = processSecrets().list();
  if (!keys.length) return undefined;
  // Line breaks, spaces, quotes and `+` of a key cut into pieces are taken out.
  const squeezed = text.replace(/[\s"'`+,\\]+/g, '');
  const lowered = squeezed.toLowerCase();
  for (const key of keys) {
    for (const f of forms(key)) {
      if (text.includes(f) || squeezed.includes(f) || lowered.includes(f.toLowerCase())) return 'api_key';
    }
  }
  return undefined;
}

/** The texts a chunk of bytes may hold: as UTF-8, and as UTF-16 (either order) when it has NULs. */
function views(bytes: Buffer): string[] {
  const out = [bytes.toString('latin1'), bytes.toString('utf8')];
  if (bytes.includes(0)) {
    out.push(bytes.toString('utf16le'));
    const swapped = Buffer.from(bytes.subarray(0, bytes.length - (bytes.length % 2)));
    out.push(swapped.swap16().toString('utf16le'));
    // Odd alignment: a UTF-16 run starting at an odd offset.
    if (bytes.length > 1) out.push(bytes.subarray(1).toString('utf16le'));
  }
  return out;
}

/** Files already scanned, by path, size, time and the keys looked for (a long file is read page by page). */
const scanned = new Map<string, ContentSecret | undefined>();

/** A file holding a secret in its first SCAN_BYTES, read in overlapping chunks. */
export async function secretInFile(abs: string): Promise<ContentSecret | undefined> {
  let fh: Awaited<ReturnType<typeof open>>;
  try {
    fh = await open(abs, 'r');
  } catch {
    return undefined;
  }
  try {
    const st = await fh.stat();
    const id = `${abs}\0${st.size}\0${st.mtimeMs}\0${processSecrets().list().join('\0')}`;
    if (scanned.has(id)) return scanned.get(id);
    const found = await scan(fh);
    if (scanned.size >= 64) scanned.clear();
    scanned.set(id, found);
    return found;
  } catch {
    return undefined;
  } finally {
    await fh.close();
  }
}

async function scan(fh: Awaited<ReturnType<typeof open>>): Promise<ContentSecret | undefined> {
  const buf = Buffer.alloc(CHUNK + OVERLAP);
  let carried = 0;
  for (let at = 0; at < SCAN_BYTES; at += CHUNK) {
    const { bytesRead } = await fh.read(buf, carried, CHUNK, at);
    if (bytesRead === 0) return undefined;
    const chunk = buf.subarray(0, carried + bytesRead);
    for (const text of views(chunk)) {
      const found = secretInText(text);
      if (found) return found;
    }
    carried = Math.min(OVERLAP, chunk.length);
    chunk.copy(buf, 0, chunk.length - carried);
  }
  return undefined;
}
