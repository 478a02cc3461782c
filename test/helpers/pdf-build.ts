/**
 * PDFs for the reader tests that need more than a line per page: a filled AcroForm (text
 * field, checkbox, choice), text laid out in a grid of columns, and GBK text in a non-embedded
 * Chinese font declared with WinAnsiEncoding (as old Chinese Windows software wrote it).
 */
import iconv from 'iconv-lite';
import { onePagePdf } from './media.js';

const pdfString = (s: string) => `(${s.replace(/[()\\]/g, '\\$&')})`;
const HELVETICA_WINANSI = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
/** A PDF text string in UTF-16BE with BOM, for field values beyond Latin-1. */
const utf16 = (s: string) => `<FEFF${Buffer.from(s, 'utf16le').swap16().toString('hex')}>`;

/** One page with a label and a filled form: name (text), agree (checkbox, on), city (choice). */
export function makeFormPdf(values: { name: string; agree: boolean; city: string }): Buffer {
  const stream = 'BT /F1 12 Tf 72 720 Td (Application form) Tj ET';
  return onePagePdf({
    catalog: '/AcroForm << /Fields [6 0 R 7 0 R 8 0 R] >>',
    font: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    page: '/Annots [6 0 R 7 0 R 8 0 R]',
    stream,
    extra: [
      `<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /TU ${utf16('申请人姓名')} /V ${utf16(values.name)} /Rect [72 650 300 670] /P 4 0 R >>`,
      `<< /Type /Annot /Subtype /Widget /FT /Btn /T (agree) /V /${values.agree ? 'Yes' : 'Off'} /AS /${values.agree ? 'Yes' : 'Off'} /Rect [72 620 90 638] /P 4 0 R /AP << /N << /Yes 9 0 R /Off 9 0 R >> >> >>`,
      `<< /Type /Annot /Subtype /Widget /FT /Ch /Ff 131072 /T (city) /Opt [(Beijing) (Shanghai)] /V ${pdfString(values.city)} /Rect [72 590 300 610] /P 4 0 R >>`,
      '<< /Type /XObject /Subtype /Form /BBox [0 0 18 18] /Length 0 >>\nstream\n\nendstream',
    ],
  });
}

/** One page of text placed at (x, y) positions, in Helvetica with WinAnsiEncoding (Latin-1 text). */
export function makePositionedPdf(runs: { x: number; y: number; text: string }[]): Buffer {
  const stream = runs.map((r) => `BT /F1 11 Tf ${r.x} ${r.y} Td ${pdfString(r.text)} Tj ET`).join('\n');
  return onePagePdf({ font: HELVETICA_WINANSI, stream });
}

/** GBK bytes shown in a non-embedded 宋体 declared as WinAnsiEncoding. */
export function makeGbkWinAnsiPdf(text: string): Buffer {
  const hex = iconv.encode(text, 'gbk').toString('hex');
  const stream = `BT /F1 16 Tf 72 720 Td <${hex}> Tj ET`;
  return onePagePdf({
    font: '<< /Type /Font /Subtype /TrueType /BaseFont /#CB#CE#CC#E5 /Encoding /WinAnsiEncoding /FirstChar 32 /LastChar 255 /FontDescriptor 6 0 R >>',
    stream,
    extra: [
      '<< /Type /FontDescriptor /FontName /#CB#CE#CC#E5 /Flags 6 /FontBBox [0 -200 1000 1000] /ItalicAngle 0 /Ascent 859 /Descent -141 /CapHeight 859 /StemV 80 >>',
    ],
  });
}

/**
 * Four filled text fields, each stored a way real form fillers write them: the value on the
 * field itself; on a parent field whose widget is a kid without /V; only in the widget's
 * appearance stream (no /V at all, as some "flatten-ready" fillers leave it); and a parent with
 * two widgets on the page showing the same value.
 */
export function makeFourFieldPdf(): Buffer {
  const stream = 'BT /F1 12 Tf 72 720 Td (Order form) Tj ET';
  const ap = (text: string) => {
    const s = `/Tx BMC BT /F1 10 Tf 2 5 Td ${pdfString(text)} Tj ET EMC`;
    return `<< /Type /XObject /Subtype /Form /BBox [0 0 200 20] /Resources << /Font << /F1 3 0 R >> >> /Length ${s.length} >>\nstream\n${s}\nendstream`;
  };
  return onePagePdf({
    catalog:
      '/AcroForm << /Fields [6 0 R 7 0 R 9 0 R 11 0 R] /DA (/F1 10 Tf 0 g) /DR << /Font << /F1 3 0 R >> >> >>',
    font: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    page: '/Annots [6 0 R 8 0 R 10 0 R 12 0 R 13 0 R]',
    stream,
    extra: [
      // 6: value on the field-widget itself.
      `<< /Type /Annot /Subtype /Widget /FT /Tx /T (customer) /V ${utf16('李华')} /Rect [72 650 300 670] /P 4 0 R >>`,
      // 7/8: the value on the parent; the widget kid has none.
      '<< /FT /Tx /T (order_no) /V (A-1042) /Kids [8 0 R] >>',
      '<< /Type /Annot /Subtype /Widget /Parent 7 0 R /Rect [72 620 300 640] /P 4 0 R >>',
      // 9/10: no /V, the value only drawn in the appearance stream.
      '<< /FT /Tx /T (amount) /Kids [10 0 R] >>',
      '<< /Type /Annot /Subtype /Widget /Parent 9 0 R /Rect [72 590 300 610] /P 4 0 R /AP << /N 14 0 R >> >>',
      // 11/12/13: one field shown twice (e.g. a date in the header and the footer).
      '<< /FT /Tx /T (date) /V (2026-11-27) /Kids [12 0 R 13 0 R] >>',
      '<< /Type /Annot /Subtype /Widget /Parent 11 0 R /Rect [72 560 300 580] /P 4 0 R >>',
      '<< /Type /Annot /Subtype /Widget /Parent 11 0 R /Rect [72 60 300 80] /P 4 0 R >>',
      ap('1,280.00'),
    ],
  });
}

/** One page drawing `stream` with /F1 = Helvetica (WinAnsiEncoding). */
export function makeStreamPdf(stream: string): Buffer {
  return onePagePdf({ font: HELVETICA_WINANSI, stream });
}

/**
 * Japanese text as Shift-JIS bytes in the non-embedded KozMinPro-Regular with the predefined
 * CMap 90ms-RKSJ-H (as Japanese Windows software writes it): reading it needs that CMap and
 * Adobe-Japan1-UCS2 from pdf.js's CMap files.
 */
export function makeShiftJisPdf(text: string): Buffer {
  const hex = iconv.encode(text, 'shift_jis').toString('hex');
  const stream = `BT /F1 16 Tf 72 720 Td <${hex}> Tj ET`;
  return onePagePdf({
    font: '<< /Type /Font /Subtype /Type0 /BaseFont /KozMinPro-Regular-Acro /Encoding /90ms-RKSJ-H /DescendantFonts [6 0 R] >>',
    stream,
    extra: [
      '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /KozMinPro-Regular-Acro /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 4 >> /FontDescriptor 7 0 R >>',
      '<< /Type /FontDescriptor /FontName /KozMinPro-Regular-Acro /Flags 6 /FontBBox [-195 -272 1110 1075] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 740 /StemV 58 >>',
    ],
  });
}
