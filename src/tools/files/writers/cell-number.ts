/**
 * The one reading of numeric text zhi writes into a spreadsheet cell. A cell becomes a number
 * only when the text says exactly one number: "1.2万" is 12,000, "¥3,400万元" is 34,000,000,
 * "（1.2万）" is -12,000, "12.5%" is 0.125, "１２３" is 123. Everything that merely looks
 * numeric but could mean more than one number ("1.2.3", "约3万", "2-3万") stays text and is
 * named as such, so the model can say so — never a different number.
 */

export type NumberReading =
  | { kind: 'number'; value: number; numFmt?: string }
  /** Numeric-looking text that is kept as text; `why` says why, for the model. */
  | { kind: 'ambiguous'; why: string }
  | { kind: 'text' };

/** Magnitude words, longest first so 百万 is not read as 百 + 万. */
const MAGNITUDES: [string, number][] = [
  ['万亿', 12],
  ['千万', 7],
  ['百万', 6],
  ['亿', 8],
  ['万', 4],
  ['千', 3],
];

/** Currency marks before the number, and the symbol their format shows. */
const PREFIXES: [RegExp, string][] = [
  [/^(?:¥|RMB|CNY|人民币)\s*/i, '¥'],
  [/^(?:\$|USD|US\$)\s*/i, '$'],
  [/^(?:€|EUR)\s*/i, '€'],
  [/^£\s*/, '£'],
];

const PLAIN = /^(?:0|[1-9]\d*)(?:\.\d+)?$/;
const GROUPED = /^[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?$/;
/** Most significant digits a spreadsheet keeps exactly. */
const MAX_DIGITS = 15;
/** Text made only of what numbers, units and hedges are written with: worth a warning when unread. */
const NUMERIC_LOOKING = /^[\d\s.,+\-()%¥$€£万亿千百元约近超逾左右多余以上下至~]+$/;
/** `$1.2M`, `3.5k`, `2bn`: an amount, but which one is the reader's guess. */
const ENGLISH_MAGNITUDE = /^[-+(]?\s*(?:[¥$€£]\s*)?\d[\d,]*(?:\.\d+)?\s*(?:k|K|M|B|bn|mn)\)?$/;
const HEDGES = /约|近|超|逾|左右|多|余|以上|以下|至|~/;

/**
 * Full-width digits, signs and brackets as ASCII; U+2212 MINUS SIGN as "-". Only the
 * full-width block: NFKC would also turn "①" into 1 and "10²" into 102.
 */
export function normalizeNumeric(s: string): string {
  return s
    .replace(/[\uFF01-\uFF5E]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(/\uFFE5/g, '¥')
    .replace(/\u3000/g, ' ')
    .replace(/[\u2212\u2012\uFE63]/g, '-')
    .trim();
}

interface Parts {
  negative: boolean;
  brackets: boolean;
  symbol?: string;
  yuan: boolean;
  percent: boolean;
  exponent: number;
  body: string;
}

function stripSign(s: string, p: Parts): string {
  if (/^\(.*\)$/.test(s)) {
    p.negative = p.brackets = true;
    return s.slice(1, -1).trim();
  }
  if (s[0] === '-' || s[0] === '+') {
    p.negative = s[0] === '-';
    return s.slice(1).trim();
  }
  return s;
}

function stripPrefix(s: string, p: Parts): string {
  for (const [re, symbol] of PREFIXES) {
    const m = re.exec(s);
    if (m && m[0].length < s.length) {
      p.symbol = symbol;
      return s.slice(m[0].length);
    }
  }
  return s;
}

function stripSuffix(s: string, p: Parts): string {
  let out = s;
  if (out.endsWith('元')) {
    p.yuan = true;
    out = out.slice(0, -1);
  }
  if (out.endsWith('%')) {
    p.percent = true;
    out = out.slice(0, -1);
  }
  for (const [word, exp] of MAGNITUDES) {
    if (out.endsWith(word)) {
      p.exponent = exp;
      out = out.slice(0, -word.length);
      break;
    }
  }
  return out.trim();
}

/** The parts of "-¥1.2万元", or undefined when the text is not one number. */
function split(s: string): Parts | undefined {
  const p: Parts = { negative: false, brackets: false, yuan: false, percent: false, exponent: 0, body: '' };
  let rest = stripSign(s, p);
  rest = stripPrefix(rest, p);
  if (!p.negative && !p.brackets) rest = stripSign(rest, p); // "¥-1,200"
  rest = stripSuffix(rest, p);
  if (p.percent && (p.exponent || p.symbol || p.yuan)) return undefined; // "5%万": no single meaning
  if (!(PLAIN.test(rest) || GROUPED.test(rest))) return undefined;
  p.body = rest;
  return p;
}

function significant(body: string): number {
  return body.replace(/\D/g, '').replace(/^0+/, '').length;
}

/** The format that shows the number as the text showed it: grouping, decimals, currency, brackets. */
function formatOf(p: Parts, decimals: number): string | undefined {
  if (p.percent) return `0${decimals ? `.${'0'.repeat(decimals)}` : ''}%`;
  const grouped = GROUPED.test(p.body) || p.exponent > 0 || p.symbol !== undefined || p.yuan;
  if (!grouped && !decimals && !p.brackets) return undefined;
  const digits = `${grouped ? '#,##0' : '0'}${decimals ? `.${'0'.repeat(decimals)}` : ''}`;
  const symbol = p.symbol ? `"${p.symbol}"` : '';
  const body = `${symbol}${digits}${p.yuan ? '"元"' : ''}`;
  return p.brackets ? `${body};(${body})` : body;
}

/**
 * The number a cell's text says, with the format that shows it the same way; "ambiguous" for
 * text that looks numeric but says no single number; "text" for everything else.
 */
export function readNumber(raw: string): NumberReading {
  const s = normalizeNumeric(raw);
  if (!s || s.length > 32) return { kind: 'text' };
  const p = split(s);
  if (p && significant(p.body) <= MAX_DIGITS) {
    const written = /\.(\d+)$/.exec(p.body)?.[1]?.length ?? 0;
    const shift = p.exponent - (p.percent ? 2 : 0);
    // Scaling in decimal ("1.2e4"), not by multiplying floats, so 1.2万 is exactly 12000.
    const magnitude = Number(`${p.body.replace(/,/g, '')}e${shift}`);
    const value = p.negative ? -magnitude : magnitude;
    const decimals = Math.max(0, written - p.exponent);
    const numFmt = formatOf(p, p.percent ? written : decimals);
    return numFmt ? { kind: 'number', value, numFmt } : { kind: 'number', value };
  }
  return ambiguity(s, p);
}

function ambiguity(s: string, p: Parts | undefined): NumberReading {
  if (ENGLISH_MAGNITUDE.test(s))
    return { kind: 'ambiguous', why: 'k/M/B are not read as thousands, millions or billions' };
  if (!NUMERIC_LOOKING.test(s) || !/\d/.test(s)) return { kind: 'text' };
  if (p) return { kind: 'ambiguous', why: `more than ${MAX_DIGITS} significant digits` };
  if (HEDGES.test(s)) return { kind: 'ambiguous', why: 'an approximate amount or a range' };
  // Codes, phone numbers and ranges of plain digits ("010-1234", "2-3") are not amounts.
  if (/^[\d\s-]+$/.test(s)) return { kind: 'text' };
  if (/\d\s*-\s*[\d.]+\s*[万亿千百元%]/.test(s)) return { kind: 'ambiguous', why: 'a range' };
  return { kind: 'ambiguous', why: 'not one number as written' };
}
