import { pushAll } from '../../support/arrays.js';
import type { BlockContext } from './markdown.js';
import {
  type Align,
  CardPainter,
  type Cells,
  cellRoom,
  GridPainter,
  measureRow,
  renderTableData,
  type TableData,
} from './table.js';
import { allocate, type ColumnMeasure, emptyMeasure } from './table-layout.js';
import type { Theme } from './theme.js';

/** How much a column's live width grows when a cell outgrows it: few re-layouts, not one per row. */
const GROWTH = 1.25;

/**
 * A table that is still arriving. Rows are measured once as they come; the live view is the
 * header and as many of the newest rows as fit on the screen, laid out with widths that only
 * grow (geometrically), so a long table costs the same per row however long it gets. Rows
 * already drawn are kept as lines until the layout changes. The whole table is drawn once,
 * properly sized, when it is finished.
 */
export class LiveTable {
  readonly data: TableData;
  private readonly measures: ColumnMeasure[];
  private readonly shown: number[];
  private layoutKey = '';
  private grid: GridPainter | undefined;
  private cards: CardPainter | undefined;
  private head: string[] = [];
  private readonly drawn = new Map<number, string[]>();

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
  }

  get rowCount(): number {
    return this.data.rows.length;
  }

  add(cells: Cells): void {
    this.data.rows.push(cells);
    measureRow(cells, this.measures);
    for (const [i, m] of this.measures.entries()) {
      if (m.natural > this.shown[i]!) this.shown[i] = Math.max(m.natural, Math.ceil(this.shown[i]! * GROWTH));
    }
  }

  /** The header and the newest rows, at most `maxLines` lines. */
  live(width: number, maxLines: number): string[] {
    this.relayout(width);
    return this.newest(maxLines).lines;
  }

  /**
   * The table stopped before its end (Ctrl+C): its live view closed with the bottom border, and
   * how many earlier rows that leaves out. Costs what a live view costs however long the table
   * is: the rows are not all laid out again. `shown`: the rows in `lines`.
   */
  cut(width: number, maxLines: number): { lines: string[]; shown: number; hidden: number } {
    this.relayout(width);
    const foot = this.grid ? this.grid.foot() : [];
    const { lines, rows } = this.newest(Math.max(1, maxLines - foot.length));
    return { lines: [...lines, ...foot], shown: rows, hidden: this.data.rows.length - rows };
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

  /** The finished table, sized for all its rows. */
  full(width: number): string[] {
    return renderTableData(this.data, { width, theme: this.theme }, this.measures);
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
