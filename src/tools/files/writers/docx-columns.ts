/**
 * Column widths of a Word table from what its cells hold (issue 45: equal widths wrapped dates
 * and phone numbers while a column of one-letter codes kept a third of the page). Each column
 * gets at least the width of its longest unbreakable short word (a date, a phone number, an
 * amount), then the rest of the page in proportion to how much more its longest cell wants.
 */
import { textWidth } from '../../../support/width.js';

/** Twentieths of a point one column of text takes at the body size, and a cell's padding. */
const DXA_PER_COLUMN = 110;
const PADDING = 180;
/** Words longer than this may wrap inside (they would take the page otherwise). */
const LONGEST_KEPT_WORD = 24;
/** A column is never narrower than this. */
const MIN_DXA = 500;

function measure(cells: string[]): { natural: number; word: number } {
  let natural = 0;
  let word = 0;
  for (const c of cells) {
    natural = Math.max(natural, Math.min(textWidth(c), 80));
    for (const w of c.split(/\s+/)) {
      const width = textWidth(w);
      // CJK text breaks between characters: only Latin words, numbers and dates are kept whole.
      if (width <= LONGEST_KEPT_WORD && width === w.length) word = Math.max(word, width);
    }
  }
  return { natural: natural * DXA_PER_COLUMN + PADDING, word: word * DXA_PER_COLUMN + PADDING };
}

/** Widths (DXA) summing to `total` for the columns whose cell texts are given column by column. */
export function columnWidths(columns: string[][], total: number): number[] {
  const m = columns.map(measure);
  const floor = m.map((x) => Math.max(MIN_DXA, x.word));
  const floorSum = floor.reduce((a, b) => a + b, 0);
  // Unbreakable words alone overflow the page: shrink them in proportion (they will wrap).
  if (floorSum >= total)
    return wholeSumming(
      floor.map((f) => (f / floorSum) * total),
      total,
    );
  const want = m.map((x, i) => Math.max(0, x.natural - floor[i]!));
  const wantSum = want.reduce((a, b) => a + b, 0);
  const spare = total - floorSum;
  return wholeSumming(
    floor.map((f, i) => f + (wantSum ? (want[i]! / wantSum) * spare : spare / floor.length)),
    total,
  );
}

/** Whole numbers summing exactly to `total`. */
function wholeSumming(widths: number[], total: number): number[] {
  const out = widths.map((w) => Math.floor(w));
  let rest = total - out.reduce((a, b) => a + b, 0);
  for (let i = 0; rest > 0; i = (i + 1) % out.length, rest--) out[i]! += 1;
  return out;
}
