/**
 * CSV as Excel expects it: UTF-8 with a byte-order mark (so Excel shows Chinese correctly),
 * CRLF line ends, RFC 4180 quoting. Cells that a spreadsheet would run as a formula
 * (`=…`, `@…`, or `+`/`-` followed by a formula-like text) get a leading apostrophe.
 *
 * Digit strings Excel and WPS would damage — a leading zero (`013800000000`, `007`) or 12 digits
 * and more (shown as 1.38E+11, and past 15 digits rounded: card and account numbers) — are
 * written as `="013800000000"`, a text formula Excel, WPS and LibreOffice show as the text
 * itself; a program reading the CSV as data sees the `="…"` (docs/architecture.md, "CSV").
 */
import { type Cell, PayloadError, parseIfJson, tableWidth, toTable } from './payload.js';

const BOM = '\uFEFF';

/** True for text that a spreadsheet would evaluate as a formula when it opens the CSV. */
export function looksLikeFormula(s: string): boolean {
  if (/^[=@\t\r]/.test(s)) return true;
  // "+86 138…" and "-12.5" are data; "-cmd|' /C calc'!A0" and "+SUM(A1)" are formulas.
  return /^[+-]/.test(s) && /[A-Za-z(|!]/.test(s) && !/^[+-]?\d[\d\s.,]*$/.test(s);
}

/** A digit string a spreadsheet would turn into a number and lose: a leading zero, or 12+ digits. */
export function losesDigits(s: string): boolean {
  return /^\d+$/.test(s) && ((s.length >= 2 && s.startsWith('0')) || s.length >= 12);
}

/** `="013800000000"`, quoted as a CSV field: shown by spreadsheets as the text, zeros kept. */
function asText(digits: string): string {
  return `"=""${digits}"""`;
}

export function csvField(cell: Cell): string {
  if (cell === null) return '';
  let s = typeof cell === 'string' ? cell : String(cell);
  if (typeof cell === 'string' && losesDigits(s)) return asText(s);
  if (typeof cell === 'string' && looksLikeFormula(s)) s = `'${s}`;
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * CSV text the model wrote itself, with only the fields that would lose digits rewritten; every
 * other byte is kept (a quoted field is read as RFC 4180 says; a malformed one is left alone).
 */
export function keepDigits(text: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    let end = i;
    let value: string | undefined;
    if (text[i] === '"') {
      let j = i + 1;
      let v = '';
      while (j < text.length && !(text[j] === '"' && text[j + 1] !== '"')) {
        v += text[j];
        j += text[j] === '"' ? 2 : 1;
      }
      end = j + 1;
      value = v;
    }
    while (end < text.length && !',\r\n'.includes(text[end]!)) {
      end += 1;
      value = undefined;
    }
    if (text[i] !== '"') value = text.slice(i, end);
    out += value !== undefined && losesDigits(value) ? asText(value) : text.slice(i, end);
    if (end >= text.length) return out;
    out += text[end];
    i = end + 1;
  }
}

export function encodeCsv(content: unknown): { data: Buffer; summary: string } {
  const value = parseIfJson(content);
  if (typeof value === 'string') {
    const text = keepDigits(value.startsWith(BOM) ? value : BOM + value);
    const lines = value.split(/\r?\n/).filter((l) => l.trim() !== '').length;
    return { data: Buffer.from(text, 'utf8'), summary: `${lines} line${lines === 1 ? '' : 's'} of CSV text` };
  }
  if (value === null || value === undefined || typeof value !== 'object') {
    throw new PayloadError('csv', `content is ${value === null ? 'null' : `a ${typeof value}`}`);
  }
  const table = toTable('csv', value);
  const lines: string[] = [];
  if (table.headers.length) lines.push(table.headers.map(csvField).join(','));
  for (const row of table.rows) lines.push(row.map(csvField).join(','));
  const cols = tableWidth(table);
  return {
    data: Buffer.from(`${BOM}${lines.join('\r\n')}\r\n`, 'utf8'),
    summary: `${table.rows.length} row${table.rows.length === 1 ? '' : 's'} × ${cols} column${cols === 1 ? '' : 's'}`,
  };
}
