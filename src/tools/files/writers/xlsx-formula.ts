/**
 * Cached results for the formulas zhi writes, so every reader (a preview, a phone, zhi itself)
 * shows a number and not an empty cell. The subset computed: numbers, cell references (A1,
 * $A$1) to this sheet, + - * / ^ and parentheses, unary minus, and SUM, AVERAGE, MIN, MAX and
 * COUNT over ranges and lists. Anything else (other functions, other sheets, text, dates) gets
 * no cached result; the workbook asks Excel and LibreOffice to recalculate on open.
 */

import { maxOf } from '../../../support/arrays.js';

/** A sheet's cells by Excel address ("B2"): a number, a formula (without "="), or anything else. */
export type CellLookup = (col: number, row: number) => number | { formula: string } | undefined | 'other';

const FUNCS: Record<string, (xs: number[]) => number | undefined> = {
  SUM: (xs) => xs.reduce((a, b) => a + b, 0),
  AVERAGE: (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : undefined),
  MIN: (xs) => (xs.length ? -maxOf(xs.map((x) => -x)) : 0),
  MAX: (xs) => (xs.length ? maxOf(xs) : 0),
  COUNT: (xs) => xs.length,
};

/** Most cells a range may cover (a whole column would be a million). */
const MAX_RANGE = 100_000;

class Unsupported extends Error {}

function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

/** Evaluates formulas against one sheet, following references to other formulas once. */
export class FormulaEvaluator {
  private readonly done = new Map<string, number | undefined>();
  private readonly active = new Set<string>();

  constructor(private readonly cell: CellLookup) {}

  /** The value of `formula` (without "="), or undefined when it is outside the subset. */
  evaluate(formula: string, key?: string): number | undefined {
    if (key && this.done.has(key)) return this.done.get(key);
    if (key && this.active.has(key)) return undefined; // a cycle
    if (key) this.active.add(key);
    let out: number | undefined;
    try {
      const p = new Parser(formula, this);
      out = p.parse();
      if (!Number.isFinite(out)) out = undefined;
    } catch {
      out = undefined;
    }
    if (key) {
      this.active.delete(key);
      this.done.set(key, out);
    }
    return out;
  }

  /** A referenced cell as a number: empty is 0; text, dates and errors are outside the subset. */
  value(col: number, row: number, inRange: boolean): number | undefined {
    const c = this.cell(col, row);
    if (c === undefined) return inRange ? undefined : 0;
    if (c === 'other') {
      if (inRange) return undefined;
      throw new Unsupported();
    }
    if (typeof c === 'number') return c;
    const v = this.evaluate(c.formula, `${col},${row}`);
    if (v === undefined) throw new Unsupported();
    return v;
  }
}

const TOKEN =
  /\s*(?:(\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?)|(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?%?)|([A-Za-z]+)\s*\(|([-+*/^(),]))/y;

/** Recursive descent over the formula text. */
class Parser {
  private at = 0;
  private tokens: string[][] = [];

  constructor(
    src: string,
    private readonly ev: FormulaEvaluator,
  ) {
    TOKEN.lastIndex = 0;
    while (TOKEN.lastIndex < src.trimEnd().length) {
      const m = TOKEN.exec(src);
      if (!m) throw new Unsupported();
      this.tokens.push(
        m[1] ? ['ref', m[1]] : m[2] ? ['num', m[2]] : m[3] ? ['fn', m[3].toUpperCase()] : ['op', m[4]!],
      );
    }
  }

  parse(): number {
    const v = this.sum();
    if (this.at !== this.tokens.length) throw new Unsupported();
    return v;
  }

  private peek(): string[] | undefined {
    return this.tokens[this.at];
  }
  private isOp(op: string): boolean {
    const t = this.peek();
    return t?.[0] === 'op' && t[1] === op;
  }

  private sum(): number {
    let v = this.product();
    while (this.isOp('+') || this.isOp('-'))
      v = this.tokens[this.at++]![1] === '+' ? v + this.product() : v - this.product();
    return v;
  }
  private product(): number {
    let v = this.power();
    while (this.isOp('*') || this.isOp('/')) {
      const op = this.tokens[this.at++]![1];
      const r = this.power();
      if (op === '/' && r === 0) throw new Unsupported(); // #DIV/0! is Excel's to show
      v = op === '*' ? v * r : v / r;
    }
    return v;
  }
  private power(): number {
    const v = this.unary();
    if (this.isOp('^')) {
      this.at++;
      return v ** this.power();
    }
    return v;
  }
  private unary(): number {
    if (this.isOp('-')) {
      this.at++;
      return -this.unary();
    }
    if (this.isOp('+')) {
      this.at++;
      return this.unary();
    }
    return this.atom();
  }
  private atom(): number {
    const t = this.tokens[this.at++];
    if (!t) throw new Unsupported();
    if (t[0] === 'num') return t[1]!.endsWith('%') ? Number(t[1]!.slice(0, -1)) / 100 : Number(t[1]);
    if (t[0] === 'ref') {
      if (t[1]!.includes(':')) throw new Unsupported();
      const [col, row] = this.address(t[1]!);
      return this.ev.value(col, row, false)!;
    }
    if (t[0] === 'fn') return this.call(t[1]!);
    if (t[1] === '(') {
      const v = this.sum();
      if (!this.isOp(')')) throw new Unsupported();
      this.at++;
      return v;
    }
    throw new Unsupported();
  }

  private call(name: string): number {
    const fn = FUNCS[name];
    if (!fn) throw new Unsupported();
    const xs: number[] = [];
    while (!this.isOp(')')) {
      const t = this.peek();
      if (t?.[0] === 'ref' && t[1]!.includes(':')) {
        this.at++;
        this.range(t[1]!, xs);
      } else xs.push(this.sum());
      if (this.isOp(',')) this.at++;
      else if (!this.isOp(')')) throw new Unsupported();
    }
    this.at++;
    const v = fn(xs);
    if (v === undefined) throw new Unsupported();
    return v;
  }

  /** Numbers of a range; empty and text cells are skipped, as Excel's SUM skips them. */
  private range(ref: string, xs: number[]): void {
    const [a, b] = ref.split(':') as [string, string];
    const [c1, r1] = this.address(a);
    const [c2, r2] = this.address(b);
    const [cl, ch, rl, rh] = [Math.min(c1, c2), Math.max(c1, c2), Math.min(r1, r2), Math.max(r1, r2)];
    if ((ch - cl + 1) * (rh - rl + 1) > MAX_RANGE) throw new Unsupported();
    for (let r = rl; r <= rh; r++)
      for (let c = cl; c <= ch; c++) {
        const v = this.ev.value(c, r, true);
        if (v !== undefined) xs.push(v);
      }
  }

  private address(ref: string): [number, number] {
    const m = /^\$?([A-Za-z]+)\$?(\d+)$/.exec(ref);
    if (!m) throw new Unsupported();
    return [columnNumber(m[1]!), Number(m[2])];
  }
}
