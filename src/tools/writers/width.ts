/**
 * Display width of text in a fixed-width grid (spreadsheet columns, listings): East Asian wide
 * and full-width characters and most emoji count 2, combining marks and zero-width characters
 * 0, everything else 1. An approximation of string-width that needs no Intl.Segmenter, whose
 * first use costs tens of milliseconds (it would eat a good part of the 0.5 s budget of a
 * 1,000-row workbook).
 */
export function textWidth(text: string): number {
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.codePointAt(i)!;
    if (c > 0xffff) i++;
    if (c < 0x300) width += c < 0x20 || (c >= 0x7f && c < 0xa0) ? 0 : 1;
    else if (c <= 0x36f || (c >= 0x200b && c <= 0x200f) || (c >= 0xfe00 && c <= 0xfe0f) || c === 0xfeff)
      continue;
    else if (isWide(c)) width += 2;
    else width += 1;
  }
  return width;
}

function isWide(c: number): boolean {
  return (
    (c >= 0x1100 && c <= 0x115f) ||
    (c >= 0x2e80 && c <= 0x303e) ||
    (c >= 0x3041 && c <= 0x33ff) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0xa000 && c <= 0xa4cf) ||
    (c >= 0xac00 && c <= 0xd7a3) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xfe30 && c <= 0xfe4f) ||
    (c >= 0xff00 && c <= 0xff60) ||
    (c >= 0xffe0 && c <= 0xffe6) ||
    (c >= 0x1f300 && c <= 0x1f64f) ||
    (c >= 0x1f900 && c <= 0x1f9ff) ||
    (c >= 0x20000 && c <= 0x3fffd)
  );
}
