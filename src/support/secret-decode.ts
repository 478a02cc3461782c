/**
 * The spellings a secret can take on its way out, undone: what `carriesSecret` (redact.ts) checks
 * besides the text as written. A model told to smuggle a key out encodes it — base64 (standard or
 * URL-safe), hex, base32 (DNS names are case-blind), percent-encoding applied twice, reversed,
 * with invisible characters inside, split across query values, path segments or host labels. Each
 * form below is one such spelling undone; the checker looks for the key in every one of them.
 * This is the second line: what the model composes to send out is asked about first.
 */

import { pushAll } from './arrays.js';

/** Characters that show as nothing (or as a blank) and can be slipped inside a key. */
const INVISIBLE = /\p{Cf}|\u00AD|\u034F|\u115F|\u1160|\u3164|\uFFA0|[\uFE00-\uFE0F]|[\u{E0100}-\u{E01EF}]/gu;

/** Text longer than this is judged by its beginning only (arguments can be whole files). */
const MAX_TEXT = 256 * 1024;
/** Decoded forms kept per text: enough for every spelling of a short text, bounded for a long one. */
const MAX_FORMS = 400;

/** The text with invisible characters removed. */
export function withoutInvisible(text: string): string {
  return text.replace(INVISIBLE, '');
}

/** Percent-decoding until nothing changes (a key encoded twice, `%252D`), invalid escapes kept. */
export function percentDecoded(text: string): string {
  let out = text;
  for (let i = 0; i < 5; i++) {
    const next = out.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
    if (next === out) break;
    out = next;
  }
  return out;
}

/** The printable stretches of decoded bytes (a key decoded from the middle of garbage is still found). */
function printableRuns(bytes: Buffer): string[] {
  const text = bytes.toString('latin1');
  return text.match(/[\x20-\x7e]{8,}/g) ?? [];
}

function base64Forms(token: string): string[] {
  const out: string[] = [];
  const std = token.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  // A half of an encoded key starts anywhere: every alignment is tried.
  for (let offset = 0; offset < 4 && offset < std.length; offset++)
    pushAll(out, printableRuns(Buffer.from(std.slice(offset), 'base64')));
  return out;
}

function hexForms(token: string): string[] {
  const out: string[] = [];
  for (let offset = 0; offset < 2; offset++) {
    const part = token.slice(offset);
    pushAll(out, printableRuns(Buffer.from(part.slice(0, part.length - (part.length % 2)), 'hex')));
  }
  return out;
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

function base32Form(token: string): string[] {
  const clean = token.toLowerCase().replace(/=+$/, '');
  if (!/^[a-z2-7]+$/.test(clean)) return [];
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const ch of clean) {
    value = (value << 5) | BASE32.indexOf(ch);
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return printableRuns(Buffer.from(bytes));
}

/** Runs an encoding could be made of: base64 (either alphabet), and plain letters and digits. */
const TOKENS = [/[A-Za-z0-9+/_-]{11,}={0,2}/g, /[A-Za-z0-9]{11,}/g];

/** Every decoding of the encoded-looking runs in `text`, and of its letters and digits joined up. */
function decodings(text: string): string[] {
  const tokens = new Set<string>();
  for (const re of TOKENS) for (const m of text.match(re) ?? []) tokens.add(m);
  // A key split across host labels or path segments (`4f3a….9c21….evil.example`), joined back up.
  const joined = (text.match(/[A-Za-z0-9]+/g) ?? []).join('');
  if (joined.length >= 11) tokens.add(joined);
  const out: string[] = [];
  for (const token of tokens) {
    pushAll(out, base64Forms(token));
    if (/^[0-9a-f]+$/i.test(token)) pushAll(out, hexForms(token));
    pushAll(out, base32Form(token));
  }
  return out;
}

function reversed(s: string): string {
  return [...s].reverse().join('');
}

/**
 * The text and every spelling of it undone: without invisible characters, percent-decoded (as
 * often as it was encoded), base64/hex/base32 runs decoded (twice over, for an encoding of an
 * encoding), and each of those reversed. The first form is the text itself.
 */
export function decodedForms(text: string): string[] {
  const start = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  const forms = new Set<string>([start]);
  const add = (s: string) => {
    if (forms.size < MAX_FORMS) forms.add(s);
  };
  const plain = percentDecoded(withoutInvisible(start));
  for (const base of [plain, reversed(plain)]) {
    add(base);
    for (const once of decodings(base)) {
      add(once);
      for (const twice of decodings(percentDecoded(once))) add(twice);
    }
  }
  // base64 of the reversed key decodes to the key reversed.
  for (const form of [...forms]) add(reversed(form));
  return [...forms];
}

/** Where a request carries data: its host labels, path segments, query values (or all its words). */
interface Parts {
  labels: string[];
  segments: string[];
  values: string[];
}

function partsOf(text: string): Parts {
  const plain = percentDecoded(withoutInvisible(text));
  let url: URL | undefined;
  try {
    url = /^https?:\/\//i.test(plain.trim()) ? new URL(plain.trim()) : undefined;
  } catch {
    url = undefined;
  }
  if (!url) return { labels: [], segments: [], values: [plain.replace(/\s+/g, '')] };
  return {
    labels: url.hostname.split('.').slice(0, -2),
    segments: url.pathname.split('/').filter(Boolean),
    values: [...url.searchParams.values()],
  };
}

/**
 * The data of a session's requests joined end to end, one join per place a piece can ride in
 * (host labels, path segments, query values, and all of them): a key sent in ten pieces, one per
 * request, is whole again in one of these, whatever stays the same around the pieces.
 */
export function joinedData(texts: readonly string[]): string[] {
  const parts = texts.map(partsOf);
  const join = (pick: (p: Parts) => string[]) => parts.map((p) => pick(p).join('')).join('');
  return [
    join((p) => p.labels),
    join((p) => p.segments),
    join((p) => p.segments.slice(-1)),
    join((p) => p.values),
    join((p) => [...p.labels, ...p.segments, ...p.values]),
  ].filter((s, i, all) => s.length >= 8 && all.indexOf(s) === i);
}
