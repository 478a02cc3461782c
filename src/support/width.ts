/**
 * The one display width: how many terminal (or spreadsheet) columns a string takes. Used by the
 * renderer, the wrapping of UI text, the listings and the xlsx writer alike, so that a table
 * drawn on screen and a column sized in a workbook agree.
 *
 * Built on `get-east-asian-width` (Unicode's East Asian Width table: CJK and full-width forms 2,
 * ambiguous characters narrow), plus what a terminal does with clusters: combining marks, zero-
 * width and default-ignorable characters, variation selectors and the code point after a ZWJ take
 * no column; an emoji (including U+1F680–U+1F8FF) takes 2, as does a text-style pictograph made
 * emoji by VS16, a skin-tone modifier adds nothing to its emoji, a pair of regional indicators
 * (a flag) takes 2; escape sequences (colour, OSC 8 links) take none; a tab is drawn as 4 spaces.
 *
 * No Intl.Segmenter (its first use costs tens of milliseconds) and no regular expression per
 * character: printable ASCII is counted by length, and every other UTF-16 unit is classified once
 * and remembered.
 */
import { eastAsianWidth } from 'get-east-asian-width';

const ESCAPES = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Z0-9]|\x1b[=>]/g;

/** Unit classes, stored + 1 (0 = not yet classified). */
const ZERO = 0;
const NARROW = 1;
const WIDE = 2;
/** A narrow pictograph: VS16 after it makes it an emoji two columns wide. */
const PICTO = 3;
const TAB_WIDTH = 4;

const ZERO_RE = /^[\p{M}\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}]$/u;
const PICTO_RE = /^\p{Extended_Pictographic}$/u;
const EMOJI_RE = /^\p{Emoji_Presentation}$/u;
const ZWJ = 0x200d;
const VS16 = 0xfe0f;

const bmp = new Uint8Array(0x10000);
const astral = new Map<number, number>();

function classify(cp: number): number {
  const ch = String.fromCodePoint(cp);
  // Hangul vowels and final consonants join the syllable before them.
  if ((cp >= 0x1160 && cp <= 0x11ff) || (cp >= 0xd7b0 && cp <= 0xd7ff)) return ZERO;
  if (ZERO_RE.test(ch)) return ZERO;
  if (EMOJI_RE.test(ch)) return WIDE;
  const w = eastAsianWidth(cp);
  if (w === 2) return WIDE;
  return PICTO_RE.test(ch) ? PICTO : NARROW;
}

/** The class of one code point, classified once and remembered. */
function classOf(cp: number): number {
  if (cp <= 0xffff) {
    let k = bmp[cp]!;
    if (!k) {
      k = (cp >= 0xd800 && cp <= 0xdfff ? ZERO : classify(cp)) + 1;
      bmp[cp] = k;
    }
    return k - 1;
  }
  let c = astral.get(cp);
  if (c === undefined) {
    c = classify(cp);
    if (astral.size < 4096) astral.set(cp, c);
  }
  return c;
}

/** Columns `s` takes on a terminal. */
export function textWidth(s: string): number {
  const n = s.length;
  if (n === 1) {
    // One unit (the renderer measures grapheme by grapheme): no state to keep.
    const c = s.charCodeAt(0);
    if (c >= 0x20 && c < 0x7f) return 1;
    if (c === 9) return TAB_WIDTH;
    const cls = classOf(c);
    return cls === WIDE ? 2 : cls === ZERO ? 0 : 1;
  }
  let i = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c >= 0x7f) break;
    i++;
  }
  if (i === n) return n;
  if (s.includes('\x1b')) return widthFrom(s.replace(ESCAPES, ''), 0, 0);
  return widthFrom(s, i, i);
}

/** The width of `s` from unit `i` on, `width` columns already counted before it. */
function widthFrom(s: string, i: number, width: number): number {
  const n = s.length;
  /** Class of the last code point that took columns, for VS16 and skin tones. */
  let last = NARROW;
  let joined = false;
  let flagHalf = false;
  for (; i < n; i++) {
    let cp = s.charCodeAt(i);
    if (cp >= 0x20 && cp < 0x7f) {
      width++;
      last = NARROW;
      joined = flagHalf = false;
      continue;
    }
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < n) {
      const lo = s.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = ((cp - 0xd800) << 10) + (lo - 0xdc00) + 0x10000;
        i++;
      }
    }
    const cls = classOf(cp);
    if (cls === ZERO) {
      if (cp === ZWJ) joined = last !== ZERO;
      else if (cp === VS16 && last === PICTO) {
        width++;
        last = WIDE;
      } else if (cp === 9) width += TAB_WIDTH;
      continue;
    }
    // The code point a ZWJ joined to the one before, or the skin tone of an emoji: no columns.
    if (joined || (cp >= 0x1f3fb && cp <= 0x1f3ff && last === WIDE)) {
      joined = false;
      continue;
    }
    if (cp >= 0x1f1e6 && cp <= 0x1f1ff) {
      // Regional indicators pair up into one flag, two columns wide.
      flagHalf = !flagHalf;
      if (flagHalf) width += 2;
      last = WIDE;
      continue;
    }
    flagHalf = false;
    width += cls === WIDE ? 2 : 1;
    last = cls;
  }
  return width;
}

/**
 * True when every UTF-16 unit of `s` is a whole character on its own (no surrogate pairs,
 * combining marks, joiners, variation selectors or control characters): then splitting by unit
 * is splitting by grapheme, with no segmenter needed.
 */
export function unitsAreCharacters(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 0x20 && c < 0x7f) || c === 9) continue;
    if ((c >= 0xd800 && c <= 0xdfff) || classOf(c) === ZERO) return false;
  }
  return true;
}

const ESCAPE_AT = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/y;

/**
 * At most `cols` columns of `s`, cut between whole characters with `…` at the cut. Escape codes
 * are kept (and a painted string is reset after the cut, so the colour does not leak).
 */
export function cutToWidth(s: string, cols: number): string {
  if (cols <= 0) return '';
  if (textWidth(s) <= cols) return s;
  let out = '';
  let used = 0;
  let i = 0;
  while (i < s.length) {
    ESCAPE_AT.lastIndex = i;
    const m = ESCAPE_AT.exec(s);
    if (m) {
      out += m[0];
      i += m[0].length;
      continue;
    }
    const next = s.indexOf('\x1b', i);
    const text = s.slice(i, next < 0 ? s.length : next);
    for (const g of graphemes(text)) {
      const w = textWidth(g);
      if (used + w > cols - 1) return `${out}…${s.includes('\x1b[') ? '\x1b[0m' : ''}`;
      out += g;
      used += w;
    }
    i += text.length || 1;
  }
  return `${out}…`;
}

/** `s` padded with spaces to `cols` columns, aligned left, right or centred. */
export function padToWidth(
  s: string,
  cols: number,
  align: 'left' | 'right' | 'center' | null = 'left',
): string {
  const gap = Math.max(0, cols - textWidth(s));
  if (align === 'right') return ' '.repeat(gap) + s;
  if (align === 'center') return ' '.repeat(Math.floor(gap / 2)) + s + ' '.repeat(gap - Math.floor(gap / 2));
  return s + ' '.repeat(gap);
}

/** One segmenter for the process: making one costs more than a short text's split. */
let segmenter: Intl.Segmenter | undefined;

/** The process's one grapheme segmenter (support/graphemes.ts cuts titles with it too). */
export function graphemeSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter;
}

/** The characters of `text` as a person sees them; plain text is split without the segmenter. */
export function graphemes(text: string): string[] {
  if (unitsAreCharacters(text)) return text.split('');
  const out: string[] = [];
  for (const s of graphemeSegmenter().segment(text)) out.push(s.segment);
  return out;
}
