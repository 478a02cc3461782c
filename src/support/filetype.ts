/** What a file really is, from its first bytes (never trusting the extension alone). */

/**
 * The one reader of file signatures. Images and PDF are named by format (vision and OCR accept
 * some formats and not others); every other binary by family (the file readers only need to say
 * what a file is when they refuse it). `other` is anything without a known signature: maybe text.
 */
export type FileKind =
  | 'pdf'
  | 'png'
  | 'jpeg'
  | 'gif'
  | 'webp'
  | 'bmp'
  | 'tiff'
  | 'heic'
  | 'avif'
  | 'svg'
  | 'zip'
  | 'ole'
  | 'archive'
  | 'executable'
  | 'media'
  | 'other';

/** The kinds a picture or a PDF can be: what vision and OCR send, with their media types. */
export type PictureKind = Exclude<FileKind, 'other' | 'zip' | 'ole' | 'archive' | 'executable' | 'media'>;

export const MIME: Record<PictureKind, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
  heic: 'image/heic',
  avif: 'image/avif',
  svg: 'image/svg+xml',
};

/** How many leading bytes `sniffFile` needs. */
export const SNIFF_BYTES = 64;

/**
 * Signatures at the start of a file. `weak` ones (two letters a text could start with: `BM`,
 * `MZ`) count only when asked: a text reader asks once the bytes already look binary.
 */
const SIGNATURES: { kind: FileKind; bytes: number[]; weak?: true }[] = [
  { kind: 'png', bytes: [0x89, 0x50, 0x4e, 0x47] },
  { kind: 'jpeg', bytes: [0xff, 0xd8, 0xff] },
  { kind: 'gif', bytes: [0x47, 0x49, 0x46, 0x38] },
  { kind: 'bmp', bytes: [0x42, 0x4d], weak: true },
  { kind: 'tiff', bytes: [0x49, 0x49, 0x2a, 0x00] },
  { kind: 'tiff', bytes: [0x4d, 0x4d, 0x00, 0x2a] },
  { kind: 'pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // %PDF-
  { kind: 'zip', bytes: [0x50, 0x4b, 0x03, 0x04] },
  { kind: 'zip', bytes: [0x50, 0x4b, 0x05, 0x06] }, // an empty zip
  { kind: 'ole', bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1] }, // .doc, .xls, .ppt
  { kind: 'archive', bytes: [0x1f, 0x8b] }, // gzip
  { kind: 'archive', bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] }, // 7z
  { kind: 'archive', bytes: [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07] }, // Rar!
  { kind: 'executable', bytes: [0x7f, 0x45, 0x4c, 0x46] }, // ELF
  { kind: 'executable', bytes: [0x4d, 0x5a], weak: true }, // MZ
  { kind: 'executable', bytes: [0xcf, 0xfa, 0xed, 0xfe] }, // Mach-O
  { kind: 'media', bytes: [0x49, 0x44, 0x33] }, // ID3 (mp3)
  { kind: 'media', bytes: [0x4f, 0x67, 0x67, 0x53] }, // Ogg
];

export interface SniffOptions {
  /** Count `BM` and `MZ` too. */
  weak?: boolean;
  /** A PDF header after a few bytes of junk (the format allows it; a text about PDFs may too). */
  pdfAfterJunk?: boolean;
}

/** What the first bytes of a file say it is. */
export function sniffFile(head: Uint8Array, o: SniffOptions = {}): FileKind {
  const b = head;
  const ascii = (from: number, to: number) => String.fromCharCode(...b.subarray(from, to));
  if (o.pdfAfterJunk && ascii(0, Math.min(b.length, 64)).includes('%PDF-')) return 'pdf';
  for (const sig of SIGNATURES) {
    if (sig.weak && !o.weak) continue;
    if (b.length >= sig.bytes.length && sig.bytes.every((byte, i) => b[i] === byte)) return sig.kind;
  }
  // RIFF….WEBP is a picture; WAVE and AVI are sound and video.
  if (ascii(0, 4) === 'RIFF' && b.length >= 12) return ascii(8, 12) === 'WEBP' ? 'webp' : 'media';
  // ISO media ("ftyp" at 4): HEIC and AVIF pictures by their brand, else mp4, mov, m4a.
  if (b.length >= 12 && ascii(4, 8) === 'ftyp') {
    const brand = ascii(8, 12);
    if (brand === 'avif' || brand === 'avis') return 'avif';
    if (/^(heic|heix|hevc|hevx|heim|heis|mif1|msf1)$/.test(brand)) return 'heic';
    return 'media';
  }
  const text = ascii(0, Math.min(b.length, 64)).trimStart().toLowerCase();
  if (text.startsWith('<svg') || (text.startsWith('<?xml') && text.includes('svg'))) return 'svg';
  return 'other';
}

/** Whether the kind came from a weak signature only (`BM`, `MZ`). */
export function weakKind(head: Uint8Array): FileKind | undefined {
  const strong = sniffFile(head);
  const weak = sniffFile(head, { weak: true });
  return weak !== strong ? weak : undefined;
}

/** Human name of a kind, for messages: "WEBP image", "PDF document". */
export function kindName(kind: FileKind): string {
  switch (kind) {
    case 'pdf':
      return 'PDF';
    case 'jpeg':
      return 'JPG';
    case 'zip':
      return 'ZIP (or Office)';
    case 'ole':
      return 'Office 97-2003';
    case 'executable':
      return 'program';
    case 'media':
      return 'audio or video';
    case 'other':
      return 'unknown';
    default:
      return kind.toUpperCase();
  }
}
