import { graphemes as splitGraphemes } from '../../support/graphemes.js';
import { visible } from '../../support/sanitize.js';
import { textWidth } from '../../support/width.js';

/** The input block as the terminal shows it: one string per screen row, and where the cursor is. */
export interface Layout {
  rows: string[];
  /** Display width of each row (to count rows again after a resize). */
  widths: number[];
  cursorRow: number;
  cursorCol: number;
}

/** How one grapheme of the typed text is drawn, and how many columns that takes. */
function cell(g: string): { text: string; width: number } {
  if (g === '\t') return { text: '    ', width: 4 };
  const text = visible(g);
  return { text, width: textWidth(text) };
}

/**
 * Lay out a prompt and the text being edited in `columns` columns: the first line after the
 * prompt, every further line (a multi-line message) after the continuation prompt, each wrapped
 * by display width (a CJK character or an emoji takes two columns and never splits across rows).
 * Rows are drawn with explicit line breaks, so the cursor position is known exactly: when the
 * cursor sits right after a full row it goes to the start of the next one.
 */
export function layout(
  prompt: string,
  continuation: string,
  text: string,
  cursor: number,
  columns: number,
): Layout {
  const cols = Math.max(4, columns);
  const rows: string[] = [];
  const widths: number[] = [];
  let row = '';
  let width = 0;
  let cursorRow = -1;
  let cursorCol = 0;
  const newRow = () => {
    rows.push(row);
    widths.push(width);
    row = '';
    width = 0;
  };
  const startLine = (head: string) => {
    const w = Math.min(textWidth(head), cols - 1);
    row = head;
    width = w;
  };
  const markCursor = () => {
    if (width >= cols) newRow();
    cursorRow = rows.length;
    cursorCol = width;
  };
  startLine(prompt);
  let offset = 0;
  for (const g of splitGraphemes(text)) {
    if (offset === cursor) markCursor();
    offset += g.length;
    if (g === '\n' || g === '\r\n') {
      newRow();
      startLine(continuation);
      continue;
    }
    const c = cell(g);
    if (width + c.width > cols) newRow();
    row += c.text;
    width += c.width;
  }
  if (cursorRow < 0) markCursor();
  newRow();
  return { rows, widths, cursorRow, cursorCol };
}

/**
 * How many rows above the cursor a block drawn at `widths` occupies after the terminal changed to
 * `columns` columns. Terminals that reflow (most do) wrap each drawn row again at the new width.
 */
export function rowsAbove(
  widths: readonly number[],
  cursorRow: number,
  cursorCol: number,
  columns: number,
): number {
  const cols = Math.max(1, columns);
  let n = 0;
  for (let i = 0; i < cursorRow && i < widths.length; i++) n += Math.max(1, Math.ceil(widths[i]! / cols));
  return n + Math.floor(cursorCol / cols);
}
