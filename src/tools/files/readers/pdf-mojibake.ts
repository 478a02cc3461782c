/**
 * Chinese PDFs made by old Windows software often name a system font that is not embedded
 * (宋体, 仿宋_GB2312, 小标宋…) with a Western single-byte encoding, while the bytes drawn are GBK.
 * A viewer that substitutes a Chinese font shows Chinese; a text extractor gets Latin-1 such as
 * "Ä¿Â¼" for 目录. This turns such a run back into its bytes and reads them as GBK, but only
 * when the run is mostly high bytes and the result is Chinese — ordinary accented Latin text
 * ("café", "Ångström") does not decode to Han characters and is left alone.
 */
import iconv from 'iconv-lite';

let cp1252: Map<number, number> | undefined;

/** Windows-1252 characters of bytes 0x80–0x9F (€ ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ‘ ’ “ ” • – — ˜ ™ š › œ ž Ÿ), back to their bytes. */
function cp1252Byte(c: number): number | undefined {
  if (!cp1252) {
    cp1252 = new Map();
    for (let b = 0x80; b <= 0x9f; b++) {
      const ch = iconv.decode(Buffer.from([b]), 'windows-1252').codePointAt(0)!;
      if (ch !== b && ch !== 0xfffd) cp1252.set(ch, b);
    }
  }
  return cp1252.get(c);
}

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
    let b = c <= 0xff ? c : cp1252Byte(c);
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
