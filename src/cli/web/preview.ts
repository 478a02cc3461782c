/**
 * A preview of an output as the page shows it: a workbook or CSV as tables of text, a document
 * as text, read by the same readers file_read uses (docx, md, txt…). Everything is text the page
 * draws as text; a cap bounds what is read.
 */
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';

const PREVIEW_BYTES = 512 * 1024;
const MAX_ROWS = 500;

export type Preview =
  | { kind: 'table'; sheets: { name: string; rows: string[][] }[] }
  | { kind: 'text'; text: string };

export async function previewOf(abs: string): Promise<Preview | undefined> {
  const ext = extname(abs).toLowerCase();
  if (ext === '.xlsx') {
    const { readXlsxSheets } = await import('../../tools/files/readers/xlsx.js');
    const sheets = await readXlsxSheets(await readFile(abs), PREVIEW_BYTES);
    return { kind: 'table', sheets: sheets.map((s) => ({ name: s.name, rows: s.rows.slice(0, MAX_ROWS) })) };
  }
  if (ext === '.csv' || ext === '.tsv') {
    const text = (await readFile(abs))
      .subarray(0, PREVIEW_BYTES)
      .toString('utf8')
      .replace(/^\ufeff/, '');
    const rows = parseCsv(text, ext === '.tsv' ? '\t' : ',').slice(0, MAX_ROWS);
    return { kind: 'table', sheets: [{ name: '', rows }] };
  }
  const { readDocument } = await import('../../tools/files/readers/index.js');
  const doc = await readDocument(abs, { maxBytes: PREVIEW_BYTES, allowSecrets: true });
  return { kind: 'text', text: doc.text };
}

/** RFC 4180 rows: quoted fields with doubled quotes and line breaks inside. */
export function parseCsv(text: string, sep = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === sep) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
