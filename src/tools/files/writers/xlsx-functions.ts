/**
 * The spreadsheet functions zhi computes for cached formula results, with Excel's rules for
 * what each one counts: SUM and friends skip text and empty cells in ranges but not in direct
 * arguments; AVERAGE of nothing is #DIV/0!; VLOOKUP is computed for an exact match only.
 */

import { maxOf } from '../../../support/arrays.js';
import { type FormulaNode, Unsupported } from './xlsx-formula-parse.js';

export type Scalar = number | string | boolean;

/** An Excel error value (#DIV/0!, #N/A, #VALUE!): thrown, and caught where Excel catches it. */
export class ExcelError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

/** A value in arithmetic: booleans are 1/0, numeric text its number, other text #VALUE!. */
export function toNumber(v: Scalar | null): number {
  if (v === null) return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  const n = v.trim() === '' ? Number.NaN : Number(v);
  if (Number.isNaN(n)) throw new ExcelError('#VALUE!');
  return n;
}

/** Excel's ordering for comparisons: numbers < text < booleans; text without case. */
export function compare(a: Scalar, b: Scalar): number {
  const rank = (v: Scalar): number => (typeof v === 'number' ? 0 : typeof v === 'string' ? 1 : 2);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (typeof a === 'string' && typeof b === 'string') {
    const [x, y] = [a.toLowerCase(), b.toLowerCase()];
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return Number(a) - Number(b);
}

/** A function's argument: the cells of a range, one referenced cell, or a value computed on demand (IF is lazy). */
export type Arg = { range: (Scalar | null)[][] } | { ref: () => Scalar | null } | { value: () => Scalar };

function scalar(a: Arg): Scalar {
  if ('value' in a) return a.value();
  if ('ref' in a) return a.ref() ?? 0;
  if (a.range.length === 1 && a.range[0]!.length === 1) return a.range[0]![0] ?? 0;
  throw new Unsupported('a range used as a single value');
}

/** The numbers SUM, AVERAGE, MIN, MAX and COUNT see. `strict`: text in a direct argument is #VALUE!. */
function numbers(args: Arg[], strict: boolean): number[] {
  const out: number[] = [];
  for (const a of args) {
    if ('value' in a) {
      const v = a.value();
      if (strict) out.push(toNumber(v));
      else if (typeof v === 'number' || typeof v === 'boolean' || !Number.isNaN(Number(v)))
        out.push(toNumber(v));
      continue;
    }
    const cells = 'ref' in a ? [[a.ref()]] : a.range;
    for (const row of cells) for (const v of row) if (typeof v === 'number') out.push(v);
  }
  return out;
}

function sum(xs: number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}

/** Rounding half away from zero to `digits` places, as Excel's ROUND does. */
function round(x: number, digits: number, mode: 'near' | 'up' | 'down'): number {
  const d = Math.trunc(digits);
  const f = 10 ** d;
  const scaled = Math.abs(x) * f;
  // A nudge of one part in 2^52 so 1.005 (stored as 1.00499…) rounds to 1.01 as Excel shows it.
  const nudged = scaled * (1 + Number.EPSILON);
  const r =
    mode === 'near' ? Math.round(nudged) : mode === 'up' ? Math.ceil(scaled - 1e-9) : Math.floor(nudged);
  return (Math.sign(x) * r) / f;
}

function need(name: string, args: Arg[], min: number, max: number): void {
  if (args.length < min || args.length > max)
    throw new Unsupported(`${name} with ${args.length} argument(s)`);
}

function vlookup(args: Arg[]): Scalar {
  need('VLOOKUP', args, 3, 4);
  const table = args[1]!;
  if (!('range' in table)) throw new Unsupported('VLOOKUP without a range to look in');
  const col = Math.trunc(toNumber(scalar(args[2]!)));
  const exact = args[3] !== undefined && !truthy(scalar(args[3]));
  if (!exact) throw new Unsupported('VLOOKUP with an approximate match (give FALSE as its 4th argument)');
  if (col < 1) throw new ExcelError('#VALUE!');
  if (col > (table.range[0]?.length ?? 0)) throw new ExcelError('#REF!');
  const key = scalar(args[0]!);
  for (const row of table.range) {
    const v = row[0];
    if (v !== null && v !== undefined && compare(key, v) === 0) return row[col - 1] ?? 0;
  }
  throw new ExcelError('#N/A');
}

function truthy(v: Scalar): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  const up = v.toUpperCase();
  if (up === 'TRUE' || up === 'FALSE') return up === 'TRUE';
  throw new ExcelError('#VALUE!');
}

type Fn = (args: Arg[]) => Scalar;

function rounding(name: string, mode: 'near' | 'up' | 'down'): Fn {
  return (a) => {
    need(name, a, 2, 2);
    return round(toNumber(scalar(a[0]!)), toNumber(scalar(a[1]!)), mode);
  };
}

const FUNCTIONS: Record<string, Fn> = {
  SUM: (a) => sum(numbers(a, false)),
  AVERAGE: (a) => {
    const xs = numbers(a, false);
    if (!xs.length) throw new ExcelError('#DIV/0!');
    return sum(xs) / xs.length;
  },
  MIN: (a) => {
    const xs = numbers(a, false);
    return xs.length ? -maxOf(xs.map((x) => -x)) : 0;
  },
  MAX: (a) => {
    const xs = numbers(a, false);
    return xs.length ? maxOf(xs) : 0;
  },
  COUNT: (a) => numbers(a, false).length,
  COUNTA: (a) => {
    let n = 0;
    for (const x of a) {
      if ('value' in x) n++;
      else for (const row of 'ref' in x ? [[x.ref()]] : x.range) for (const v of row) if (v !== null) n++;
    }
    return n;
  },
  ROUND: rounding('ROUND', 'near'),
  ROUNDUP: rounding('ROUNDUP', 'up'),
  ROUNDDOWN: rounding('ROUNDDOWN', 'down'),
  ABS: (a) => {
    need('ABS', a, 1, 1);
    return Math.abs(toNumber(scalar(a[0]!)));
  },
  IF: (a) => {
    need('IF', a, 2, 3);
    if (truthy(scalar(a[0]!))) return scalar(a[1]!);
    return a[2] ? scalar(a[2]) : false;
  },
  IFERROR: (a) => {
    need('IFERROR', a, 2, 2);
    try {
      return scalar(a[0]!);
    } catch (err) {
      if (err instanceof ExcelError) return scalar(a[1]!);
      throw err;
    }
  },
  VLOOKUP: vlookup,
};

/** The value of `name(args…)`; `argOf` turns each argument's tree into what the function sees. */
export function callFunction(name: string, args: FormulaNode[], argOf: (n: FormulaNode) => Arg): Scalar {
  const fn = FUNCTIONS[name.replace(/^_xlfn\./, '')];
  if (!fn) throw new Unsupported(`${name} is not among the functions zhi computes`);
  return fn(args.map(argOf));
}
