/**
 * Text or binary? Known file signatures (support/filetype.ts: images, PDF, ZIP, old Office,
 * archives, programs, media) and a share of control characters tell; charset.ts decides the encoding of text.
 */

import { type FileKind, sniffFile, weakKind } from '../../../support/filetype.js';
import { bomEncoding, decodeBytes, detectEncoding, guessWide, type TextEncodingName } from './charset.js';

export type { TextEncodingName } from './charset.js';

export interface DecodedText {
  text: string;
  encoding: TextEncodingName;
  bom: boolean;
  /** False when the encoding is a guess. */
  sure: boolean;
}

/** What a binary file most likely is, for a helpful refusal. */
export type BinaryKind =
  | 'image'
  | 'pdf'
  | 'zip'
  | 'old-office'
  | 'archive'
  | 'executable'
  | 'media'
  | 'binary';

/** The family of a signature's kind, as a refusal names it; undefined for what may be text (SVG). */
const FAMILY: Record<FileKind, BinaryKind | undefined> = {
  png: 'image',
  jpeg: 'image',
  gif: 'image',
  webp: 'image',
  bmp: 'image',
  tiff: 'image',
  heic: 'image',
  avif: 'image',
  svg: undefined,
  pdf: 'pdf',
  zip: 'zip',
  ole: 'old-office',
  archive: 'archive',
  executable: 'executable',
  media: 'media',
  other: undefined,
};

/** The kind of binary file the bytes start with, if they carry a known signature (support/filetype.ts). */
export function sniffBinary(buf: Uint8Array): BinaryKind | undefined {
  return FAMILY[sniffFile(buf)];
}

/** A weak signature (`BM`, `MZ`): asked only once the bytes look binary for another reason. */
export function weakSignature(buf: Uint8Array): BinaryKind | undefined {
  const kind = weakKind(buf);
  return kind ? FAMILY[kind] : undefined;
}

/**
 * Decode a whole text file held in memory, or return the binary kind when it is not text.
 * (file_read pages big files by byte range instead: see text-window.ts.)
 */
export function decodeText(buf: Uint8Array): DecodedText | { binary: BinaryKind } {
  const bom = bomEncoding(buf);
  const known = bom ? undefined : sniffBinary(buf);
  if (known) return { binary: known };
  const head = buf.subarray(0, 8192);
  if (!bom && head.includes(0) && !guessWide(head)) return { binary: weakSignature(buf) ?? 'binary' };
  const enc = detectEncoding([buf.subarray(0, 64 * 1024)]);
  const text = decodeBytes(buf.subarray(enc.bom), enc.name);
  if (looksBinary(text)) return { binary: weakSignature(buf) ?? 'binary' };
  return { text, encoding: enc.name, bom: enc.bom > 0, sure: enc.sure };
}

/** Too many control characters (other than tab, newlines, form feed, escape) to be text. */
export function looksBinary(text: string): boolean {
  const sample = text.slice(0, 4096);
  if (!sample.length) return false;
  let control = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12 && c !== 11 && c !== 27) || c === 0xfffd)
      control++;
  }
  return control > Math.max(2, sample.length * 0.05);
}
