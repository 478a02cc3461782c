import { describe, expect, it } from 'vitest';
import { sniffFile, weakKind } from '../../src/support/filetype.js';
import { decodeText, sniffBinary, weakSignature } from '../../src/tools/files/readers/text.js';

const bytes = (...parts: (string | number[])[]) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'latin1')] : p)));

describe('one signature reader for vision, OCR and the file readers', () => {
  const cases: [string, Uint8Array, string, string | undefined][] = [
    ['PNG', bytes([0x89], 'PNG\r\n'), 'png', 'image'],
    ['JPEG', bytes([0xff, 0xd8, 0xff, 0xe0]), 'jpeg', 'image'],
    ['WEBP', bytes('RIFF\0\0\0\0WEBPVP8 '), 'webp', 'image'],
    ['WAV', bytes('RIFF\0\0\0\0WAVEfmt '), 'media', 'media'],
    ['HEIC', bytes('\0\0\0\x18ftypheic'), 'heic', 'image'],
    ['MP4', bytes('\0\0\0\x18ftypisom'), 'media', 'media'],
    ['PDF', bytes('%PDF-1.7\n'), 'pdf', 'pdf'],
    ['zip', bytes([0x50, 0x4b, 0x03, 0x04]), 'zip', 'zip'],
    ['old Office', bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), 'ole', 'old-office'],
    ['gzip', bytes([0x1f, 0x8b, 8]), 'archive', 'archive'],
    ['ELF', bytes([0x7f], 'ELF'), 'executable', 'executable'],
    ['SVG', bytes('<svg xmlns="http://www.w3.org/2000/svg">'), 'svg', undefined],
    ['text', bytes('Quarterly report\n'), 'other', undefined],
  ];
  it.each(cases)('%s', (_name, head, kind, family) => {
    expect(sniffFile(head, { weak: true, pdfAfterJunk: true })).toBe(kind);
    expect(sniffBinary(head)).toBe(family);
  });

  it('counts BM and MZ only when asked: a text may start with them', () => {
    const bmw = bytes('BMW annual report\n');
    expect(sniffFile(bmw)).toBe('other');
    expect(sniffBinary(bmw)).toBeUndefined();
    expect('text' in decodeText(bmw)).toBe(true);
    expect(sniffFile(bmw, { weak: true })).toBe('bmp');
    expect(weakKind(bytes('MZ', [0x90, 0]))).toBe('executable');
    expect(weakSignature(bytes('MZ', [0x90, 0]))).toBe('executable');
    expect(decodeText(bytes('MZ', [0x90, 0, 3, 0, 0, 0]))).toEqual({ binary: 'executable' });
  });

  it('finds a PDF header after junk for OCR only, never in a text that mentions one', () => {
    const junk = bytes([0xef, 0xbb, 0xbf], '%PDF-1.4\n');
    expect(sniffFile(junk, { pdfAfterJunk: true })).toBe('pdf');
    const text = bytes('A PDF starts with %PDF-1.7 and a version.\n');
    expect(sniffFile(text)).toBe('other');
    expect('text' in decodeText(text)).toBe(true);
  });
});
