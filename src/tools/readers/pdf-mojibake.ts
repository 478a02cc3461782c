/**
 * Chinese PDFs made by old Windows software often name a system font that is not embedded
 * (宋体, 仿宋_GB2312, 小标宋…) with a Western single-byte encoding, while the bytes drawn are GBK.
 * A viewer that substitutes a Chinese font shows Chinese; a text extractor gets Latin-1 such as
 * "Ä¿Â¼" for 目录. This turns such a run back into its bytes and reads them as GBK, but only
 * when the run is mostly high bytes and the result is Chinese — ordinary accented Latin text
 * ("café", "Ångström") does not decode to Han characters and is left alone.
 */

/** Windows-1252 characters of bytes 0x80–0x9F, back to their bytes. */
const CP1252: Record<number, number> = {
  0x20ac: 0x80,
  0x201a: 0x82,
  0x0192: 0x83,
  0x201e: 0x84,
  0x2026: 0x85,
  0x2020: 0x86,
  0x2021: 0x87,
  0x02c6: 0x88,
  0x2030: 0x89,
  0x0160: 0x8a,
  0x2039: 0x8b,
  0x0152: 0x8c,
  0x017d: 0x8e,
  0x2018: 0x91,
  0x2019: 0x92,
  0x201c: 0x93,
  0x201d: 0x94,
  0x2022: 0x95,
  0x2013: 0x96,
  0x2014: 0x97,
  0x02dc: 0x98,
  0x2122: 0x99,
  0x0161: 0x9a,
  0x203a: 0x9b,
  0x0153: 0x9c,
  0x017e: 0x9e,
  0x0178: 0x9f,
};

function isChinese(c: number): boolean {
  // Han, CJK and full-width punctuation, and the general punctuation GBK carries (… — “ ”).
  return (
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0x3000 && c <= 0x303f) ||
    (c >= 0xff00 && c <= 0xffef) ||
    (c >= 0x2010 && c <= 0x203b)
  );
}

/** The GBK reading of a Latin-1-looking run, or undefined when it is not one. */
export function repairGbkMojibake(run: string): string | undefined {
  const bytes: number[] = [];
  let high = 0;
  let lead = false;
  for (const ch of run) {
    const c = ch.codePointAt(0)!;
    let b = c <= 0xff ? c : CP1252[c];
    // WinAnsi draws the soft hyphen 0xAD as "-": as the second byte of a pair it was 0xAD.
    if (c === 0x2d && lead) b = 0xad;
    if (b === undefined) return undefined;
    lead = !lead && b >= 0x81 && b <= 0xfe;
    if (b >= 0x80) high++;
    bytes.push(b);
  }
  if (high < 2 || high < bytes.length * 0.5) return undefined;
  let text: string;
  try {
    text = new TextDecoder('gb18030', { fatal: true }).decode(Uint8Array.from(bytes));
  } catch {
    return undefined;
  }
  let chinese = 0;
  let other = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c < 0x80) continue;
    if (isChinese(c)) chinese++;
    else other++;
  }
  return chinese >= 1 && chinese >= (chinese + other) * 0.8 ? text : undefined;
}
