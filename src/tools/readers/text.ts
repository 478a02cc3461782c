/**
 * Decode the bytes of a text file: byte-order marks (UTF-8, UTF-16), strict UTF-8, then
 * GB18030 (a superset of GBK and GB2312, the usual encodings of Chinese documents saved on
 * Windows), then Windows-1252 as the last resort. Binary files are recognised and refused.
 */

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'gb18030' | 'windows-1252';

export interface DecodedText {
  text: string;
  encoding: TextEncodingName;
  bom: boolean;
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

function weakSignature(buf: Uint8Array): BinaryKind | undefined {
  for (const [kind, sig, weak] of SIGNATURES) if (weak === -1 && startsWith(buf, sig)) return kind;
  return undefined;
}

const strictUtf8 = () => new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decode a text file's bytes, or return the binary kind when they are not text. `complete`
 * says whether `buf` is the whole file (a cut multi-byte character at the end of a partial
 * read is then not an error).
 */
export function decodeText(buf: Uint8Array, complete = true): DecodedText | { binary: BinaryKind } {
  // Byte-order marks decide the encoding outright.
  if (startsWith(buf, [0xef, 0xbb, 0xbf])) {
    return {
      text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(buf.subarray(3), { stream: !complete }),
      encoding: 'utf-8',
      bom: true,
    };
  }
  if (startsWith(buf, [0xff, 0xfe])) {
    return {
      text: new TextDecoder('utf-16le', { ignoreBOM: true }).decode(buf.subarray(2), { stream: !complete }),
      encoding: 'utf-16le',
      bom: true,
    };
  }
  if (startsWith(buf, [0xfe, 0xff])) {
    return {
      text: new TextDecoder('utf-16be', { ignoreBOM: true }).decode(buf.subarray(2), { stream: !complete }),
      encoding: 'utf-16be',
      bom: true,
    };
  }
  const known = sniffBinary(buf);
  if (known) return { binary: known };
  const head = buf.subarray(0, 8192);
  if (head.includes(0)) {
    const utf16 = guessUtf16(head);
    if (utf16) {
      const text = new TextDecoder(utf16, { ignoreBOM: true }).decode(buf, { stream: !complete });
      if (!looksBinary(text)) return { text, encoding: utf16, bom: false };
    }
    return { binary: weakSignature(buf) ?? 'binary' };
  }

  let decoded: DecodedText | undefined;
  try {
    decoded = { text: strictUtf8().decode(buf, { stream: !complete }), encoding: 'utf-8', bom: false };
  } catch {
    try {
      decoded = {
        text: new TextDecoder('gb18030', { fatal: true }).decode(buf, { stream: !complete }),
        encoding: 'gb18030',
        bom: false,
      };
    } catch {
      decoded = { text: new TextDecoder('windows-1252').decode(buf), encoding: 'windows-1252', bom: false };
    }
  }
  if (looksBinary(decoded.text)) return { binary: weakSignature(buf) ?? 'binary' };
  return decoded;
}

/** UTF-16 without a BOM: ASCII text shows a NUL in every other byte. */
function guessUtf16(head: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  const n = head.length - (head.length % 2);
  if (n < 8) return undefined;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i < n; i += 2) {
    if (head[i] === 0) evenZero++;
    if (head[i + 1] === 0) oddZero++;
  }
  const pairs = n / 2;
  if (oddZero > pairs * 0.3 && evenZero === 0) return 'utf-16le';
  if (evenZero > pairs * 0.3 && oddZero === 0) return 'utf-16be';
  return undefined;
}

/** Too many control characters (other than tab, newlines, form feed, escape) to be text. */
function looksBinary(text: string): boolean {
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
