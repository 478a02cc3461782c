/**
 * Excel formula text (without "=") as a tree, for the evaluator in xlsx-formula.ts. Covers
 * numbers, "text", TRUE/FALSE, references (A1, $B$2, B2:B9, B:B) to this sheet or another
 * (Sheet2!A1, '销售 2024'!B2:B9), the operators of Excel with its precedence (comparison, &,
 * + -, * /, ^, unary minus, %) and function calls. Anything else is Unsupported, with a reason.
 */

export type FormulaNode =
  | { k: 'num'; v: number }
  | { k: 'str'; v: string }
  | { k: 'bool'; v: boolean }
  | { k: 'ref'; sheet?: string; col: number; row: number }
  /** A rectangle of cells; `r2` 0 means "down to the last row" (a whole column, B:B). */
  | { k: 'range'; sheet?: string; c1: number; r1: number; c2: number; r2: number }
  | { k: 'neg' | 'pct'; a: FormulaNode }
  | { k: 'bin'; op: string; a: FormulaNode; b: FormulaNode }
  | { k: 'call'; name: string; args: FormulaNode[] };

/** Outside what zhi computes: the reason is told to the model. */
export class Unsupported extends Error {}

type Token =
  | { t: 'num'; v: number }
  | { t: 'str'; v: string }
  | { t: 'bool'; v: boolean }
  | { t: 'ref'; node: FormulaNode }
  | { t: 'fn'; v: string }
  | { t: 'op'; v: string };

const SHEET = String.raw`(?:'((?:[^']|'')+)'|([^\s'!(),+\-*/^&=<>":;{}]+))!`;
const CELL = String.raw`\$?[A-Za-z]{1,3}\$?\d+`;
const COLUMN = String.raw`\$?[A-Za-z]{1,3}`;
const LEX = new RegExp(
  [
    '\\s+',
    '"((?:[^"]|"")*)"',
    `(?:${SHEET})?(${CELL}(?::${CELL})?|${COLUMN}:${COLUMN})(?![\\w(])`,
    String.raw`(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\.\d+)`,
    String.raw`(TRUE|FALSE)(?![\w(.])`,
    String.raw`([A-Za-z_][\w.]*)\s*\(`,
    '(<=|>=|<>|[-+*/^&=<>%(),])',
  ]
    .map((p) => `(?:${p})`)
    .join('|'),
  'yi',
);

/** `BC` → 55. */
export function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

function reference(text: string, sheet: string | undefined): FormulaNode {
  const plain = text.replace(/\$/g, '');
  const [a, b] = plain.split(':') as [string, string | undefined];
  const cell = (s: string): [number, number] => {
    const m = /^([A-Za-z]+)(\d*)$/.exec(s)!;
    return [columnNumber(m[1]!), m[2] ? Number(m[2]) : 0];
  };
  const [c1, r1] = cell(a);
  const at = sheet === undefined ? {} : { sheet };
  if (b === undefined) return { k: 'ref', ...at, col: c1, row: r1 };
  const [c2, r2] = cell(b);
  return r1 === 0
    ? { k: 'range', ...at, c1: Math.min(c1, c2), r1: 1, c2: Math.max(c1, c2), r2: 0 }
    : {
        k: 'range',
        ...at,
        c1: Math.min(c1, c2),
        r1: Math.min(r1, r2),
        c2: Math.max(c1, c2),
        r2: Math.max(r1, r2),
      };
}

/** Parentheses nested deeper than this are not followed (the parser recurses). */
const MAX_NESTING = 64;

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let depth = 0;
  LEX.lastIndex = 0;
  while (LEX.lastIndex < src.length) {
    const at = LEX.lastIndex;
    const m = LEX.exec(src);
    if (!m) throw new Unsupported(`cannot read the formula from "${src.slice(at, at + 12)}"`);
    if (m[1] !== undefined) out.push({ t: 'str', v: m[1].replace(/""/g, '"') });
    else if (m[4] !== undefined) {
      const sheet = m[2] !== undefined ? m[2].replace(/''/g, "'") : m[3];
      out.push({ t: 'ref', node: reference(m[4], sheet) });
    } else if (m[5] !== undefined) out.push({ t: 'num', v: Number(m[5]) });
    else if (m[6] !== undefined) out.push({ t: 'bool', v: m[6].toUpperCase() === 'TRUE' });
    else if (m[7] !== undefined) out.push({ t: 'fn', v: m[7].toUpperCase() });
    else if (m[8] !== undefined) out.push({ t: 'op', v: m[8] });
    const last = out[out.length - 1];
    if (last?.t === 'fn' || (last?.t === 'op' && last.v === '(')) depth++;
    if (last?.t === 'op' && last.v === ')') depth--;
    if (depth > MAX_NESTING) throw new Unsupported(`parentheses nested more than ${MAX_NESTING} deep`);
  }
  return out;
}

/** Binary operators by precedence, lowest first. */
const LEVELS = [['=', '<>', '<', '>', '<=', '>='], ['&'], ['+', '-'], ['*', '/'], ['^']];

/** The tree of a formula, or Unsupported. */
export function parseFormula(src: string): FormulaNode {
  const tokens = tokenize(src);
  let at = 0;
  const isOp = (v: string): boolean => {
    const t = tokens[at];
    return t?.t === 'op' && t.v === v;
  };
  const expect = (v: string): void => {
    if (!isOp(v)) throw new Unsupported(`expected "${v}" in the formula`);
    at++;
  };
  const binary = (level: number): FormulaNode => {
    if (level === LEVELS.length) return unary();
    let a = binary(level + 1);
    for (;;) {
      const t = tokens[at];
      if (t?.t !== 'op' || !LEVELS[level]!.includes(t.v)) return a;
      at++;
      a = { k: 'bin', op: t.v, a, b: binary(level + 1) };
    }
  };
  const unary = (): FormulaNode => {
    if (isOp('-')) {
      at++;
      return { k: 'neg', a: unary() };
    }
    if (isOp('+')) {
      at++;
      return unary();
    }
    let a = atom();
    while (isOp('%')) {
      at++;
      a = { k: 'pct', a };
    }
    return a;
  };
  const atom = (): FormulaNode => {
    const t = tokens[at++];
    if (!t) throw new Unsupported('the formula ends too early');
    switch (t.t) {
      case 'num':
        return { k: 'num', v: t.v };
      case 'str':
        return { k: 'str', v: t.v };
      case 'bool':
        return { k: 'bool', v: t.v };
      case 'ref':
        return t.node;
      case 'fn': {
        const args: FormulaNode[] = [];
        while (!isOp(')')) {
          args.push(binary(0));
          if (isOp(',')) at++;
          else if (!isOp(')')) throw new Unsupported(`expected "," or ")" in ${t.v}(…)`);
        }
        at++;
        return { k: 'call', name: t.v, args };
      }
      case 'op': {
        if (t.v !== '(') throw new Unsupported(`unexpected "${t.v}" in the formula`);
        const inner = binary(0);
        expect(')');
        return inner;
      }
    }
  };
  const tree = binary(0);
  if (at !== tokens.length) throw new Unsupported('unexpected text after the formula');
  return tree;
}
