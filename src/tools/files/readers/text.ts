/**
 * Text or binary? Known file signatures (images, PDF, ZIP, old Office, archives, programs,
 * media) and a share of control characters tell; charset.ts decides the encoding of text.
 */

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

const SIGNATURES: [BinaryKind, number[], number?][] = [
  ['image', [0x89, 0x50, 0x4e, 0x47]], // PNG
  ['image', [0xff, 0xd8, 0xff]], // JPEG
  ['image', [0x47, 0x49, 0x46, 0x38]], // GIF8
  ['image', [0x42, 0x4d], -1], // BMP (weak: only with other binary evidence)
  ['image', [0x49, 0x49, 0x2a, 0x00]], // TIFF
  ['image', [0x4d, 0x4d, 0x00, 0x2a]],
  ['pdf', [0x25, 0x50, 0x44, 0x46, 0x2d]], // %PDF-
  ['zip', [0x50, 0x4b, 0x03, 0x04]],
  ['zip', [0x50, 0x4b, 0x05, 0x06]],
  ['old-office', [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]],
  ['archive', [0x1f, 0x8b]], // gzip
  ['archive', [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]], // 7z
  ['archive', [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07]], // Rar!
  ['executable', [0x7f, 0x45, 0x4c, 0x46]], // ELF
  ['executable', [0x4d, 0x5a], -1], // MZ (weak)
  ['executable', [0xcf, 0xfa, 0xed, 0xfe]], // Mach-O
  ['media', [0x49, 0x44, 0x33]], // ID3 (mp3)
  ['media', [0x4f, 0x67, 0x67, 0x53]], // Ogg
];

function startsWith(buf: Uint8Array, sig: number[]): boolean {
  if (buf.length < sig.length) return false;
  return sig.every((b, i) => buf[i] === b);
}

/** The kind of binary file the bytes start with, if they carry a known signature. */
export function sniffBinary(buf: Uint8Array): BinaryKind | undefined {
  for (const [kind, sig, weak] of SIGNATURES) {
    if (weak === -1) continue;
    if (startsWith(buf, sig)) return kind;
  }
  // RIFF….WEBP / WAVE / AVI, and ISO media (mp4, mov, heic): "ftyp" at offset 4.
  if (startsWith(buf, [0x52, 0x49, 0x46, 0x46]) && buf.length >= 12) {
    const tag = String.fromCharCode(...buf.subarray(8, 12));
    return tag === 'WEBP' ? 'image' : 'media';
  }
  if (buf.length >= 12 && String.fromCharCode(...buf.subarray(4, 8)) === 'ftyp') {
    const brand = String.fromCharCode(...buf.subarray(8, 12));
    return /^(heic|heix|mif1|avif)/.test(brand) ? 'image' : 'media';
  }
  return undefined;
}

export function weakSignature(buf: Uint8Array): BinaryKind | undefined {
  for (const [kind, sig, weak] of SIGNATURES) if (weak === -1 && startsWith(buf, sig)) return kind;
  return undefined;
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
