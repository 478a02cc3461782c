import { pushAll } from '../../support/arrays.js';
import type { BlockContext } from './markdown.js';
import {
  type Align,
  CardPainter,
  type Cells,
  cellRoom,
  GridPainter,
  measureRow,
  plainText,
  renderTableData,
  type TableData,
} from './table.js';
import { allocate, type ColumnMeasure, emptyMeasure } from './table-layout.js';
import type { Theme } from './theme.js';

/** A count or an amount (a row number, 1,234.50, ¥98, 12%): numbers that get longer down a table. */
const COUNT = /^[-+−]?[$¥€£]?\d[\d,.]*[%万元]?$/u;

/** How much a column's live width grows when a cell outgrows it: few re-layouts, not one per row. */
const GROWTH = 1.25;

/**
 * A table that is still arriving. Rows are measured once as they come. While the table fits in
 * the live area it is shown whole there, laid out with widths that only grow (geometrically), so
 * a long table costs the same per row however long it gets, and drawn once more, properly sized,
 * when it is finished. Once it is taller than the live area its layout is settled: what is shown
 * is printed for good and every later row is printed once as it arrives, in the same columns (a
 * wider cell wraps inside its column). Redrawing the newest rows every frame instead wrote 34×
 * the answer's bytes to the terminal for a 172-row table (issue 44).
 */
export class LiveTable {
  readonly data: TableData;
  private readonly measures: ColumnMeasure[];
  private readonly shown: number[];
  /** Columns holding counts or amounts (not dates or times): their numbers grow longer. */
  private readonly counts: boolean[];
  private layoutKey = '';
  private grid: GridPainter | undefined;
  private cards: CardPainter | undefined;
  private head: string[] = [];
  private readonly drawn = new Map<number, string[]>();
  /** Once the layout is settled: the width it was laid out for, and the rows printed so far. */
  private settledWidth: number | undefined;
  private printed = 0;

  constructor(
    header: Cells,
    aligns: Align[],
    private readonly theme: Theme,
  ) {
    this.data = { header, rows: [], aligns };
    this.measures = header.map(() => emptyMeasure());
    measureRow(header, this.measures);
    for (const m of this.measures) m.head = m.natural;
    if (!theme.enabled) for (const m of this.measures) m.natural = Math.max(3, m.natural);
    this.shown = this.measures.map((m) => m.natural);
    this.counts = this.measures.map(() => false);
  }

  get rowCount(): number {
    return this.data.rows.length;
  }

  add(cells: Cells): void {
    this.data.rows.push(cells);
    measureRow(cells, this.measures);
    for (const [i, c] of cells.entries()) this.counts[i] ||= COUNT.test(plainText(c).trim());
    for (const [i, m] of this.measures.entries()) {
      if (m.natural > this.shown[i]!) this.shown[i] = Math.max(m.natural, Math.ceil(this.shown[i]! * GROWTH));
    }
  }

  /**
   * Lines to print for good now: none while the table fits in `maxLines`; once it does not, all
   * of it so far, then each new row. A new width (the window was resized), or a number too long
   * for its column (row 100 under "99"), closes the part printed and starts again under a header
   * laid out for it: a number is never broken across lines.
   */
  settle(width: number, maxLines: number): string[] {
    if (this.settledWidth === undefined) {
      this.relayout(width);
      if (this.fits(maxLines)) return [];
      this.settledWidth = width;
      this.settleLayout(width);
      return this.rest([...this.head]);
    }
    const out: string[] = [];
    const widths = this.grid?.widths;
    const outgrown = widths !== undefined && this.measures.some((m, i) => m.need > widths[i]!);
    if (width !== this.settledWidth || outgrown) {
      pushAll(out, this.foot());
      this.settledWidth = width;
      this.settleLayout(width);
      pushAll(out, this.head);
    }
    return this.rest(out);
  }

  /** The header and the newest rows, at most `maxLines` lines (nothing once settled: it is printed). */
  live(width: number, maxLines: number): string[] {
    if (this.settledWidth !== undefined) return [];
    this.relayout(width);
    return this.newest(maxLines).lines;
  }

  /** The header and as many of the newest rows as fit in `maxLines` lines (at least one row). */
  private newest(maxLines: number): { lines: string[]; rows: number } {
    const rows: string[][] = [];
    let used = this.head.length;
    for (let r = this.data.rows.length - 1; r >= 0; r--) {
      const lines = this.rowLines(r);
      if (used + lines.length > maxLines && rows.length) break;
      rows.push(lines);
      used += lines.length;
    }
    const out = [...this.head];
    for (let k = rows.length - 1; k >= 0; k--) pushAll(out, rows[k]!);
    return { lines: out.length > maxLines ? out.slice(out.length - maxLines) : out, rows: rows.length };
  }

  /** What is left to print of the finished table: all of it, sized for all its rows, unless settled. */
  end(width: number): string[] {
    if (this.settledWidth === undefined)
      return renderTableData(this.data, { width, theme: this.theme }, this.measures);
    const lines = this.settle(width, 0);
    pushAll(lines, this.foot());
    return lines;
  }

  /**
   * The layout a settled table is printed in. A column of counts (row numbers, amounts) gets room
   * to grow by a quarter, taken from text columns if need be (text wraps; a number does not), so
   * "99" → "100" a hundred rows later does not start a new part; without such room, the columns
   * as they are (`shown`), each at least as wide as its widest number.
   */
  private settleLayout(width: number): void {
    const room = cellRoom(width, this.measures.length);
    const now = this.measures.map((m, i) => ({ ...m, natural: Math.max(this.shown[i]!, m.natural) }));
    const roomy = now.map((m, i) => {
      // Text wraps, and dates and times keep their width.
      if (m.need < this.measures[i]!.natural || !this.counts[i]) return m;
      const w = Math.max(
        m.natural,
        this.measures[i]!.natural + 1,
        Math.ceil(this.measures[i]!.natural * GROWTH),
      );
      return { ...m, natural: w, need: w };
    });
    // Once printed as a grid, a table stays one: words may break rather than the rest become cards.
    const widths =
      allocate(roomy, room) ??
      allocate(
        now.map((m) => ({ ...m, word: 0 })),
        room,
      );
    if (widths) for (const [i, w] of widths.entries()) this.shown[i] = w;
    this.relayout(width);
  }

  /** Whether the header and every row fit in `maxLines` lines (counts at most that many). */
  private fits(maxLines: number): boolean {
    let used = this.head.length;
    for (let r = this.data.rows.length - 1; r >= 0 && used <= maxLines; r--) used += this.rowLines(r).length;
    return used <= maxLines;
  }

  /** `out` with the rows not printed yet added: they are printed now and never drawn again. */
  private rest(out: string[]): string[] {
    for (; this.printed < this.data.rows.length; this.printed++) pushAll(out, this.rowLines(this.printed));
    this.drawn.clear();
    return out;
  }

  private foot(): string[] {
    return this.grid ? this.grid.foot() : [];
  }

  private rowLines(r: number): string[] {
    let lines = this.drawn.get(r);
    if (!lines) {
      const cells = this.data.rows[r]!;
      lines = this.grid ? this.grid.row(cells) : this.cards!.card(cells, r === 0);
      this.drawn.set(r, lines);
    }
    return lines;
  }

  private relayout(width: number): void {
    const key = `${width}:${this.shown.join(',')}`;
    if (key === this.layoutKey) return;
    this.layoutKey = key;
    this.drawn.clear();
    const measures = this.measures.map((m, i) => ({ ...m, natural: this.shown[i]! }));
    const widths = allocate(measures, cellRoom(width, measures.length));
    const ctx: BlockContext = { width, theme: this.theme };
    if (widths) {
      this.grid = new GridPainter(widths, this.data.aligns, this.theme);
      this.cards = undefined;
      this.head = this.grid.head(this.data.header);
    } else {
      this.grid = undefined;
      this.cards = new CardPainter(this.data.header, ctx);
      this.head = [];
    }
  }
}
