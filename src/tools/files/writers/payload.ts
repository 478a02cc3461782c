/**
 * Reading the `content` argument of file_write: the shapes each format accepts, and the error a
 * model gets when its payload does not fit (it always shows the expected shape).
 */
import { ToolError } from '../../types.js';
import { type OutputFormat, WRITE_FORMATS } from './formats.js';

export type { OutputFormat } from './formats.js';

/** A payload that does not fit its format: says what is wrong and what was expected. */
export class PayloadError extends ToolError {
  constructor(format: OutputFormat, problem: string) {
    super(
      `The content for a .${format} file is not in the expected shape: ${problem}. Expected ${WRITE_FORMATS[format].shape}. Nothing was written; call file_write again with the corrected content.`,
    );
    this.name = 'PayloadError';
  }
}

/** A structured payload sent as a JSON string is parsed; other strings stay strings. */
export function parseIfJson(content: unknown): unknown {
  if (typeof content !== 'string') return content;
  const s = content.trim();
  if (!(s.startsWith('{') || s.startsWith('['))) return content;
  try {
    return JSON.parse(s);
  } catch {
    return content;
  }
}

export type Cell = string | number | boolean | null;

export interface Table {
  headers: string[];
  rows: Cell[][];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function cellOf(v: unknown): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  return JSON.stringify(v);
}

/**
 * A table from `{headers, rows}`: rows are arrays of cells, or objects keyed by header (headers
 * default to the keys of the objects, in order of appearance). A bare array of rows is accepted.
 */
export function toTable(format: OutputFormat, value: unknown, where = 'content'): Table {
  let headersIn: unknown;
  let rowsIn: unknown;
  if (Array.isArray(value)) {
    rowsIn = value;
  } else if (isRecord(value)) {
    headersIn = value.headers ?? value.columns;
    rowsIn = value.rows ?? value.data;
    if (rowsIn === undefined && headersIn === undefined) {
      throw new PayloadError(format, `${where} has no "headers" or "rows" (it has ${describeKeys(value)})`);
    }
  } else {
    throw new PayloadError(format, `${where} is ${kindOf(value)}`);
  }
  if (rowsIn === undefined) rowsIn = [];
  if (!Array.isArray(rowsIn))
    throw new PayloadError(format, `${where}.rows is ${kindOf(rowsIn)}, not an array of rows`);
  let headers: string[] = [];
  if (headersIn !== undefined && headersIn !== null) {
    if (!Array.isArray(headersIn))
      throw new PayloadError(
        format,
        `${where}.headers is ${kindOf(headersIn)}, not an array of column names`,
      );
    headers = headersIn.map((h) =>
      h === null || h === undefined ? '' : typeof h === 'string' ? h : String(cellOf(h)),
    );
  }
  const objectRows = rowsIn.some(isRecord);
  if (objectRows && !headers.length) {
    const seen = new Set<string>();
    for (const r of rowsIn) if (isRecord(r)) for (const k of Object.keys(r)) seen.add(k);
    headers = [...seen];
  }
  const rows = rowsIn.map((r, i): Cell[] => {
    if (Array.isArray(r)) return r.map(cellOf);
    if (isRecord(r)) return headers.map((h) => cellOf(r[h]));
    if (r === null || r === undefined) return [];
    if (typeof r === 'string' || typeof r === 'number' || typeof r === 'boolean') return [cellOf(r)];
    throw new PayloadError(format, `${where}.rows[${i}] is ${kindOf(r)}, not an array of cells`);
  });
  return { headers, rows };
}

/** The widest row of a table (no spread: a sheet may have more rows than a call has arguments). */
export function tableWidth(t: Table): number {
  let w = t.headers.length;
  for (const r of t.rows) if (r.length > w) w = r.length;
  return w;
}

export function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `a string (${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)})`;
  if (typeof v === 'object') return `an object with ${describeKeys(v as Record<string, unknown>)}`;
  return `a ${typeof v}`;
}

function describeKeys(v: Record<string, unknown>): string {
  const keys = Object.keys(v);
  return keys.length
    ? `keys ${keys
        .slice(0, 6)
        .map((k) => `"${k}"`)
        .join(', ')}${keys.length > 6 ? ', …' : ''}`
    : 'no keys';
}
