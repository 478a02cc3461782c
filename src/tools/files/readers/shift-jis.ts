/**
 * Short Japanese Shift-JIS text ("氏名,金額") also decodes as GB18030, into Chinese-looking
 * characters, and statistics on a few lines cannot tell: the byte pairs can. Chinese GBK text
 * is nearly all in the GB2312 area (both bytes 0xA1–0xFE); Shift-JIS puts the common kanji and
 * all kana on lead bytes 0x81–0x9F, which GB18030 reads as rare extension characters. So: most
 * pairs outside GB2312, and the bytes read as Shift-JIS to kanji and kana (not a run of
 * half-width katakana, which is what GBK text becomes in Shift-JIS).
 */
export function looksShiftJis(samples: Uint8Array[]): boolean {
  let pairs = 0;
  let gb2312 = 0;
  for (const s of samples)
    for (let i = 0; i < s.length; ) {
      const lead = s[i]!;
      const trail = s[i + 1] ?? 0;
      if (lead < 0x80) {
        i++;
        continue;
      }
      pairs++;
      if (lead >= 0xa1 && lead <= 0xf7 && trail >= 0xa1 && trail <= 0xfe) gb2312++;
      i += trail >= 0x30 && trail <= 0x39 ? 4 : 2;
    }
  if (pairs < 2 || gb2312 / pairs >= 0.5) return false;
  let text: string;
  try {
    const decoder = new TextDecoder('shift_jis', { fatal: true });
    text = samples.map((s) => decoder.decode(s, { stream: true })).join('');
  } catch {
    return false;
  }
  let japanese = 0;
  let other = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c < 0x80) continue;
    if ((c >= 0x3000 && c <= 0x30ff) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xff01 && c <= 0xff5e))
      japanese++;
    else other++;
  }
  return japanese >= 2 && japanese / (japanese + other) >= 0.9;
}
