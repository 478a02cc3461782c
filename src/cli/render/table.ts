import type { Tokens } from 'marked';
import { maxBy, pushAll } from '../../support/arrays.js';
import { t } from '../../support/i18n/index.js';
import { padToWidth, textWidth } from '../../support/width.js';
import type { BlockContext } from './block-context.js';
import { inline } from './inline.js';
import { allocate, type ColumnMeasure, emptyMeasure, measureCell } from './table-layout.js';
import type { Theme } from './theme.js';
import { type Span, wrapSpans } from './wrap.js';

export { fitColumns } from './table-layout.js';

export type Align = 'left' | 'right' | 'center' | null;
export type Cells = Span[][];

/** A table as styled cells: what both the whole-table and the streaming renderers draw from. */
export interface TableData {
  header: Cells;
  rows: Cells[];
  aligns: Align[];
}

export function plainText(spans: Span[]): string {
  let s = '';
  for (const x of spans) s += x.text;
  return s;
}

/** The cells of one row as spans, padded to `cols` cells. */
export function rowCells(cells: Tokens.TableCell[], cols: number, theme: Theme): Cells {
  return Array.from({ length: cols }, (_, i) => (cells[i] ? inline(cells[i]!.tokens, theme) : []));
}

export function tableData(table: Tokens.Table, theme: Theme): TableData {
  const cols = table.header.length;
  return {
    header: rowCells(table.header, cols, theme),
    rows: table.rows.map((r) => rowCells(r, cols, theme)),
    aligns: Array.from({ length: cols }, (_, i) => table.align[i] ?? null),
  };
}

/** Fold one row into the running column measures. */
export function measureRow(cells: Cells, measures: ColumnMeasure[]): void {
  for (let i = 0; i < measures.length; i++) measureCell(plainText(cells[i] ?? []), measures[i]!);
}

export function measureTable(data: TableData, theme: Theme): ColumnMeasure[] {
  const measures = data.header.map(() => emptyMeasure());
  measureRow(data.header, measures);
  for (const m of measures) m.head = m.natural;
  for (const r of data.rows) measureRow(r, measures);
  // Plain output keeps a `---` separator under each header, so a column is at least 3 wide.
  if (!theme.enabled) for (const m of measures) m.natural = Math.max(3, m.natural);
  return measures;
}

/** Room left for cell contents once borders and padding ("│ a │ b │": 3 per column + 1) are drawn. */
export function cellRoom(width: number, cols: number): number {
  return width - (3 * cols + 1);
}

/**
 * A GFM table, columns sized by content (see table-layout.ts) and aligned by display width
 * (CJK characters count double), cells wrapping inside their column. With colour: box-drawing
 * borders and a bold header; without: Markdown pipes, so a copy-paste of the output is still a
 * table. A table that cannot fit as a grid is drawn as one card per row.
 */
export function renderTable(table: Tokens.Table, ctx: BlockContext): string[] {
  if (!table.header.length) return [];
  return renderTableData(tableData(table, ctx.theme), ctx);
}

/** `measures`: the columns measured already (a streamed table measured its rows as they came). */
export function renderTableData(
  data: TableData,
  ctx: BlockContext,
  measures = measureTable(data, ctx.theme),
): string[] {
  const widths = allocate(measures, cellRoom(ctx.width, data.header.length));
  if (!widths) return renderCards(data, ctx);
  const grid = new GridPainter(widths, data.aligns, ctx.theme);
  const out = grid.head(data.header);
  for (const r of data.rows) pushAll(out, grid.row(r));
  pushAll(out, grid.foot());
  return out;
}

/** Draws the parts of a grid with fixed column widths, so rows can be drawn one at a time. */
export class GridPainter {
  private readonly bar: string;

  constructor(
    readonly widths: number[],
    private readonly aligns: Align[],
    private readonly theme: Theme,
  ) {
    this.bar = theme.enabled ? theme.dim('│') : '|';
  }

  /** Top border, header row and the rule under it. */
  head(header: Cells): string[] {
    const { theme, widths } = this;
    if (theme.enabled) return [this.rule('┌', '┬', '┐'), ...this.row(header, true), this.rule('├', '┼', '┤')];
    const sep = widths.map((w, i) => {
      const a = this.aligns[i];
      const dashes = '-'.repeat(Math.max(3, w));
      if (a === 'center') return `:${dashes.slice(2)}:`;
      if (a === 'right') return `${dashes.slice(1)}:`;
      if (a === 'left') return `:${dashes.slice(1)}`;
      return dashes;
    });
    return [...this.row(header), `| ${sep.join(' | ')} |`];
  }

  foot(): string[] {
    return this.theme.enabled ? [this.rule('└', '┴', '┘')] : [];
  }

  row(cells: Cells, bold = false): string[] {
    const { theme, widths } = this;
    const wrapped = widths.map((w, i) => {
      const spans = cells[i] ?? [];
      const painted = bold && theme.enabled ? spans.map((s) => ({ text: s.text, paint: theme.bold })) : spans;
      return wrapSpans(painted, w);
    });
    let height = 0;
    for (const w of wrapped) height = Math.max(height, w.length);
    const lines: string[] = [];
    for (let k = 0; k < height; k++) {
      const parts = wrapped.map((w, i) =>
        padToWidth(w[k] ?? '', widths[i]!, k < w.length ? this.aligns[i]! : 'left'),
      );
      lines.push(`${this.bar} ${parts.join(` ${this.bar} `)} ${this.bar}`);
    }
    return lines;
  }

  private rule(left: string, mid: string, right: string): string {
    return this.theme.dim(left + this.widths.map((w) => '─'.repeat(w + 2)).join(mid) + right);
  }
}

/**
 * A table too wide for the window, as one card per row: each cell on its own line after its
 * column name, wrapped with a hanging indent. Nothing is cut and nothing overflows.
 */
export function renderCards(data: TableData, ctx: BlockContext): string[] {
  const out: string[] = [];
  const cards = new CardPainter(data.header, ctx);
  for (const [k, r] of data.rows.entries()) pushAll(out, cards.card(r, k === 0));
  return out;
}

export class CardPainter {
  private readonly labels: string[];
  private readonly labelWidth: number;
  private readonly stacked: boolean;

  constructor(
    header: Cells,
    private readonly ctx: BlockContext,
  ) {
    this.labels = header.map(plainText);
    this.labelWidth = maxBy(this.labels, textWidth, 0);
    // Long column names beside their values would leave the values no room: put them above.
    this.stacked = this.labelWidth + 2 > Math.floor(ctx.width * 0.4);
  }

  card(cells: Cells, first: boolean): string[] {
    const { theme, width } = this.ctx;
    // The colon of the language (日期：, Date:); the values start in one column after the widest.
    const colon = t('cli.label', { label: '' });
    const out: string[] = [];
    if (!first) out.push(theme.enabled ? theme.dim('─'.repeat(Math.min(width, 40))) : '');
    for (const [i, label] of this.labels.entries()) {
      const name = theme.enabled ? theme.bold(label) : label;
      const value = cells[i] ?? [];
      if (this.stacked) {
        pushAll(
          out,
          wrapSpans([{ text: `${label}${colon}`, paint: theme.enabled ? theme.bold : undefined }], width),
        );
        pushAll(out, wrapSpans(value, width, { first: '  ', rest: '  ' }));
        continue;
      }
      const gap = ' '.repeat(this.labelWidth - textWidth(label) + 2 - textWidth(colon));
      pushAll(
        out,
        wrapSpans(value, width, {
          first: `${name}${colon}${gap}`,
          rest: ' '.repeat(this.labelWidth + 2),
        }),
      );
    }
    return out;
  }
}
