/**
 * A PDF's streams measured before pdf.js reads them: pdf.js inflates a content stream whole and
 * in-process, so one stream that inflates to 560 MB (a flate bomb, or flate over flate) would hold
 * zhi for minutes and take its memory. Here every stream that is not an image is decoded through
 * its filters (Flate, LZW, RunLength, ASCIIHex, ASCII85) with a cap on the output, stream by
 * stream and in total; past a cap the PDF is refused. Images are left to pdf.js, which reads no
 * more of them than their width × height (and `maxImageSize` caps that).
 */
import { constants, inflateSync } from 'node:zlib';
import { decodeAscii85, decodeAsciiHex, decodeLzw, decodeRunLength } from './pdf-filters.js';

export interface PdfBounds {
  /** Decoded bytes of one stream. */
  streamBytes: number;
  /** Decoded bytes of all of them. */
  totalBytes: number;
}

export const PDF_BOUNDS: PdfBounds = { streamBytes: 64 * 1024 * 1024, totalBytes: 256 * 1024 * 1024 };

export class PdfTooLarge extends Error {}

const latin1 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');

/** The stream's filter names, first applied first (`/Filter /FlateDecode` or `[/A85 /Fl]`). */
function filtersOf(dict: string): string[] {
  const m = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(dict);
  if (!m) return [];
  return [...m[1]!.matchAll(/\/([A-Za-z0-9]+)/g)].map((x) => x[1]!);
}

/** Objects that hold only a number (`12 0 obj 3456 endobj`), found once per file. */
function numberObjects(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const m of text.matchAll(/(\d+)\s+(\d+)\s+obj\s*(\d+)\s*endobj/g))
    found.set(`${m[1]} ${m[2]}`, Number(m[3]));
  return found;
}

/** The stream's `/Length`, direct or through `N G R` to an object holding a number. */
function lengthOf(dict: string, numbers: () => Map<string, number>): number | undefined {
  const m = /\/Length\s+(\d+)(?:\s+(\d+)\s+R)?/.exec(dict);
  if (!m) return undefined;
  if (m[2] === undefined) return Number(m[1]);
  return numbers().get(`${m[1]} ${m[2]}`);
}

/** One filter step, its output capped at `max` bytes (PdfTooLarge past it). */
function decodeStep(name: string, data: Uint8Array, max: number): Uint8Array | undefined {
  switch (name) {
    case 'FlateDecode':
    case 'Fl':
      try {
        // Sync flush: a truncated stream still counts what it yields (pdf.js reads it too).
        return inflateSync(data, { maxOutputLength: max, finishFlush: constants.Z_SYNC_FLUSH });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new PdfTooLarge();
        return undefined; // damaged: pdf.js decides what to make of it
      }
    case 'LZWDecode':
    case 'LZW':
      return decodeLzw(data, max, () => new PdfTooLarge());
    case 'RunLengthDecode':
    case 'RL':
      return decodeRunLength(data, max, () => new PdfTooLarge());
    case 'ASCIIHexDecode':
    case 'AHx':
      return decodeAsciiHex(data);
    case 'ASCII85Decode':
    case 'A85':
      return decodeAscii85(data);
    default:
      return undefined; // an image codec or a crypt filter: nothing to measure here
  }
}

/** What the measuring pass saw on its way (the streams are decoded once, for both). */
export interface PdfStreamFacts {
  /**
   * A content stream sets a state that can hide text — invisible render mode, white fill, a font
   * under a point, zero fill alpha — so the pages' drawing is worth walking (pdf-hidden.ts).
   */
  mayHide: boolean;
}

const WHITE = String.raw`(?:1(?:\.0*)?|0?\.9[5-9]\d*)`;
/** Operators that may hide text: `3 Tr`, `7 Tr`, `1 g`, `1 1 1 rg`, `0 0 0 0 k`, `1 1 1 scn`, `0.5 Tf`, `0 Tf`. */
const HIDING = new RegExp(
  String.raw`(?:^|[\s\]])(?:[37]\s+Tr|${WHITE}\s+(?:g|sc|scn)|(?:${WHITE}\s+){3}(?:rg|sc|scn)|(?:0(?:\.0*)?\s+){4}(?:k|sc|scn)|(?:0?\.\d+|0)\s+Tf)\b`,
);
/** A text or drawing matrix that shrinks both ways below 1 (`0.3 0 0 0.3 72 700 Tm`): text may become tiny. */
const SHRINK = /(?:^|\s)-?(?:0?\.\d+|0)\s+\S+\s+\S+\s+-?(?:0?\.\d+|0)\s+\S+\s+\S+\s+(?:Tm|cm)\b/;
/** A graphics-state dictionary that makes fills transparent. */
const ZERO_ALPHA = /\/ca\s+0?\.?0*(?![\d.])/;

/**
 * Throws PdfTooLarge when a stream of `data` that is not an image decodes past the bounds.
 * Cost: one decode of each such stream (a few milliseconds per MB), before pdf.js's own.
 */
export function checkPdfStreams(data: Uint8Array, bounds: PdfBounds = PDF_BOUNDS): PdfStreamFacts {
  const text = latin1(data);
  const keyword = /stream(\r\n|\n|\r)/g;
  let total = 0;
  let numbers: Map<string, number> | undefined;
  const lazyNumbers = () => {
    numbers ??= numberObjects(text);
    return numbers;
  };
  let m: RegExpExecArray | null;
  let mayHide = ZERO_ALPHA.test(text);
  for (;;) {
    m = keyword.exec(text);
    if (!m) return { mayHide };
    if (text.slice(Math.max(0, m.index - 3), m.index) === 'end') continue;
    const dictStart = text.lastIndexOf('<<', m.index);
    const objStart = text.lastIndexOf(' obj', m.index);
    if (dictStart < 0) continue;
    const dict = text.slice(Math.max(objStart, 0, dictStart - 4096), m.index);
    const start = m.index + m[0].length;
    const declared = lengthOf(dict, lazyNumbers);
    const end =
      declared !== undefined && start + declared <= text.length
        ? start + declared
        : text.indexOf('endstream', start) < 0
          ? text.length
          : text.indexOf('endstream', start);
    keyword.lastIndex = end;
    if (/\/Subtype\s*\/Image/.test(dict)) continue;
    let bytes: Uint8Array | undefined = data.subarray(start, end);
    for (const f of filtersOf(dict)) {
      bytes = decodeStep(f, bytes, bounds.streamBytes);
      if (!bytes) break;
    }
    total += bytes?.length ?? 0;
    if (total > bounds.totalBytes) throw new PdfTooLarge();
    if (!mayHide && bytes) {
      const content = latin1(bytes);
      mayHide = HIDING.test(content) || SHRINK.test(content);
    }
  }
}
