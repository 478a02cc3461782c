import { cutToWidth, textWidth } from '../../support/width.js';
import { layout, rowsAbove } from './layout.js';

const SYNC_START = '\x1b[?2026h';
const SYNC_END = '\x1b[?2026l';

/**
 * Draws the input block (prompt, text, an optional status line) and redraws it in place: it
 * remembers where the cursor sits inside the block, goes back to the block's first row, clears
 * to the end of the screen and writes the block again, inside a synchronized update so the
 * terminal never shows half a frame. After a resize it counts the rows the old block takes once
 * the terminal has re-wrapped it, so no stale prompt lines are left behind.
 */
export class EditorView {
  private drawn = false;
  private widths: number[] = [];
  private cursorRow = 0;
  private cursorCol = 0;
  private lastRow = 0;
  private columns = 80;
  /** Rows from the block's top to the cursor when the terminal changed size since the last draw. */
  private resizedUp: number | undefined;

  constructor(private readonly out: NodeJS.WritableStream & { columns?: number }) {}

  private cols(): number {
    return Math.max(4, this.out.columns || 80);
  }

  draw(prompt: string, continuation: string, text: string, cursor: number, status?: string): void {
    const cols = this.cols();
    const last = this.last;
    const same =
      this.drawn &&
      last &&
      this.resizedUp === undefined &&
      cols === this.columns &&
      last.prompt === prompt &&
      last.continuation === continuation &&
      last.text === text &&
      last.cursor === cursor &&
      last.status === status;
    if (same || this.append(prompt, continuation, text, cursor, status, cols)) return;
    const l = layout(prompt, continuation, text, cursor, cols);
    const rows = [...l.rows];
    const widths = [...l.widths];
    if (status) {
      const line = cutToWidth(status, cols - 1);
      rows.push(line);
      widths.push(textWidth(line));
    }
    let s = SYNC_START;
    if (this.drawn) {
      const up = this.resizedUp ?? this.cursorRow;
      s += `${up ? `\x1b[${up}A` : ''}\x1b[1G`;
    }
    s += `\x1b[J${rows.join('\r\n')}`;
    const lastRow = rows.length - 1;
    const up = lastRow - l.cursorRow;
    // Escape sequences only (no bare \r): the cursor goes to its row and column.
    if (up || l.cursorCol !== widths[lastRow]) s += `${up ? `\x1b[${up}A` : ''}\x1b[${l.cursorCol + 1}G`;
    s += SYNC_END;
    this.out.write(s);
    this.drawn = true;
    this.widths = widths;
    this.cursorRow = l.cursorRow;
    this.cursorCol = l.cursorCol;
    this.lastRow = lastRow;
    this.columns = cols;
    this.resizedUp = undefined;
    this.last = { prompt, continuation, text, cursor, status };
  }

  private last:
    | { prompt: string; continuation: string; text: string; cursor: number; status: string | undefined }
    | undefined;

  /**
   * Typing at the end of the input: write just the new characters when they fit on the cursor's
   * row (what a terminal would echo), instead of drawing the whole block again.
   */
  private append(
    prompt: string,
    continuation: string,
    text: string,
    cursor: number,
    status: string | undefined,
    cols: number,
  ): boolean {
    const last = this.last;
    if (!this.drawn || this.resizedUp !== undefined || cols !== this.columns || !last) return false;
    if (last.prompt !== prompt || last.continuation !== continuation || last.status !== status) return false;
    if (cursor !== text.length || !text.startsWith(last.text) || text === last.text) return false;
    if (this.cursorCol !== this.widths[this.cursorRow]) return false;
    const added = text.slice(last.text.length);
    if (/[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\u061c]/.test(added)) return false;
    const width = textWidth(added);
    // Stay off the last column: a full row leaves the cursor in the terminal's pending-wrap state.
    if (this.cursorCol + width >= cols) return false;
    this.out.write(added);
    this.cursorCol += width;
    this.widths[this.cursorRow] = this.cursorCol;
    this.last = { ...last, text, cursor };
    return true;
  }

  /** The terminal changed size: the drawn block was re-wrapped by the terminal. */
  resized(): void {
    if (!this.drawn) return;
    const cols = this.cols();
    if (cols === this.columns) return;
    this.resizedUp =
      cols > this.columns ? this.cursorRow : rowsAbove(this.widths, this.cursorRow, this.cursorCol, cols);
  }

  /** Move below the block and forget it: what is drawn next starts on a fresh line. */
  leave(): void {
    if (!this.drawn) return;
    const down = this.lastRow - this.cursorRow;
    this.out.write(`${down ? `\x1b[${down}B` : ''}\r\n`);
    this.reset();
  }

  /** Forget the block (something else was written below it): the next draw starts here. */
  reset(): void {
    this.drawn = false;
    this.last = undefined;
    this.widths = [];
    this.cursorRow = 0;
    this.cursorCol = 0;
    this.lastRow = 0;
    this.resizedUp = undefined;
  }
}
