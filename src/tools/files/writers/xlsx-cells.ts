/**
 * How one cell of a written workbook is stored: a number (numeric text read by cell-number.ts),
 * a date, a formula, or text — with the number format that shows it as it was written.
 */

import { normalizeNumeric, readNumber } from './cell-number.js';
import type { Cell } from './payload.js';

/** Excel's limit on the characters of a cell. */
const MAX_CELL_CHARS = 32_767;

/** A cell value for exceljs, with the number format that shows it as it was written. */
export interface XlsxValue {
  value: string | number | boolean | Date | null | XlsxFormula;
  numFmt?: string;
  /** Why numeric-looking text was kept as text, for the model. */
  warning?: string;
}

/** A formula (text without "="), with its cached result when zhi could compute it. */
export interface XlsxFormula {
  formula: string;
  result?: number | string | boolean | { error: string };
}

export function isFormula(v: XlsxValue['value']): v is XlsxFormula {
  return typeof v === 'object' && v !== null && !(v instanceof Date);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
/** `2024/3/16`, `2024-3-16`, `2024.3.16`, `2024年3月17日`: the forms Chinese offices write. */
const CN_DATE = /^(\d{4})(?:([/.-])(\d{1,2})\2(\d{1,2})|年(\d{1,2})月(\d{1,2})日)$/;
/** Headers of columns whose digits are identifiers, never amounts. */
const ID_HEADER =
  /电话|手机|号码|身份证|证件|账号|帐号|卡号|编号|编码|代码|邮编|工号|学号|单号|phone|mobile|\bid\b|code|account|zip/i;

/** `2024/3/16` and `2024年3月17日` as dates, shown the way they were written. */
function chineseDate(s: string): XlsxValue | undefined {
  const m = CN_DATE.exec(s);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[3] ?? m[5]), Number(m[4] ?? m[6])];
  const when = new Date(Date.UTC(y, mo - 1, d));
  if (when.getUTCMonth() !== mo - 1 || when.getUTCDate() !== d) return undefined;
  const numFmt = m[5]
    ? 'yyyy"年"m"月"d"日"'
    : m[2] === '/'
      ? 'yyyy/m/d'
      : m[2] === '.'
        ? 'yyyy.m.d'
        : 'yyyy-m-d';
  return { value: when, numFmt };
}

/** `2024-03-15` and `2024-03-15 09:30` as dates and times. */
function isoDate(s: string): XlsxValue | undefined {
  const date = ISO_DATE.exec(s);
  if (!date) return undefined;
  const [, y, mo, d, h, mi, sec] = date;
  const when = new Date(Date.UTC(+y!, +mo! - 1, +d!, +(h ?? 0), +(mi ?? 0), +(sec ?? 0)));
  if (when.getUTCMonth() !== +mo! - 1 || when.getUTCDate() !== +d! || +(h ?? 0) >= 24 || +(mi ?? 0) >= 60)
    return undefined;
  return { value: when, numFmt: h ? (sec ? 'yyyy-mm-dd hh:mm:ss' : 'yyyy-mm-dd hh:mm') : 'yyyy-mm-dd' };
}

function clipCell(cell: string): string {
  return cell.length > MAX_CELL_CHARS ? `${cell.slice(0, MAX_CELL_CHARS - 1)}…` : cell;
}

/**
 * How a cell is stored: numbers stay numbers; numeric text becomes the number it says
 * (cell-number.ts) or stays text with a warning when it says no single number; dates become
 * dates; `=…` is a formula. Digits that are identifiers stay text: a leading zero, 11 digits or
 * more (phones, ID and account numbers), or any digits in a column whose header names an identifier.
 */
export function xlsxValue(cell: Cell, header?: string): XlsxValue {
  if (cell === null) return { value: null };
  if (typeof cell !== 'string') return { value: cell };
  const s = cell.trim();
  if (s.length > 1 && s[0] === '=' && s.length <= 8192) return { value: { formula: s.slice(1) } };
  const digits = normalizeNumeric(s);
  if (header && ID_HEADER.test(header) && /^[\d\s-]+$/.test(digits)) return { value: cell };
  if (/^\d{11,}$/.test(digits)) return { value: cell };
  if (s.length > 0 && s.length <= 32) {
    const date = isoDate(s) ?? chineseDate(s);
    if (date) return date;
    const n = readNumber(s);
    if (n.kind === 'number') return n.numFmt ? { value: n.value, numFmt: n.numFmt } : { value: n.value };
    if (n.kind === 'ambiguous') return { value: clipCell(cell), warning: n.why };
  }
  return { value: clipCell(cell) };
}
