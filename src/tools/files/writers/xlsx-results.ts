/**
 * The cached result and number format of every formula in a workbook zhi writes, computed
 * across its sheets (xlsx-formula.ts), and the list of those it could not compute, for the
 * model. The format follows what the formula refers to: a SUM of yuan amounts is shown in yuan,
 * an AVERAGE with two decimals, a ROUND with its digits, a ratio of two amounts as plain.
 */

import { isFormula, type XlsxValue } from './xlsx-cells.js';
import { type CellContent, FormulaEvaluator, type SheetGrid } from './xlsx-formula.js';
import { type FormulaNode, parseFormula } from './xlsx-formula-parse.js';

/** A sheet's cells as they will be written; row 1 is the header when there is one. */
export interface LaidSheet {
  name: string;
  headers: string[];
  values: XlsxValue[][];
}

export interface FormulaReport {
  count: number;
  /** `'Summary'!B4 =FOO(A1): FOO is not among …`: formulas left without a cached result. */
  notComputed: string[];
  /** The cells of `notComputed`, in the same order, for a recalculation by LibreOffice. */
  pending: { sheet: string; col: number; row: number; cell: XlsxValue }[];
  /** Formulas whose value LibreOffice's recalculation supplied. */
  byLibreOffice: string[];
  /** `'Summary'!B5 =A1/0 gives #DIV/0!`. */
  errors: string[];
}

export function columnLetters(col: number): string {
  let s = '';
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** Where a cell is, for the model: 'Sheet 1'!B4. */
export function cellName(sheet: string, col: number, row: number): string {
  return `'${sheet.replace(/'/g, "''")}'!${columnLetters(col)}${row}`;
}

function slot(sheet: LaidSheet, col: number, row: number): XlsxValue | undefined {
  const first = sheet.headers.length ? 2 : 1;
  return sheet.values[row - first]?.[col - 1];
}

function gridOf(sheet: LaidSheet): SheetGrid {
  const first = sheet.headers.length ? 2 : 1;
  return {
    name: sheet.name,
    rows: sheet.values.length + first - 1,
    cell(col, row): CellContent {
      if (row < first) return row >= 1 ? (sheet.headers[col - 1] ?? null) || null : null;
      const v = slot(sheet, col, row)?.value;
      if (v === undefined || v === null) return null;
      if (v instanceof Date) return 'other';
      if (isFormula(v)) return { formula: v.formula };
      return v;
    },
  };
}

/** Fill in each formula's cached result and number format; say which could not be computed. */
export function computeFormulas(sheets: LaidSheet[]): FormulaReport {
  const ev = new FormulaEvaluator(sheets.map(gridOf));
  const formats = new ResultFormats(sheets);
  const report: FormulaReport = { count: 0, notComputed: [], pending: [], byLibreOffice: [], errors: [] };
  for (const sheet of sheets) {
    const first = sheet.headers.length ? 2 : 1;
    sheet.values.forEach((row, r) => {
      row.forEach((cell, c) => {
        if (!isFormula(cell.value)) return;
        report.count++;
        const where = `${cellName(sheet.name, c + 1, r + first)} =${cell.value.formula}`;
        const out = ev.evaluate(sheet.name, cell.value.formula, `${c + 1},${r + first}`);
        if ('unsupported' in out) {
          report.notComputed.push(`${where} (${out.unsupported})`);
          report.pending.push({ sheet: sheet.name, col: c + 1, row: r + first, cell });
          return;
        }
        if ('error' in out) {
          cell.value.result = { error: out.error };
          report.errors.push(`${where} gives ${out.error}`);
          return;
        }
        cell.value.result = out.value;
        if (typeof out.value === 'number' && !cell.numFmt) {
          const fmt = formats.of(sheet, c + 1, r + first);
          if (fmt) cell.numFmt = hidesFraction(fmt, out.value) ? withDecimals(fmt, 2) : fmt;
          else if (!Number.isInteger(out.value)) cell.numFmt = '#,##0.00';
        }
      });
    });
  }
  return report;
}

/** A format without decimals would show a small fraction as a different number (0.89 as "1"). */
function hidesFraction(fmt: string, value: number): boolean {
  return !Number.isInteger(value) && Math.abs(value) < 100 && !/\.0|%/.test(fmt);
}

/** `#,##0` → `#,##0.00`, `"¥"#,##0.0"元"` → `"¥"#,##0.00"元"`, in every section. */
export function withDecimals(fmt: string, digits: number): string {
  const d = digits > 0 ? `.${'0'.repeat(digits)}` : '';
  return fmt.replace(/(#,##0|(?<![#,.\d])0)(?:\.0+)?/g, `$1${d}`);
}

/** The number format a formula's result takes from what it refers to. */
class ResultFormats {
  private readonly memo = new Map<string, string | undefined>();
  private readonly byName = new Map<string, LaidSheet>();
  /** How deep formulas referring to formulas are followed (the stack is finite). */
  private depth = 0;

  constructor(sheets: LaidSheet[]) {
    for (const s of sheets) this.byName.set(s.name.toLowerCase(), s);
  }

  of(sheet: LaidSheet, col: number, row: number): string | undefined {
    const key = `${sheet.name.toLowerCase()}!${col},${row}`;
    if (this.memo.has(key)) return this.memo.get(key);
    this.memo.set(key, undefined); // a cycle has no format
    const v = slot(sheet, col, row);
    let fmt = v?.numFmt;
    if (!fmt && v && isFormula(v.value) && this.depth < 400) {
      this.depth++;
      try {
        fmt = this.node(parseFormula(v.value.formula), sheet);
      } catch {
        fmt = undefined;
      }
      this.depth--;
    }
    if (fmt && /[ymdhs]/.test(fmt.replace(/"[^"]*"/g, ''))) fmt = undefined; // dates are not amounts
    this.memo.set(key, fmt);
    return fmt;
  }

  private sheetOf(name: string | undefined, from: LaidSheet): LaidSheet | undefined {
    return name === undefined ? from : this.byName.get(name.toLowerCase());
  }

  /** The first format found in a range (a column of amounts shares one). */
  private range(n: Extract<FormulaNode, { k: 'range' }>, from: LaidSheet, col?: number): string | undefined {
    const s = this.sheetOf(n.sheet, from);
    if (!s) return undefined;
    const last = Math.min(n.r2 === 0 ? s.values.length + 1 : n.r2, n.r1 + 1000);
    for (let r = n.r1; r <= last; r++)
      for (let c = col ?? n.c1; c <= (col ?? n.c2); c++) {
        const f = this.of(s, c, r);
        // "0.0" only repeats how one cell was written (12.5 beside 8): not a column's format
        if (f && !/^0(\.0+)?$/.test(f)) return f;
      }
    return undefined;
  }

  private node(n: FormulaNode, from: LaidSheet): string | undefined {
    switch (n.k) {
      case 'ref': {
        const s = this.sheetOf(n.sheet, from);
        return s && this.of(s, n.col, n.row);
      }
      case 'range':
        return this.range(n, from);
      case 'neg':
        return this.node(n.a, from);
      case 'bin':
        return this.binary(n, from);
      case 'call':
        return this.call(n, from);
      default:
        return undefined;
    }
  }

  private binary(n: Extract<FormulaNode, { k: 'bin' }>, from: LaidSheet): string | undefined {
    const [a, b] = [this.node(n.a, from), this.node(n.b, from)];
    const pct = (f: string | undefined): boolean => !!f?.includes('%');
    if (n.op === '+' || n.op === '-') return a ?? b;
    // price × quantity takes the price's money format; a plain "0.0" (as a factor was written) is dropped
    if (n.op === '*') return pct(a) ? b : pct(b) ? a : [a, b].find((f) => f && /[#"¥$€£]/.test(f));
    // amount / count is an amount; amount / amount is a ratio, shown plain
    if (n.op === '/') return a && b ? undefined : a;
    return undefined;
  }

  private call(n: Extract<FormulaNode, { k: 'call' }>, from: LaidSheet): string | undefined {
    const first = n.args[0] && this.node(n.args[0], from);
    switch (n.name) {
      case 'SUM':
      case 'MIN':
      case 'MAX':
      case 'ABS':
      case 'IFERROR':
        return first;
      case 'AVERAGE':
        return withDecimals(first && !first.includes('%') ? first : '#,##0', 2);
      case 'ROUND':
      case 'ROUNDUP':
      case 'ROUNDDOWN': {
        const d = n.args[1];
        if (d?.k === 'neg') return withDecimals(first ?? '#,##0', 0); // ROUND(x,-2): hundreds
        return d?.k === 'num' ? withDecimals(first ?? '#,##0', d.v) : first;
      }
      case 'IF':
        return (n.args[1] && this.node(n.args[1], from)) ?? (n.args[2] && this.node(n.args[2], from));
      case 'VLOOKUP': {
        const table = n.args[1];
        const col = n.args[2];
        return table?.k === 'range' && col?.k === 'num'
          ? this.range(table, from, table.c1 + col.v - 1)
          : undefined;
      }
      default:
        return undefined;
    }
  }
}

/** Most cells named in one note: enough to act on, short enough for the context. */
const LISTED = 8;

function listed(items: string[]): string {
  const more = items.length - LISTED;
  return `${items.slice(0, LISTED).join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

/** What the model is told about cells that are not what they may seem. */
export function cellNotes(report: FormulaReport, textCells: string[]): string[] {
  const notes: string[] = [];
  if (textCells.length)
    notes.push(
      `${textCells.length} cell(s) look numeric but were kept as text, because they do not say one exact number: ${listed(textCells)}. Write them as plain numbers (e.g. 30000 for 3万) if they are amounts`,
    );
  if (report.notComputed.length)
    notes.push(
      `${report.notComputed.length} of ${report.count} formula(s) were not computed by zhi and have no saved value until the file is opened in Excel or LibreOffice (which recalculate on open): ${listed(report.notComputed)}`,
    );
  if (report.byLibreOffice.length)
    notes.push(
      `${report.byLibreOffice.length} formula(s) zhi does not compute were given their values by LibreOffice's recalculation: ${listed(report.byLibreOffice)}`,
    );
  if (report.errors.length) notes.push(`formula(s) whose result is an error: ${listed(report.errors)}`);
  return notes;
}
