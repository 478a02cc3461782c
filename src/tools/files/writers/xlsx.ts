/**
 * Excel workbooks from `{sheets: [{name, headers, rows}]}`: a bold, frozen header row with a
 * filter, column widths from the content (CJK characters count double), and numbers stored as
 * numbers — including numeric text such as "1,234.50", "12.5%" or "¥1,200" (kept with a
 * matching number format), and ISO dates "2024-03-15" stored as dates. Text that only looks
 * numeric but is an identifier ("007", a 18-digit ID number) stays text. exceljs is loaded on
 * first use.
 */

import { pushAll } from '../../../support/arrays.js';
import { textWidth } from '../../../support/width.js';
import { PayloadError, parseIfJson, type Table, tableWidth, toTable } from './payload.js';
import { isFormula, type XlsxValue, xlsxValue } from './xlsx-cells.js';
import { recalculateWithLibreOffice } from './xlsx-recalc.js';
import { cellName, cellNotes, computeFormulas, type FormulaReport, type LaidSheet } from './xlsx-results.js';

export { isFormula, type XlsxValue, xlsxValue } from './xlsx-cells.js';

export interface SheetSpec extends Table {
  name: string;
  /** The name as given, when it had to change to satisfy Excel. */
  requestedName?: string;
}

/** Excel's limits. */
const MAX_ROWS = 1_048_575;
const MAX_COLS = 16_384;
/** Widths are measured on this many rows (enough to be right, cheap for big sheets). */
const WIDTH_SAMPLE = 1000;

/** Sheet names as Excel allows them: ≤31 characters, none of []:*?/\, not blank, unique. */
export function sanitizeSheetNames(names: (string | undefined)[]): string[] {
  const used = new Set<string>();
  return names.map((raw, i) => {
    let name = (raw ?? '')
      .replace(/[[\]:*?/\\\u0000-\u001f]/g, '_')
      .trim()
      .replace(/^'+|'+$/g, '')
      .trim();
    if (!name || name.toLowerCase() === 'history') name = name ? `${name}_` : `Sheet${i + 1}`;
    name = clip(name, 31);
    let candidate = name;
    for (let n = 2; used.has(candidate.toLowerCase()); n++) {
      const suffix = ` (${n})`;
      candidate = clip(name, 31 - suffix.length) + suffix;
    }
    used.add(candidate.toLowerCase());
    return candidate;
  });
}

function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  let out = '';
  for (const ch of s) {
    if (out.length + ch.length > max) break;
    out += ch;
  }
  return out;
}

/** The sheets of a payload: `{sheets: […]}`, one sheet `{name?, headers, rows}`, or an array of sheets. */
export function toSheets(content: unknown): SheetSpec[] {
  const value = parseIfJson(content);
  if (typeof value === 'string') throw new PayloadError('xlsx', 'content is text, not a JSON object');
  if (value === null || typeof value !== 'object')
    throw new PayloadError('xlsx', `content is ${value === null ? 'null' : `a ${typeof value}`}`);
  let list: unknown[];
  const record = value as Record<string, unknown>;
  if (!Array.isArray(value) && 'sheets' in record) {
    const sheets = parseIfJson(record.sheets);
    if (!Array.isArray(sheets)) throw new PayloadError('xlsx', '"sheets" is not an array of sheets');
    if (!sheets.length)
      throw new PayloadError('xlsx', '"sheets" is empty: a workbook needs at least one sheet');
    list = sheets;
  } else if (
    Array.isArray(value) &&
    value.length &&
    value.every((v) => v && typeof v === 'object' && !Array.isArray(v) && 'rows' in v)
  ) {
    list = value;
  } else {
    list = [value];
  }
  const requested = list.map((s) =>
    s && typeof s === 'object' && !Array.isArray(s) && typeof (s as { name?: unknown }).name === 'string'
      ? (s as { name: string }).name
      : undefined,
  );
  const names = sanitizeSheetNames(requested);
  return list.map((s, i) => {
    const table = toTable('xlsx', s, list.length > 1 || 'sheets' in record ? `sheets[${i}]` : 'content');
    if (table.rows.length > MAX_ROWS)
      throw new PayloadError('xlsx', `sheets[${i}] has ${table.rows.length} rows; Excel allows ${MAX_ROWS}`);
    if (tableWidth(table) > MAX_COLS) {
      throw new PayloadError('xlsx', `sheets[${i}] has more than ${MAX_COLS} columns, the most Excel allows`);
    }
    const name = names[i]!;
    return {
      name,
      ...table,
      ...(requested[i] !== undefined && requested[i] !== name ? { requestedName: requested[i] } : {}),
    };
  });
}

type WidthFn = (s: string) => number;

function displayWidth(width: WidthFn, v: XlsxValue): number {
  if (v.value === null) return 0;
  if (v.value instanceof Date) return v.numFmt && v.numFmt.length > 10 ? 18 : 12;
  if (isFormula(v.value)) return v.value.result === undefined ? 10 : String(v.value.result).length + 2;
  if (typeof v.value === 'number')
    return (
      String(v.value).length +
      (v.numFmt?.includes(',') ? Math.floor(String(Math.trunc(v.value)).length / 3) : 0) +
      1
    );
  if (typeof v.value === 'boolean') return 5;
  const longest = v.value.includes('\n')
    ? v.value.split('\n').reduce((m, l) => Math.max(m, width(l)), 0)
    : width(v.value);
  return longest;
}

/** Cell values of every sheet, with formula results computed across the workbook, before anything is written. */
function layout(sheets: SheetSpec[]): { laid: LaidSheet[]; report: FormulaReport } {
  const laid = sheets.map((sheet) => ({
    name: sheet.name,
    headers: sheet.headers,
    values: sheet.rows.map((cells) => cells.map((c, i) => xlsxValue(c, sheet.headers[i]))),
  }));
  return { laid, report: computeFormulas(laid) };
}

/** Column widths from the header and the first rows. */
function widthsOf(sheet: SheetSpec, values: XlsxValue[][], width: WidthFn): number[] {
  const widths = new Array<number>(Math.max(1, tableWidth(sheet))).fill(0);
  sheet.headers.forEach((h, i) => {
    widths[i] = Math.max(widths[i]!, width(h) + 2);
  });
  for (let r = 0; r < Math.min(values.length, WIDTH_SAMPLE); r++) {
    const row = values[r]!;
    for (let c = 0; c < row.length; c++) widths[c] = Math.max(widths[c]!, displayWidth(width, row[c]!));
  }
  return widths.map((w) => Math.min(60, Math.max(8, w + 2)));
}

function formulasOf(laid: LaidSheet[]): string[] {
  const out: string[] = [];
  for (const s of laid)
    for (const row of s.values) for (const v of row) if (isFormula(v.value)) out.push(v.value.formula);
  return out;
}

/** Numeric-looking text kept as text, named for the model: 'Sales'!B3 "约3万" (an approximate amount…). */
function textCells(laid: LaidSheet[]): string[] {
  const out: string[] = [];
  for (const sheet of laid) {
    const first = sheet.headers.length ? 2 : 1;
    sheet.values.forEach((row, r) => {
      row.forEach((v, c) => {
        if (v.warning)
          out.push(`${cellName(sheet.name, c + 1, r + first)} ${JSON.stringify(v.value)} (${v.warning})`);
      });
    });
  }
  return out;
}

const HEADER_FILL = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8EEF7' } } as const;

/**
 * The bytes of an .xlsx workbook for these sheets. Uses exceljs's streaming writer: it
 * compresses with Node's zlib rather than a JavaScript deflate, which makes a 1,000-row sheet
 * several times faster to produce.
 */
export async function buildXlsx(
  sheets: SheetSpec[],
): Promise<{ data: Buffer; report: FormulaReport; textCells: string[] }> {
  const { laid, report } = layout(sheets);
  return { data: await writeXlsx(sheets, laid, report.count), report, textCells: textCells(laid) };
}

/** The bytes of the workbook for these sheets as laid out (values, formats, cached results). */
async function writeXlsx(sheets: SheetSpec[], laid: LaidSheet[], formulas: number): Promise<Buffer> {
  const [{ default: ExcelJS }, { PassThrough }] = await Promise.all([
    import('exceljs'),
    import('node:stream'),
  ]);
  const width: WidthFn = textWidth;
  const chunks: Buffer[] = [];
  const stream = new PassThrough();
  stream.on('data', (c: Buffer) => chunks.push(c));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  wb.creator = 'zhi';
  wb.created = new Date();
  // The streaming writer always writes an empty <calcPr/>: ask for a full recalculation on open
  // when there are formulas, so Excel and LibreOffice compute what zhi left without a result.
  const zip = (wb as unknown as { zip: { append(data: unknown, opts: { name: string }): unknown } }).zip;
  const append = zip.append.bind(zip);
  zip.append = (data, opts) =>
    append(
      opts.name === '/xl/workbook.xml' && formulas && typeof data === 'string'
        ? data.replace(/<calcPr\b/, '<calcPr fullCalcOnLoad="1"')
        : data,
      opts,
    );
  sheets.forEach((sheet, i) => {
    const values = laid[i]!.values;
    const widths = widthsOf(sheet, values, width);
    const hasHeader = sheet.headers.length > 0;
    const ws = wb.addWorksheet(
      sheet.name,
      hasHeader ? { views: [{ state: 'frozen', xSplit: 0, ySplit: 1 }] } : {},
    );
    ws.columns = widths.map((w) => ({ width: w }));
    if (hasHeader) {
      if (values.length)
        ws.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: sheet.headers.length } };
      const head = ws.addRow(sheet.headers);
      head.eachCell((cell) => {
        cell.font = { bold: true };
        cell.fill = HEADER_FILL;
      });
      head.commit();
    }
    for (const cells of values) {
      const row = ws.addRow(cells.map((v) => v.value));
      let lines = 1;
      cells.forEach((v, c) => {
        if (v.numFmt) row.getCell(c + 1).numFmt = v.numFmt;
        if (typeof v.value === 'string' && v.value.includes('\n')) {
          row.getCell(c + 1).alignment = { wrapText: true, vertical: 'top' };
          lines = Math.max(lines, Math.min(10, v.value.split('\n').length));
        }
      });
      // Spreadsheets do not grow a row for line breaks on their own: give it room for them.
      if (lines > 1) row.height = 15 * lines;
      row.commit();
    }
    ws.commit();
  });
  await wb.commit();
  return Buffer.concat(chunks);
}

/**
 * file_write's .xlsx encoder: the payload → bytes and a one-line summary. Also the function to
 * benchmark (1,000 rows × 10 columns ≤ 0.5 s).
 */
export async function encodeXlsx(
  content: unknown,
  opts: { libreOffice?: boolean } = {},
): Promise<{ data: Buffer; summary: string; notes: string[] }> {
  const sheets = toSheets(content);
  const { laid, report } = layout(sheets);
  let data = await writeXlsx(sheets, laid, report.count);
  // What zhi could not compute, LibreOffice may (where installed): then the workbook is written again.
  if (opts.libreOffice !== false && (await recalculateWithLibreOffice(data, report, formulasOf(laid))))
    data = await writeXlsx(sheets, laid, report.count);
  const notes = sheets
    .filter((s) => s.requestedName !== undefined)
    .map((s) => `sheet name "${s.requestedName}" was changed to "${s.name}" (Excel's rules for sheet names)`);
  pushAll(notes, cellNotes(report, textCells(laid)));
  const summary = sheets
    .map((s) => `sheet "${s.name}" ${s.rows.length} row${s.rows.length === 1 ? '' : 's'}`)
    .join(', ');
  return { data, summary, notes };
}
