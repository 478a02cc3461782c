/**
 * Cached results for the formulas zhi writes, so every reader (a preview, a phone, Protected
 * View, zhi itself) shows a value and not an empty cell. Computed: arithmetic and comparison
 * with Excel's precedence, & on text, references to this sheet and to others ('Sheet 1'!B2:B9),
 * whole columns, and SUM, AVERAGE, MIN, MAX, COUNT, COUNTA, ROUND(UP/DOWN), ABS, IF, IFERROR and
 * VLOOKUP with an exact match. An Excel error (#DIV/0!, #N/A) is a result too. Anything else
 * (other functions, dates, approximate lookups) gets no cached result and a reason that is told
 * to the model; the workbook asks Excel and LibreOffice to recalculate on open.
 */

import { type FormulaNode, parseFormula, Unsupported } from './xlsx-formula-parse.js';
import { type Arg, callFunction, compare, ExcelError, type Scalar, toNumber } from './xlsx-functions.js';

export { Unsupported } from './xlsx-formula-parse.js';
export { ExcelError, type Scalar } from './xlsx-functions.js';

/** A cell's content: a value, empty (null), a formula (without "="), or something zhi does not compute with (a date). */
export type CellContent = number | string | boolean | null | { formula: string } | 'other';

/** One sheet of the workbook, as the evaluator sees it. */
export interface SheetGrid {
  name: string;
  /** The last row with content (for whole-column ranges). */
  rows: number;
  cell(col: number, row: number): CellContent;
}

/** What zhi knows of a formula: its value, an Excel error, or why it was not computed. */
export type Outcome = { value: Scalar } | { error: string } | { unsupported: string };

/** Most cells a range may cover (a million-row column would stall the write). */
const MAX_RANGE = 200_000;
/** Range cells one workbook may read in all (SUM(B:B) in each of 100,000 rows would be 10^10). */
const MAX_VISITS = 5_000_000;
/** A chain of formulas each referring to the next is followed this deep (the stack is finite). */
const MAX_DEPTH = 400;

/** Evaluates formulas against a workbook, following references to other formulas. */
export class FormulaEvaluator {
  private readonly done = new Map<string, Outcome>();
  private readonly active = new Set<string>();
  private readonly byName = new Map<string, SheetGrid>();
  /** Cells read through ranges so far: the work of one write is bounded. */
  private visited = 0;

  constructor(private readonly sheets: SheetGrid[]) {
    for (const s of sheets) this.byName.set(s.name.toLowerCase(), s);
  }

  /** The outcome of `formula` (without "=") written in `sheet`; `key` names its cell, for reuse and cycles. */
  evaluate(sheet: string, formula: string, key?: string): Outcome {
    const id = key && `${sheet.toLowerCase()}!${key}`;
    if (id) {
      const known = this.done.get(id);
      if (known) return known;
      if (this.active.has(id)) return { unsupported: 'a circular reference' };
      if (this.active.size >= MAX_DEPTH)
        return { unsupported: `formulas that refer to formulas more than ${MAX_DEPTH} deep` };
      this.active.add(id);
    }
    let out: Outcome;
    try {
      const value = this.eval(parseFormula(formula), this.grid(sheet));
      out = typeof value === 'number' && !Number.isFinite(value) ? { error: '#NUM!' } : { value };
    } catch (err) {
      if (err instanceof ExcelError) out = { error: err.code };
      else if (err instanceof Unsupported) out = { unsupported: err.message };
      else if (err instanceof RangeError) out = { unsupported: 'a formula nested too deeply' };
      else throw err;
    }
    if (id) {
      this.active.delete(id);
      this.done.set(id, out);
    }
    return out;
  }

  grid(name: string | undefined, from?: SheetGrid): SheetGrid {
    if (name === undefined) return from ?? this.sheets[0]!;
    const g = this.byName.get(name.toLowerCase());
    if (!g) throw new Unsupported(`no sheet named "${name}" in this workbook`);
    return g;
  }

  /** A cell's value: empty is null; a formula is evaluated; an error is thrown on. */
  cellValue(g: SheetGrid, col: number, row: number): Scalar | null {
    const c = g.cell(col, row);
    if (c === 'other')
      throw new Unsupported(`it uses a date (${g.name} row ${row}), which zhi does not compute with`);
    if (c === null || typeof c !== 'object') return c === '' ? null : c;
    const o = this.evaluate(g.name, c.formula, `${col},${row}`);
    if ('value' in o) return o.value;
    if ('error' in o) throw new ExcelError(o.error);
    throw new Unsupported(o.unsupported);
  }

  eval(n: FormulaNode, g: SheetGrid): Scalar {
    switch (n.k) {
      case 'num':
      case 'str':
      case 'bool':
        return n.v;
      case 'ref':
        return this.cellValue(this.grid(n.sheet, g), n.col, n.row) ?? 0;
      case 'range':
        throw new Unsupported('a range used as a single value');
      case 'neg':
        return -toNumber(this.eval(n.a, g));
      case 'pct':
        return toNumber(this.eval(n.a, g)) / 100;
      case 'bin':
        return binary(n.op, this.eval(n.a, g), this.eval(n.b, g));
      case 'call':
        return callFunction(n.name, n.args, this.argsOf(g));
    }
  }

  /** How functions see their arguments: a range as cells, anything else evaluated when asked. */
  private argsOf(g: SheetGrid): (n: FormulaNode) => Arg {
    return (n) => {
      if (n.k === 'range') return { range: this.range(n, g) };
      if (n.k === 'ref') return { ref: () => this.cellValue(this.grid(n.sheet, g), n.col, n.row) };
      return { value: () => this.eval(n, g) };
    };
  }

  private range(n: Extract<FormulaNode, { k: 'range' }>, from: SheetGrid): (Scalar | null)[][] {
    const g = this.grid(n.sheet, from);
    const r2 = n.r2 === 0 ? Math.max(1, g.rows) : n.r2;
    const size = (n.c2 - n.c1 + 1) * (r2 - n.r1 + 1);
    if (size > MAX_RANGE) throw new Unsupported('a range of more than 200,000 cells');
    this.visited += size;
    if (this.visited > MAX_VISITS)
      throw new Unsupported(
        'the workbook has too many formula cells over large ranges for zhi to compute them all',
      );
    const rows: (Scalar | null)[][] = [];
    for (let r = n.r1; r <= r2; r++) {
      const row: (Scalar | null)[] = [];
      for (let c = n.c1; c <= n.c2; c++) row.push(this.cellValue(g, c, r));
      rows.push(row);
    }
    return rows;
  }
}

function binary(op: string, a: Scalar, b: Scalar): Scalar {
  switch (op) {
    case '+':
      return toNumber(a) + toNumber(b);
    case '-':
      return toNumber(a) - toNumber(b);
    case '*':
      return toNumber(a) * toNumber(b);
    case '/': {
      const d = toNumber(b);
      if (d === 0) throw new ExcelError('#DIV/0!');
      return toNumber(a) / d;
    }
    case '^':
      return toNumber(a) ** toNumber(b);
    case '&':
      return `${text(a)}${text(b)}`;
    default: {
      const c = compare(a, b);
      return op === '='
        ? c === 0
        : op === '<>'
          ? c !== 0
          : op === '<'
            ? c < 0
            : op === '>'
              ? c > 0
              : op === '<='
                ? c <= 0
                : c >= 0;
    }
  }
}

function text(v: Scalar): string {
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  return String(v);
}
