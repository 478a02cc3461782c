/**
 * Excel workbooks as Markdown, streamed: one `## Sheet name` section per sheet, the used rows as
 * a table (the first row is the header), each value as Excel shows it (xlsx-format.ts). The zip
 * is opened by its central directory and each sheet's XML is inflated and parsed as a stream
 * that stops as soon as the text asked for is there — the first page of a 200,000-row sheet
 * costs what its first few thousand rows cost. Merged ranges show their value once, in the
 * top-left cell; formulas show their cached value, or say plainly that they were not calculated.
 */
import { mdTable } from './markdown.js';
import { DocumentError, type Extracted } from './types.js';
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
  if (!stream) return { rows: [], complete: true, merged: [], notCalculated: 0 };
  const rows = new Map<number, string[]>();
  const merged: string[] = [];
  let row: string[] | undefined;
  let rowNumber = 0;
  let cell: CellState | undefined;
  let capture: 'v' | 'f' | 't' | undefined;
  let phonetic = 0;
  let size = 0;
  let notCalculated = 0;
  let full = false;
  let pending: { row: string[]; col: number; index: number }[] = [];
  const xml = new XmlStream({
    open(name, a) {
      if (name === 'row') {
        rowNumber = a.r ? Number(a.r) : rowNumber + 1;
        row = [];
      } else if (name === 'c' && row) {
        const col = a.r ? (columnIndex(a.r) ?? row.length) : row.length;
        cell = {
          col,
          type: a.t ?? 'n',
          style: Number(a.s ?? 0),
          value: '',
          formula: '',
          hasValue: false,
          hasFormula: false,
        };
      } else if (cell && (name === 'v' || name === 'f' || (name === 't' && !phonetic))) {
        capture = name;
        if (name === 'f') cell.hasFormula = true;
        else cell.hasValue = true;
      } else if (name === 'rPh') phonetic++;
      else if (name === 'mergeCell' && a.ref) merged.push(a.ref);
    },
    text(t) {
      if (!cell || !capture) return;
      if (capture === 'f') cell.formula += t;
      else cell.value += t;
    },
    close(name) {
      if (name === 'v' || name === 'f' || name === 't') capture = undefined;
      else if (name === 'rPh') phonetic--;
      else if (name === 'c' && cell && row) {
        if (cell.col < MAX_COLUMNS) {
          while (row.length < cell.col) row.push('');
          const index = cell.type === 's' && cell.hasValue ? Number(cell.value) : -1;
          if (index >= 0 && parts.strings.get(index) === undefined) {
            // Not read that far into the shared strings yet: filled in after this chunk.
            pending.push({ row, col: cell.col, index });
            row[cell.col] = '';
          } else {
            const text = cellText(cell, parts, fmt);
            if (!cell.hasValue && cell.hasFormula) notCalculated++;
            row[cell.col] = text;
            size += Buffer.byteLength(text, 'utf8') + 3;
          }
        }
        cell = undefined;
      } else if (name === 'row' && row) {
        rows.set(rowNumber, row);
        row = undefined;
        if (size > budget) full = true;
      }
    },
  });
  const fill = async () => {
    if (!pending.length) return;
    let max = 0;
    for (const p of pending) if (p.index > max) max = p.index;
    await parts.strings.ensure(max);
    for (const p of pending) {
      const text = parts.strings.get(p.index) ?? '';
      p.row[p.col] = text;
      size += Buffer.byteLength(text, 'utf8') + 3;
    }
    pending = [];
    if (size > budget) full = true;
  };
  try {
    for await (const chunk of stream) {
      xml.write(chunk as Buffer);
      await fill();
      if (full) break;
    }
    if (!full) {
      xml.end();
      await fill();
    }
  } finally {
    stream.destroy();
  }
  if (!full) blankMerged(rows, merged);
  const kept = [...rows.values()].filter((r) => r.some((c) => c.trim() !== ''));
  return { rows: kept, complete: !full, merged, notCalculated };
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
    const hidden = sheet.hidden ? ' (hidden sheet)' : '';
    const rows = trimColumns(read.rows);
    const body = rows.length ? mdTable(rows) : '(empty sheet)';
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
  return { text: sections.join('\n\n'), sheets, partial, notes };
}
