/**
 * Excel workbooks as Markdown, streamed: one `## Sheet name` section per sheet, the used rows as
 * a table (the first row is the header), each value as Excel shows it (xlsx-format.ts). The zip
 * is opened by its central directory and each sheet's XML is inflated and parsed as a stream
 * that stops as soon as the text asked for is there — the first page of a 200,000-row sheet
 * costs what its first few thousand rows cost. Merged ranges show their value once, in the
 * top-left cell; formulas show their cached value, or say plainly that they were not calculated.
 */
import { mdTable } from './markdown.js';
import { DocumentError, type Extracted, type HiddenPart } from './types.js';
import { NumberFormatter, plainNumber } from './xlsx-format.js';
import { readWorkbookParts, unescapeOoxml, type WorkbookParts } from './xlsx-parts.js';
import { XmlStream } from './xml-events.js';
import { openZip, type ZipParts } from './zip.js';

/** Columns beyond this are not shown (a stray cell in column XFD must not make 16,384 columns). */
const MAX_COLUMNS = 512;

interface SheetRows {
  rows: string[][];
  /** False when reading stopped at the budget. */
  complete: boolean;
  merged: string[];
  notCalculated: number;
  /** The text of rows and columns Excel hides (`hidden="1"`), one line per row. */
  hidden: string[];
}

/** `BC12` → column index 54 (0-based), or undefined for a malformed reference. */
export function columnIndex(ref: string): number | undefined {
  let col = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) break;
    col = col * 26 + (c - 64);
  }
  return i ? col - 1 : undefined;
}

interface CellState {
  col: number;
  type: string;
  style: number;
  value: string;
  formula: string;
  hasValue: boolean;
  hasFormula: boolean;
}

/** The text of a finished cell. */
function cellText(cell: CellState, parts: WorkbookParts, fmt: NumberFormatter): string {
  const v = cell.value;
  if (!cell.hasValue) return cell.hasFormula ? `=${cell.formula} (formula, not calculated)` : '';
  switch (cell.type) {
    case 's':
      return parts.strings.get(Number(v)) ?? '';
    case 'inlineStr':
    case 'str':
      return unescapeOoxml(v);
    case 'e':
      return v;
    case 'b':
      return v === '1' || v === 'true' ? 'TRUE' : 'FALSE';
    case 'd':
      return v.replace('T', ' ').replace(/( 00:00(:00)?)?(\.000)?Z?$/, '');
    default: {
      const n = Number(v);
      if (v.trim() === '' || Number.isNaN(n)) return v;
      const code = parts.styleFormats[cell.style];
      return code ? fmt.format(n, code) : plainNumber(n);
    }
  }
}

/** Values of merged ranges other than the top-left cell are blanked, so each shows once. */
function blankMerged(rows: Map<number, string[]>, merged: string[]): void {
  for (const range of merged) {
    const m = /^([A-Z]+)(\d+):([A-Z]+)(\d+)$/.exec(range);
    if (!m) continue;
    const [c1, r1, c2, r2] = [columnIndex(m[1]!)!, Number(m[2]), columnIndex(m[3]!)!, Number(m[4])];
    for (let r = r1; r <= r2; r++) {
      const row = rows.get(r);
      if (!row) continue;
      for (let c = c1; c <= c2; c++) if ((r !== r1 || c !== c1) && c < row.length) row[c] = '';
    }
  }
}

/** Stream one sheet's rows until `budget` bytes of cell text are collected or the sheet ends. */
async function streamSheet(
  zip: ZipParts,
  path: string,
  parts: WorkbookParts,
  fmt: NumberFormatter,
  budget: number,
): Promise<SheetRows> {
  const stream = await zip.stream(path);
  if (!stream) return { rows: [], complete: true, merged: [], notCalculated: 0, hidden: [] };
  const sheet = new SheetCollector(parts, fmt, budget);
  const xml = new XmlStream({
    open: (name, a) => sheet.open(name, a),
    text: (t) => sheet.text(t),
    close: (name) => sheet.close(name),
  });
  try {
    for await (const chunk of stream) {
      xml.write(chunk as Buffer);
      await sheet.fill();
      if (sheet.full) break;
    }
    if (!sheet.full) {
      xml.end();
      await sheet.fill();
    }
  } finally {
    stream.destroy();
  }
  return sheet.result();
}

/** The rows of one sheet as its XML events arrive: cells, merged ranges, shared strings to fill. */
class SheetCollector {
  /** The budget is reached: reading stops after this chunk. */
  full = false;
  private readonly rows = new Map<number, string[]>();
  private readonly merged: string[] = [];
  private row: string[] | undefined;
  private rowNumber = 0;
  private cell: CellState | undefined;
  private capture: 'v' | 'f' | 't' | undefined;
  /** Inside phonetic hints (`<rPh>`): their text is not the cell's. */
  private phonetic = 0;
  private size = 0;
  private notCalculated = 0;
  private pending: { row: string[]; col: number; index: number }[] = [];
  private readonly hiddenRows = new Set<number>();
  /** Hidden column ranges, 0-based and inclusive. */
  private readonly hiddenCols: [number, number][] = [];

  constructor(
    private readonly parts: WorkbookParts,
    private readonly fmt: NumberFormatter,
    private readonly budget: number,
  ) {}

  open(name: string, a: Record<string, string>): void {
    if (name === 'row') {
      this.rowNumber = a.r ? Number(a.r) : this.rowNumber + 1;
      this.row = [];
      if (a.hidden === '1' || a.hidden === 'true') this.hiddenRows.add(this.rowNumber);
    } else if (name === 'col' && (a.hidden === '1' || a.hidden === 'true')) {
      this.hiddenCols.push([Number(a.min ?? 1) - 1, Number(a.max ?? a.min ?? 1) - 1]);
    } else if (name === 'c' && this.row) {
      const col = a.r ? (columnIndex(a.r) ?? this.row.length) : this.row.length;
      this.cell = {
        col,
        type: a.t ?? 'n',
        style: Number(a.s ?? 0),
        value: '',
        formula: '',
        hasValue: false,
        hasFormula: false,
      };
    } else if (this.cell && (name === 'v' || name === 'f' || (name === 't' && !this.phonetic))) {
      this.capture = name;
      if (name === 'f') this.cell.hasFormula = true;
      else this.cell.hasValue = true;
    } else if (name === 'rPh') this.phonetic++;
    else if (name === 'mergeCell' && a.ref) this.merged.push(a.ref);
  }

  text(t: string): void {
    const cell = this.cell;
    if (!cell || !this.capture) return;
    if (this.capture === 'f') cell.formula += t;
    else cell.value += t;
  }

  close(name: string): void {
    if (name === 'v' || name === 'f' || name === 't') this.capture = undefined;
    else if (name === 'rPh') this.phonetic--;
    else if (name === 'c' && this.cell && this.row) {
      if (this.cell.col < MAX_COLUMNS) this.closeCell(this.cell, this.row);
      this.cell = undefined;
    } else if (name === 'row' && this.row) {
      this.rows.set(this.rowNumber, this.row);
      this.row = undefined;
      if (this.size > this.budget) this.full = true;
    }
  }

  private closeCell(cell: CellState, row: string[]): void {
    while (row.length < cell.col) row.push('');
    const index = cell.type === 's' && cell.hasValue ? Number(cell.value) : -1;
    if (index >= 0 && this.parts.strings.get(index) === undefined) {
      // Not read that far into the shared strings yet: filled in after this chunk.
      this.pending.push({ row, col: cell.col, index });
      row[cell.col] = '';
      return;
    }
    const text = cellText(cell, this.parts, this.fmt);
    if (!cell.hasValue && cell.hasFormula) this.notCalculated++;
    row[cell.col] = text;
    this.size += Buffer.byteLength(text, 'utf8') + 3;
  }

  /** Fill in the shared strings the last chunk's cells point at, reading further into them. */
  async fill(): Promise<void> {
    const { pending } = this;
    if (!pending.length) return;
    let max = 0;
    for (const p of pending) if (p.index > max) max = p.index;
    await this.parts.strings.ensure(max);
    for (const p of pending) {
      const text = this.parts.strings.get(p.index) ?? '';
      p.row[p.col] = text;
      this.size += Buffer.byteLength(text, 'utf8') + 3;
    }
    this.pending = [];
    if (this.size > this.budget) this.full = true;
  }

  result(): SheetRows {
    if (!this.full) blankMerged(this.rows, this.merged);
    const kept = [...this.rows.values()].filter((r) => r.some((c) => c.trim() !== ''));
    const hiddenCol = (i: number) => this.hiddenCols.some(([lo, hi]) => i >= lo && i <= hi);
    const hidden = [...this.rows]
      .map(([n, r]) => (this.hiddenRows.has(n) ? r : r.filter((_, i) => hiddenCol(i))).join(' ').trim())
      .filter(Boolean);
    const notCalculated = this.notCalculated;
    return { rows: kept, complete: !this.full, merged: this.merged, notCalculated, hidden };
  }
}

/** Drop trailing columns that are empty in every row. */
function trimColumns(rows: string[][]): string[][] {
  let last = 0;
  for (const r of rows) for (let i = r.length - 1; i >= last; i--) if (r[i]!.trim() !== '') last = i + 1;
  return rows.map((r) => (r.length > last ? r.slice(0, last) : r));
}

function unreadable(err: unknown): DocumentError {
  return new DocumentError(
    'unreadable',
    `This file cannot be read as an Excel workbook (${(err as Error).message}). It may be damaged, encrypted, or an old .xls file saved with an .xlsx name.`,
  );
}

export async function readXlsx(data: Buffer, limit: number): Promise<Extracted> {
  const numfmt = await import('numfmt');
  let zip: ZipParts;
  let parts: WorkbookParts;
  try {
    zip = await openZip(data);
    parts = await readWorkbookParts(zip);
  } catch (err) {
    throw unreadable(err);
  }
  const fmt = new NumberFormatter(numfmt, parts.date1904);
  const sections: string[] = [];
  const notes: string[] = [];
  const hiddenParts: HiddenPart[] = [];
  let size = 0;
  let partial = false;
  for (const sheet of parts.sheets) {
    if (size > limit) {
      partial = true;
      break;
    }
    let read: SheetRows;
    try {
      read = await streamSheet(zip, sheet.path, parts, fmt, limit - size);
    } catch (err) {
      await parts.strings.close();
      throw unreadable(err);
    }
    if (!read.complete) partial = true;
    const hidden = sheet.hidden ? ' (hidden sheet, not shown in Excel)' : '';
    const rows = trimColumns(read.rows);
    const body = rows.length ? mdTable(rows) : '(empty sheet)';
    if (sheet.hidden && rows.length)
      hiddenParts.push({ kind: 'sheet', sheet: sheet.name, text: rows.map((r) => r.join(' ')).join('\n') });
    else if (read.hidden.length) {
      hiddenParts.push({ kind: 'cells', sheet: sheet.name, text: read.hidden.join('\n') });
      notes.push(
        `${sheet.name}: ${read.hidden.length} row(s) with hidden rows or columns, not shown in Excel`,
      );
    }
    const section = `## ${sheet.name}${hidden}\n\n${body}`;
    sections.push(section);
    size += Buffer.byteLength(section, 'utf8') + 2;
    if (read.merged.length && read.complete)
      notes.push(
        `${sheet.name}: merged cells ${read.merged.slice(0, 10).join(', ')}${read.merged.length > 10 ? ', …' : ''} (value shown once, in the top-left cell)`,
      );
    if (read.notCalculated)
      notes.push(
        `${sheet.name}: ${read.notCalculated} formula(s) without a saved result, shown as "(formula, not calculated)"`,
      );
  }
  await parts.strings.close();
  const sheets = parts.sheets.map((s) => s.name);
  if (!sheets.length) return { text: '(This workbook has no sheets.)', sheets, partial };
  return {
    text: sections.join('\n\n'),
    sheets,
    partial,
    notes,
    ...(hiddenParts.length ? { hidden: hiddenParts } : {}),
  };
}

/** Each sheet's rows as text (the web page's preview of a workbook zhi wrote), up to `limit` bytes. */
export async function readXlsxSheets(
  data: Buffer,
  limit: number,
): Promise<{ name: string; rows: string[][] }[]> {
  const numfmt = await import('numfmt');
  let zip: ZipParts;
  let parts: WorkbookParts;
  try {
    zip = await openZip(data);
    parts = await readWorkbookParts(zip);
  } catch (err) {
    throw unreadable(err);
  }
  const fmt = new NumberFormatter(numfmt, parts.date1904);
  const sheets: { name: string; rows: string[][] }[] = [];
  let size = 0;
  try {
    for (const sheet of parts.sheets) {
      if (size > limit) break;
      const read = await streamSheet(zip, sheet.path, parts, fmt, limit - size);
      const rows = trimColumns(read.rows);
      sheets.push({ name: sheet.name, rows });
      size += rows.reduce((n, r) => n + r.join('').length, 0);
    }
  } catch (err) {
    throw unreadable(err);
  } finally {
    await parts.strings.close();
  }
  return sheets;
}
