/**
 * One page of a text file, read by byte range: only the samples used to detect the encoding and
 * the bytes of the page itself are read, so page N of a 60 MB file costs what page 1 costs.
 * Offsets are byte offsets in the file: the same on every call, and always on a character
 * boundary when they come from `nextOffset` (a page never ends inside a character; in legacy
 * Chinese/Japanese/Korean encodings it ends after a line break where the page has one).
 */
import { type FileHandle, open } from 'node:fs/promises';
import {
  bomEncoding,
  type DetectedEncoding,
  decodeBytes,
  detectEncoding,
  encodedLength,
  guessWide,
} from './charset.js';
import { type BinaryKind, looksBinary, sniffBinary, weakSignature } from './text.js';

/** Bytes sampled for detection: the head, and for a big file also its middle and end. */
const HEAD = 32 * 1024;
const SAMPLE = 8 * 1024;

export interface TextWindow {
  text: string;
  encoding: DetectedEncoding;
  /** Where the page starts in the file (the requested offset moved to a character boundary). */
  start: number;
  /** Where the page ends; `end === fileBytes` when it reaches the end of the file. */
  end: number;
}

async function readAt(fh: FileHandle, pos: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(Math.max(0, length));
  let got = 0;
  while (got < buf.length) {
    const { bytesRead } = await fh.read(buf, got, buf.length - got, pos + got);
    if (!bytesRead) break;
    got += bytesRead;
  }
  return buf.subarray(0, got);
}

/** Detection samples, fixed for a given file so every page agrees on the encoding. */
async function samples(fh: FileHandle, size: number): Promise<Buffer[]> {
  const head = await readAt(fh, 0, Math.min(size, HEAD));
  if (size <= HEAD + 2 * SAMPLE) return [head.length < size ? head : await readAt(fh, 0, size)];
  return [head, await readAt(fh, Math.floor(size / 2), SAMPLE), await readAt(fh, size - SAMPLE, SAMPLE)];
}

/** Move an offset forward to the start of a character. */
function alignStart(buf: Buffer, offset: number, enc: DetectedEncoding): number {
  if (offset <= enc.bom) return enc.bom;
  if (enc.unit === 'utf-8') {
    let i = 0;
    while (i < 4 && i < buf.length && (buf[i]! & 0xc0) === 0x80) i++;
    return offset + i;
  }
  if (enc.unit === 2 || enc.unit === 4) {
    const rel = (offset - enc.bom) % enc.unit;
    let start = rel ? offset + enc.unit - rel : offset;
    // Not inside a surrogate pair: a low surrogate (DC00–DFFF) starts no character.
    const at = start - offset;
    if (enc.unit === 2 && at + 1 < buf.length) {
      const hi = enc.name === 'utf-16le' ? buf[at + 1]! : buf[at]!;
      if (hi >= 0xdc && hi <= 0xdf) start += 2;
    }
    return start;
  }
  return offset;
}

/** Length of `buf` cut back to a character boundary (it is followed by more of the file). */
function alignEnd(buf: Buffer, enc: DetectedEncoding): number {
  let end = buf.length;
  if (enc.unit === 'utf-8') {
    if (!end) return 0;
    let p = end - 1;
    while (p > 0 && p > end - 4 && (buf[p]! & 0xc0) === 0x80) p--;
    const lead = buf[p]!;
    const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    return p + length <= end ? end : p;
  }
  if (enc.unit === 2 || enc.unit === 4) {
    end -= end % enc.unit;
    if (enc.unit === 2 && end >= 2) {
      const hi = enc.name === 'utf-16le' ? buf[end - 1]! : buf[end - 2]!;
      if (hi >= 0xd8 && hi <= 0xdb) end -= 2; // a high surrogate waits for its pair
    }
    return end;
  }
  if (enc.unit === 'multi') {
    const nl = buf.lastIndexOf(0x0a);
    if (nl >= buf.length / 2) return nl + 1;
    // One long line: decode, drop the last (possibly cut) character, measure what is left.
    const text = decodeBytes(buf, enc.name);
    const keep = text.slice(0, Math.max(0, text.length - 2));
    return encodedLength(keep, enc.name) ?? end;
  }
  return end;
}

/**
 * Read the page of a text file that starts at byte `offset` and holds at most `maxBytes` of
 * UTF-8 text. Returns the binary kind instead when the file is not text.
 */
export async function readTextWindow(
  path: string,
  size: number,
  offset: number,
  maxBytes: number,
): Promise<TextWindow | { binary: BinaryKind }> {
  const fh = await open(path, 'r');
  try {
    const probe = await samples(fh, size);
    const head = probe[0]!;
    const known = sniffBinary(head);
    if (known) return { binary: known };
    if (!bomEncoding(head) && head.subarray(0, 8192).includes(0) && !guessWide(head.subarray(0, 8192)))
      return { binary: weakSignature(head) ?? 'binary' };
    const enc = detectEncoding(probe);
    const first = decodeBytes(head.subarray(enc.bom, alignEnd(head.subarray(0, 8192), enc)), enc.name);
    if (looksBinary(first)) return { binary: weakSignature(head) ?? 'binary' };

    const from = Math.min(Math.max(0, Math.floor(offset)), size);
    // A character takes 1–4 bytes in the file and up to 3 in UTF-8: start with as many bytes as
    // fit, then shrink until the text fits the page.
    let want = maxBytes;
    for (;;) {
      const raw = await readAt(fh, from, Math.min(want + 4, size - from));
      const start = Math.min(alignStart(raw, from, enc), size);
      const body = raw.subarray(start - from);
      const reachesEnd = start + Math.min(body.length, want) >= size;
      const cut = reachesEnd ? body : body.subarray(0, alignEnd(body.subarray(0, want), enc));
      const text = decodeBytes(cut, enc.name);
      const bytes = Buffer.byteLength(text, 'utf8');
      if (bytes <= maxBytes || cut.length < 16)
        return { text, encoding: enc, start, end: start + cut.length };
      want = Math.max(16, Math.floor((cut.length * maxBytes) / bytes) - 4);
    }
  } finally {
    await fh.close();
  }
}
