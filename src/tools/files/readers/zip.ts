/**
 * Random access to the parts of an Office file (a zip) held in memory: yauzl reads the central
 * directory, Node's native zlib inflates only the parts asked for, as a stream that the caller
 * may stop early. (JSZip inflates in JavaScript: 1.3 s for the 21 MB shared strings of a
 * 200,000-row workbook, against ~0.1 s here.)
 */
import { addAbortSignal, type Readable } from 'node:stream';
import type { Entry, ZipFile } from 'yauzl';
import { checkRead, readSignal } from './read-signal.js';
import { DocumentError } from './types.js';

/** Largest part inflated (shared strings, styles, document XML), whether read whole or streamed. */
export const MAX_PART_BYTES = 256 * 1024 * 1024;
/** All parts of one package together: a file of many large parts is as bad as one huge part. */
export const MAX_TOTAL_BYTES = 512 * 1024 * 1024;
/**
 * A part this large that inflates more than this many times is a zip bomb, not a document (real
 * Office XML inflates 5–30 times): refused before any work, so a 1 MB file cannot keep zhi busy.
 */
const BOMB_RATIO = 200;
const BOMB_MIN_BYTES = 16 * 1024 * 1024;

/**
 * Why a part is not inflated, or undefined when it may be (declared sizes; yauzl checks them).
 * A part only streamed (a sheet, shared strings) is read as far as needed and never held whole:
 * only the bomb ratio applies to it, so a genuine million-row sheet is read (issue 45).
 */
export function partProblem(
  uncompressed: number,
  compressed: number,
  totalSoFar: number,
  streamed = false,
): string | undefined {
  if (streamed)
    return uncompressed > BOMB_MIN_BYTES && uncompressed / Math.max(1, compressed) > BOMB_RATIO
      ? `it would inflate ${Math.round(uncompressed / Math.max(1, compressed))} times (a zip bomb)`
      : undefined;
  if (uncompressed > MAX_PART_BYTES)
    return `it would inflate to ${uncompressed} bytes (at most ${MAX_PART_BYTES})`;
  if (uncompressed > BOMB_MIN_BYTES && uncompressed / Math.max(1, compressed) > BOMB_RATIO)
    return `it would inflate ${Math.round(uncompressed / Math.max(1, compressed))} times (a zip bomb)`;
  if (totalSoFar + uncompressed > MAX_TOTAL_BYTES)
    return `its parts would inflate to more than ${MAX_TOTAL_BYTES} bytes together`;
  return undefined;
}

export interface ZipParts {
  names: string[];
  /** A part as a byte stream, or undefined when the package has no such part. */
  stream(path: string): Promise<Readable | undefined>;
  /** A whole part's bytes. */
  bytes(path: string): Promise<Buffer | undefined>;
  /** A whole (small) part as UTF-8 text. */
  text(path: string): Promise<string | undefined>;
}

export async function openZip(data: Buffer): Promise<ZipParts> {
  const { default: yauzl } = await import('yauzl');
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(data, { lazyEntries: true, decodeStrings: true }, (err, z) =>
      err ? reject(err) : resolve(z),
    ),
  );
  const entries = new Map<string, Entry>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (e: Entry) => {
      entries.set(e.fileName, e);
      zip.readEntry();
    });
    zip.on('end', () => resolve());
    zip.on('error', reject);
    zip.readEntry();
  });
  const find = (path: string) => entries.get(path.replace(/^\//, '')) ?? entries.get(path);
  let inflated = 0;
  const open = (path: string, whole: boolean): Promise<Readable | undefined> => {
    const entry = find(path);
    if (!entry) return Promise.resolve(undefined);
    const problem = partProblem(entry.uncompressedSize, entry.compressedSize, inflated, !whole);
    if (problem)
      return Promise.reject(
        new DocumentError(
          'too_large',
          `This file cannot be read: its part ${path} is too large — ${problem}.`,
        ),
      );
    if (whole) inflated += entry.uncompressedSize;
    checkRead();
    const signal = readSignal();
    // Ctrl+C ends the part's stream: its reader stops at the next chunk.
    return new Promise((resolve, reject) =>
      zip.openReadStream(entry, (err, s) =>
        err ? reject(err) : resolve(signal ? addAbortSignal(signal, s) : s),
      ),
    );
  };
  const stream = (path: string) => open(path, false);
  const bytes = async (path: string): Promise<Buffer | undefined> => {
    const s = await open(path, true);
    if (!s) return undefined;
    const entry = find(path)!;
    // The declared size is checked against the real one by yauzl as it inflates; this cap keeps
    // a lying header (a zip bomb) from asking for gigabytes up front.
    if (entry.uncompressedSize > MAX_PART_BYTES) {
      s.destroy();
      throw new Error(`part ${path} is too large (${entry.uncompressedSize} bytes)`);
    }
    // One buffer of the declared size, filled as the part inflates (no copy at the end).
    const out = Buffer.allocUnsafe(entry.uncompressedSize);
    let at = 0;
    for await (const c of s) at += (c as Buffer).copy(out, at);
    return out.subarray(0, at);
  };
  return {
    names: [...entries.keys()],
    stream,
    bytes,
    async text(path) {
      return (await bytes(path))?.toString('utf8');
    },
  };
}
