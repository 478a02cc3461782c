/**
 * A long document's parts, without holding the document: a UTF-8 text file is split a window
 * at a time and only where each part sits in the file is kept (its bytes, and a hash of its
 * text); a part is read from the file again when its call is made. Other documents (Word, PDF,
 * other encodings) are read whole once and kept as their parts. Either way the parts' hash is
 * taken while splitting: the part store's key, so kept results belong to exactly these parts.
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { ReadDocumentFn } from '../../skills/documents.js';
import { type Chunking, partText, splitDocument, splitRanges } from '../../skills/split.js';
import { ZhiError } from '../../support/errors.js';
import { readTextWindow } from '../../tools/files/readers/text-window.js';
import { estimateTextTokens } from '../tokens.js';

export interface LongSource {
  /** How many parts. */
  count: number;
  /** sha256 of the parts' texts, in order. */
  hash: string;
  /** Estimated tokens of all the parts. */
  tokens: number;
  /** The text of part `i` (0-based), read when it is needed. */
  part(i: number): Promise<string>;
}

export interface LongSourceOptions {
  read: ReadDocumentFn;
  /** Not long: at most this many bytes of text (undefined is returned). */
  short: number;
  /** The most bytes of text read. */
  max: number;
  partBytes: number;
  how: Chunking;
  signal: AbortSignal;
  /** The document as the person named it (for the error when it changes during the run). */
  name: string;
}

/** A text file is split this many parts' worth at a time. */
const WINDOW_PARTS = 4;

/** The document's parts, or undefined when it is not longer than `o.short`. */
export async function openLongSource(abs: string, o: LongSourceOptions): Promise<LongSource | undefined> {
  const head = await o.read(abs, { maxBytes: o.short, signal: o.signal });
  if (!head.truncated) return undefined;
  if (head.kind === 'text' && head.encoding === 'utf-8' && head.fileBytes <= o.max) {
    const parts = await textFileParts(abs, head.fileBytes, o);
    if (parts) return parts;
  }
  const doc = await o.read(abs, { maxBytes: o.max, signal: o.signal });
  return inMemory(splitDocument(doc.text, o.partBytes, o.how));
}

/** Parts held as strings (a document that had to be extracted whole). */
function inMemory(parts: string[]): LongSource {
  const hash = createHash('sha256');
  let tokens = 0;
  for (const p of parts) {
    hash.update(p).update('\0');
    tokens += estimateTextTokens(p);
  }
  return { count: parts.length, hash: hash.digest('hex'), tokens, part: async (i) => parts[i]! };
}

interface Place {
  start: number;
  end: number;
  /** sha256 of the part's text: a file changed since it was split is noticed. */
  hash: string;
}

/**
 * A UTF-8 text file's parts, a window of about WINDOW_PARTS parts at a time: every part but the
 * window's last is kept (the last may go on in the next window, which starts where it starts).
 * Undefined when the bytes are not clean UTF-8 (offsets would not match the text).
 */
async function textFileParts(
  abs: string,
  fileBytes: number,
  o: LongSourceOptions,
): Promise<LongSource | undefined> {
  const places: Place[] = [];
  const all = createHash('sha256');
  let tokens = 0;
  let offset = 0;
  for (;;) {
    if (o.signal.aborted) throw o.signal.reason;
    const page = await readTextWindow(abs, fileBytes, offset, WINDOW_PARTS * o.partBytes);
    if ('binary' in page) return undefined;
    if (Buffer.byteLength(page.text, 'utf8') !== page.end - page.start) return undefined;
    const last = page.end >= fileBytes;
    let text = page.text;
    // Whole lines only, unless the window is one line.
    const nl = last ? -1 : text.lastIndexOf('\n');
    if (nl > 0) text = text.slice(0, nl + 1);
    const ranges = splitRanges(text, o.partBytes, o.how);
    const keep = last || ranges.length <= 1 ? ranges : ranges.slice(0, -1);
    // Byte offsets, counted on from the last range (not from the window's start each time).
    let at = { char: 0, byte: page.start };
    const byteAt = (char: number) => {
      at = { char, byte: at.byte + Buffer.byteLength(text.slice(at.char, char), 'utf8') };
      return at.byte;
    };
    for (const r of keep) {
      const part = partText(text, r);
      const hash = createHash('sha256').update(part).digest('hex');
      all.update(part).update('\0');
      tokens += estimateTextTokens(part);
      places.push({ start: byteAt(r.from), end: byteAt(r.to), hash });
    }
    if (last) break;
    offset = byteAt(keep.length < ranges.length ? ranges.at(-1)!.from : text.length);
  }
  return {
    count: places.length,
    hash: all.digest('hex'),
    tokens,
    part: (i) => readPart(abs, places[i]!, o.name),
  };
}

async function readPart(abs: string, place: Place, name: string): Promise<string> {
  const fh = await open(abs, 'r');
  try {
    const buf = Buffer.alloc(place.end - place.start);
    let got = 0;
    while (got < buf.length) {
      const { bytesRead } = await fh.read(buf, got, buf.length - got, place.start + got);
      if (!bytesRead) break;
      got += bytesRead;
    }
    const text = buf.toString('utf8').replace(/\r\n/g, '\n');
    if (createHash('sha256').update(text).digest('hex') !== place.hash)
      throw new ZhiError({
        kind: 'usage',
        what: { key: 'runs.err.longChanged', params: { file: name } },
        tries: [{ key: 'runs.try.longAgain' }],
      });
    return text;
  } finally {
    await fh.close();
  }
}
