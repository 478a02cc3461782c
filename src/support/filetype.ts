/** What a file really is, from its first bytes (never trusting the extension alone). */

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
  | 'other';

export const MIME: Record<Exclude<FileKind, 'other' | 'zip'>, string> = {
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

export function sniffFile(head: Uint8Array): FileKind {
  const b = head;
  const ascii = (from: number, to: number) => String.fromCharCode(...b.subarray(from, to));
  // A PDF may have a few bytes of junk before its header; the format allows 1024.
  if (ascii(0, Math.min(b.length, 64)).includes('%PDF-')) return 'pdf';
  if (b[0] === 0x89 && ascii(1, 4) === 'PNG') return 'png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (ascii(0, 4) === 'GIF8') return 'gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  if (ascii(0, 2) === 'BM') return 'bmp';
  if (ascii(0, 4) === 'II*\u0000' || ascii(0, 4) === 'MM\u0000*') return 'tiff';
  if (ascii(4, 8) === 'ftyp') {
    const brand = ascii(8, 12);
    if (brand === 'avif' || brand === 'avis') return 'avif';
    if (/^(heic|heix|hevc|hevx|heim|heis|mif1|msf1)$/.test(brand)) return 'heic';
  }
  if (b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04) return 'zip';
  const text = ascii(0, Math.min(b.length, 64)).trimStart().toLowerCase();
  if (text.startsWith('<svg') || (text.startsWith('<?xml') && text.includes('svg'))) return 'svg';
  return 'other';
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
    case 'other':
      return 'unknown';
    default:
      return kind.toUpperCase();
  }
}
