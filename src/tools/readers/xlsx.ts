/**
 * Excel workbooks as Markdown: one `## Sheet name` section per sheet, the used rows as a table
 * (the first row is the header), numbers plain, dates as ISO dates, formulas as their cached
 * results. exceljs is loaded on first use.
 */
import type { Cell, CellValue, Workbook, Worksheet } from 'exceljs';
import { formatWallDate, mdTable } from './markdown.js';
import { DocumentError, type Extracted } from './types.js';

const DATE_FORMAT = /(^|[^"\\])[dmyhs]/i;

/** The text of one cell as a person sees it (without locale-specific thousands separators). */
export function cellText(value: CellValue, numFmt?: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return formatNumber(value, numFmt);
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return formatWallDate(value);
  if (typeof value === 'object') {
    if ('richText' in value && Array.isArray(value.richText))
      return value.richText.map((r) => r.text).join('');
    if ('formula' in value || 'sharedFormula' in value) {
      const v = value as { result?: unknown; formula?: string; sharedFormula?: string };
      if (v.result === undefined || v.result === null) return `=${v.formula ?? v.sharedFormula ?? ''}`;
      return cellText(v.result as CellValue, numFmt);
    }
    if ('hyperlink' in value) {
      const text = (value as { text?: unknown }).text;
      return typeof text === 'string' ? text : cellText(text as CellValue);
    }
    if ('error' in value) return String(value.error);
  }
  return String(value);
}

function formatNumber(n: number, numFmt?: string): string {
  if (!Number.isFinite(n)) return String(n);
  if (numFmt && numFmt !== 'General') {
    const bare = numFmt.replace(/"[^"]*"|\[[^\]]*\]/g, '');
    if (bare.includes('%')) {
      const decimals = /\.(0+)%/.exec(bare)?.[1]?.length ?? 0;
      return `${(n * 100).toFixed(decimals)}%`;
    }
    if (DATE_FORMAT.test(bare) && n > -1 && n < 2958466) return formatWallDate(excelSerialToDate(n));
  }
  return String(Number.parseFloat(n.toPrecision(15)));
}

/** Excel serial day number (1900 system) to a UTC wall-time Date. */
export function excelSerialToDate(serial: number): Date {
  return new Date(Math.round((serial - 25569) * 86400 * 1000));
}

function sheetRows(ws: Worksheet): string[][] {
  const rows: string[][] = [];
  const width = ws.actualColumnCount ? ws.columnCount : 0;
  ws.eachRow({ includeEmpty: true }, (row, rowNumber) => {
    const cells: string[] = [];
    for (let c = 1; c <= width; c++) {
      const cell: Cell = row.getCell(c);
      // Merged ranges show their value once, in the top-left cell.
      if (cell.isMerged && cell.master.address !== cell.address) {
        cells.push('');
        continue;
      }
      cells.push(cellText(cell.value, cell.numFmt));
    }
    while (rows.length < rowNumber - 1) rows.push([]);
    rows.push(cells);
  });
  // Drop fully empty rows and trailing empty columns.
  const kept = rows.filter((r) => r.some((c) => c.trim() !== ''));
  let last = 0;
  for (const r of kept) for (let i = r.length - 1; i >= last; i--) if (r[i]!.trim() !== '') last = i + 1;
  return kept.map((r) => r.slice(0, last));
}

export async function readXlsx(data: Buffer, limit: number): Promise<Extracted> {
  const { default: ExcelJS } = await import('exceljs');
  const wb: Workbook = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(data as unknown as ArrayBuffer);
  } catch (err) {
    throw new DocumentError(
      'unreadable',
      `This file cannot be read as an Excel workbook (${(err as Error).message}). It may be damaged, encrypted, or an old .xls file saved with an .xlsx name.`,
    );
  }
  const parts: string[] = [];
  const sheets: string[] = [];
  let size = 0;
  let partial = false;
  for (const ws of wb.worksheets) {
    sheets.push(ws.name);
    if (size > limit) {
      partial = true;
      continue;
    }
    const hidden = ws.state && ws.state !== 'visible' ? ' (hidden sheet)' : '';
    const rows = sheetRows(ws);
    const body = rows.length ? mdTable(rows) : '(empty sheet)';
    const section = `## ${ws.name}${hidden}\n\n${body}`;
    parts.push(section);
    size += Buffer.byteLength(section, 'utf8') + 2;
  }
  if (!sheets.length) return { text: '(This workbook has no sheets.)', sheets, partial };
  return { text: parts.join('\n\n'), sheets, partial };
}
