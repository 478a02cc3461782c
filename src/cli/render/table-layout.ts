import { graphemes as splitGraphemes } from '../../support/graphemes.js';
import { textWidth } from '../../support/width.js';

/**
 * How wide each column of a table may be. Widths follow the content: a column gets its natural
 * width when everything fits; otherwise the widest columns give way first, but never below the
 * widest number, date or amount in them (those are never split) nor, when there is room, below
 * their longest word. When the columns' words (up to WORD_CAP) do not fit, there is no good grid:
 * the caller draws each row as a card instead.
 */
export interface ColumnMeasure {
  /** Widest line of any cell (display columns). */
  natural: number;
  /** Widest number/date/amount/time: must stay on one line. */
  need: number;
  /** Widest word: better not split, but may be when space is short. */
  word: number;
  /** The header's width: a header is not broken while the table has room to keep it whole. */
  head: number;
}

/** A text column narrower than this reads as a vertical stripe of syllables. */
const MIN_TEXT = 6;
/** Words longer than this (URLs, paths) are allowed to break rather than widen the column. */
const WORD_CAP = 16;

/** A number, date, time, amount or percentage: digits with separators, a sign, a currency. */
const ATOM = /^[([]?[-+−±]?[$¥€£₩]?\d[\d.,:/\-–_%‰]*[%‰元万亿]?[)\]]?[,;，；。]?$/u;

export function emptyMeasure(): ColumnMeasure {
  return { natural: 0, need: 0, word: 0, head: 0 };
}

/** Measure one cell's plain text and fold it into `m`. Cost is linear in the text. */
export function measureCell(text: string, m: ColumnMeasure): void {
  for (const line of text.split('\n')) {
    const w = textWidth(line);
    if (w > m.natural) m.natural = w;
    if (w <= m.word && w <= m.need) continue;
    for (const token of line.split(/\s+/)) {
      if (!token) continue;
      const tw = runWidth(token);
      if (ATOM.test(token)) {
        if (tw > m.need) m.need = tw;
      } else if (tw > m.word) m.word = tw;
    }
  }
}

/** The widest run of `token` that a wrap cannot break (a CJK character may break either side). */
function runWidth(token: string): number {
  let best = 0;
  let run = 0;
  for (const g of splitGraphemes(token)) {
    const w = textWidth(g);
    if (w > 1) {
      best = Math.max(best, run, w);
      run = 0;
    } else run += w;
  }
  return Math.max(best, run);
}

/**
 * Widths for the columns within `avail` display columns (cell contents only, borders excluded),
 * or `undefined` when the table cannot fit as a grid.
 */
export function allocate(cols: ColumnMeasure[], avail: number): number[] | undefined {
  const natural = cols.map((c) => Math.max(1, c.natural));
  const total = sum(natural);
  if (total <= avail) return natural;
  const hard = cols.map((c, i) => Math.min(natural[i]!, Math.max(c.need, MIN_TEXT)));
  if (sum(hard) > avail) return undefined;
  const soft = cols.map((c, i) => Math.max(hard[i]!, Math.min(natural[i]!, c.word, WORD_CAP)));
  // Words cut into syllables read worse than one card per row.
  if (sum(soft) > avail) return undefined;
  return shrink(natural, withHeads(cols, soft, avail), avail);
}

/**
 * Raise floors so headers stay whole (`能否编辑`, not `能否编`/`辑`) while the room lasts: the
 * headers that need the fewest extra columns first.
 */
function withHeads(cols: ColumnMeasure[], floor: number[], avail: number): number[] {
  const out = [...floor];
  let spare = avail - sum(out);
  const want = cols.map((c, i) => Math.min(c.head, WORD_CAP) - out[i]!);
  const order = want.map((_, i) => i).sort((a, b) => want[a]! - want[b]!);
  for (const i of order) {
    if (want[i]! <= 0 || want[i]! > spare) continue;
    out[i] = out[i]! + want[i]!;
    spare -= want[i]!;
  }
  return out;
}

/** Take columns down, widest first, until they fit in `avail`; none goes below its floor. */
export function shrink(natural: number[], floor: number[], avail: number): number[] {
  const widths = [...natural];
  let excess = sum(widths) - avail;
  while (excess > 0) {
    let widest = -1;
    let second = 0;
    for (let i = 0; i < widths.length; i++) {
      if (widths[i]! <= floor[i]!) continue;
      if (widest < 0 || widths[i]! > widths[widest]!) {
        if (widest >= 0) second = Math.max(second, widths[widest]!);
        widest = i;
      } else second = Math.max(second, widths[i]!);
    }
    if (widest < 0) break;
    // Step down to the next widest (or the floor), at least one column, at most the excess.
    const step = Math.max(1, Math.min(excess, widths[widest]! - Math.max(second, floor[widest]!)));
    widths[widest]! -= step;
    excess -= step;
  }
  return widths;
}

/** Shrink column widths (widest first) until they fit in `avail` columns, none below `min`. */
export function fitColumns(natural: number[], avail: number, min = 4): number[] {
  return shrink(
    natural,
    natural.map((n) => Math.min(n, min)),
    avail,
  );
}

function sum(xs: number[]): number {
  let n = 0;
  for (const x of xs) n += x;
  return n;
}
