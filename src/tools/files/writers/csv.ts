/**
 * CSV as Excel expects it: UTF-8 with a byte-order mark (so Excel shows Chinese correctly),
 * CRLF line ends, RFC 4180 quoting. Cells that a spreadsheet would run as a formula
 * (`=…`, `@…`, or `+`/`-` followed by a formula-like text) get a leading apostrophe.
 */
import { type Cell, PayloadError, parseIfJson, tableWidth, toTable } from './payload.js';

const BOM = '\uFEFF';

/** True for text that a spreadsheet would evaluate as a formula when it opens the CSV. */
export function looksLikeFormula(s: string): boolean {
  if (/^[=@\t\r]/.test(s)) return true;
  // "+86 138…" and "-12.5" are data; "-cmd|' /C calc'!A0" and "+SUM(A1)" are formulas.
  return /^[+-]/.test(s) && /[A-Za-z(|!]/.test(s) && !/^[+-]?\d[\d\s.,]*$/.test(s);
}

export function csvField(cell: Cell): string {
  if (cell === null) return '';
  let s = typeof cell === 'string' ? cell : String(cell);
  if (typeof cell === 'string' && looksLikeFormula(s)) s = `'${s}`;
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function encodeCsv(content: unknown): { data: Buffer; summary: string } {
  const value = parseIfJson(content);
  if (typeof value === 'string') {
    const text = value.startsWith(BOM) ? value : BOM + value;
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
