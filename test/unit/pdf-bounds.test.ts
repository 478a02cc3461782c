/**
 * A PDF's streams are measured through their filters before pdf.js inflates them: a flate bomb,
 * flate over flate, RunLength and LZW expansion are refused past the caps; images and ordinary
 * PDFs pass.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { checkPdfStreams, PdfTooLarge } from '../../src/tools/files/readers/pdf-bounds.js';
import {
  decodeAscii85,
  decodeAsciiHex,
  decodeLzw,
  decodeRunLength,
} from '../../src/tools/files/readers/pdf-filters.js';

const SMALL = { streamBytes: 1024 * 1024, totalBytes: 3 * 1024 * 1024 };

/** A PDF-shaped file whose one object carries `body` as a stream with this dictionary. */
function pdfWith(dict: string, body: Uint8Array, length: 'direct' | 'indirect' | 'none' = 'direct'): Buffer {
  const len = length === 'direct' ? `/Length ${body.length} ` : length === 'indirect' ? '/Length 9 0 R ' : '';
  return Buffer.concat([
    Buffer.from(`%PDF-1.7\n4 0 obj\n<< ${len}${dict} >>\nstream\n`, 'latin1'),
    Buffer.from(body),
    Buffer.from(`\nendstream\nendobj\n9 0 obj ${body.length} endobj\n%%EOF\n`, 'latin1'),
  ]);
}

const zeros = (n: number) => new Uint8Array(n);
const flate = (b: Uint8Array) => new Uint8Array(deflateSync(b, { level: 9 }));
const rle = (runs: number) =>
  new Uint8Array(
    Array.from({ length: runs }, () => [129, 65])
      .flat()
      .concat([128]),
  );

describe('checkPdfStreams', () => {
  const cases: [string, Buffer, boolean][] = [
    ['a small flate content stream', pdfWith('/Filter /FlateDecode', flate(zeros(1000))), false],
    ['a flate bomb', pdfWith('/Filter /FlateDecode', flate(zeros(2 * 1024 * 1024))), true],
    [
      'a flate bomb, length indirect',
      pdfWith('/Filter /FlateDecode', flate(zeros(2 * 1024 * 1024)), 'indirect'),
      true,
    ],
    ['a flate bomb, no length', pdfWith('/Filter /FlateDecode', flate(zeros(2 * 1024 * 1024)), 'none'), true],
    [
      'flate over flate',
      pdfWith('/Filter [/FlateDecode /FlateDecode]', flate(flate(zeros(2 * 1024 * 1024)))),
      true,
    ],
    ['abbreviated names', pdfWith('/Filter [/Fl /Fl]', flate(flate(zeros(2 * 1024 * 1024)))), true],
    ['RunLength expansion', pdfWith('/Filter /RunLengthDecode', rle(10_000)), true],
    ['RunLength, small', pdfWith('/Filter /RunLengthDecode', rle(10)), false],
    [
      'an image is left to pdf.js',
      pdfWith('/Subtype /Image /Width 1 /Height 1 /Filter /FlateDecode', flate(zeros(2 * 1024 * 1024))),
      false,
    ],
    ['a damaged stream is not a bomb', pdfWith('/Filter /FlateDecode', new Uint8Array([1, 2, 3, 4])), false],
  ];
  it.each(cases)('%s', (_name, pdf, refused) => {
    const run = () => checkPdfStreams(pdf, SMALL);
    if (refused) expect(run).toThrow(PdfTooLarge);
    else expect(run).not.toThrow();
  });

  it('refuses many streams that pass one by one but not in all', () => {
    const one = pdfWith('/Filter /FlateDecode', flate(zeros(900 * 1024)));
    expect(() => checkPdfStreams(Buffer.concat([one, one, one, one]), SMALL)).toThrow(PdfTooLarge);
    expect(() => checkPdfStreams(Buffer.concat([one, one]), SMALL)).not.toThrow();
  });

  it('passes every real PDF of the fixtures with the real caps', () => {
    const dir = resolve(import.meta.dirname, '../fixtures/real/pdf');
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.pdf'))) {
      expect(() => checkPdfStreams(readFileSync(join(dir, f)))).not.toThrow();
    }
  });
});

describe('the filters', () => {
  const tooLarge = () => new PdfTooLarge();
  it('LZW: the example of the PDF reference', () => {
    const coded = new Uint8Array([0x80, 0x0b, 0x60, 0x50, 0x22, 0x0c, 0x0c, 0x85, 0x01]);
    expect([...decodeLzw(coded, 100, tooLarge)]).toEqual([45, 45, 45, 45, 45, 65, 45, 45, 45, 66]);
    expect(() => decodeLzw(coded, 5, tooLarge)).toThrow(PdfTooLarge);
  });
  it('RunLength: literal and repeated runs', () => {
    expect(
      Buffer.from(decodeRunLength(new Uint8Array([1, 65, 66, 254, 67, 128]), 100, tooLarge)).toString(),
    ).toBe('ABCCC');
  });
  it('ASCIIHex and ASCII85', () => {
    expect(Buffer.from(decodeAsciiHex(Buffer.from('48 69 7>'))).toString('latin1')).toBe('Hip');
    expect(Buffer.from(decodeAscii85(Buffer.from('<~87cURD]i,"Ebo7~>'))).toString()).toBe('Hello World');
  });
});
