/**
 * .xlsx packages written as raw SpreadsheetML, for what exceljs cannot write: built-in number
 * formats by id (the Chinese date formats 31, 55–58), formulas without a cached value, shared
 * strings after the sheets (the order Excel saves in), and very large sheets made quickly.
 */
import JSZip from 'jszip';

/** A cell: a string (shared), a number, or one with a style index / formula / inline text. */
export type RawCell =
  | string
  | number
  | null
  | { v?: number | string; s?: number; f?: string; t?: 'str' | 'b' | 'e' | 'inlineStr' };

export interface RawSheet {
  name: string;
  rows: Iterable<RawCell[]>;
  merges?: string[];
  hidden?: boolean;
  /** Rows (1-based) and columns (1-based, inclusive ranges) Excel hides. */
  hiddenRows?: number[];
  hiddenCols?: [number, number][];
}

export interface RawWorkbook {
  sheets: RawSheet[];
  /** numFmtId of each cell style after style 0 (General): style 1 uses numFmtIds[0], … */
  numFmtIds?: number[];
  /** Custom format codes, id ≥ 164. */
  customFormats?: Record<number, string>;
  date1904?: boolean;
}

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function colName(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

function cellXml(ref: string, cell: RawCell, strings: Map<string, number>): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return `<c r="${ref}"><v>${cell}</v></c>`;
  if (typeof cell === 'string') {
    let i = strings.get(cell);
    if (i === undefined) {
      i = strings.size;
      strings.set(cell, i);
    }
    return `<c r="${ref}" t="s"><v>${i}</v></c>`;
  }
  const s = cell.s ? ` s="${cell.s}"` : '';
  if (cell.t === 'inlineStr')
    return `<c r="${ref}" t="inlineStr"${s}><is><t>${esc(String(cell.v))}</t></is></c>`;
  const t = cell.t ? ` t="${cell.t}"` : '';
  const f = cell.f !== undefined ? `<f>${esc(cell.f)}</f>` : '';
  const v = cell.v !== undefined ? `<v>${esc(String(cell.v))}</v>` : '';
  return `<c r="${ref}"${t}${s}>${f}${v}</c>`;
}

function sheetXml(sheet: RawSheet, strings: Map<string, number>): string {
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">',
  ];
  if (sheet.hiddenCols?.length)
    parts.push(
      `<cols>${sheet.hiddenCols.map(([a, b]) => `<col min="${a}" max="${b}" hidden="1"/>`).join('')}</cols>`,
    );
  parts.push('<sheetData>');
  let r = 0;
  for (const row of sheet.rows) {
    r++;
    const hidden = sheet.hiddenRows?.includes(r) ? ' hidden="1"' : '';
    parts.push(
      `<row r="${r}"${hidden}>${row.map((c, i) => cellXml(`${colName(i)}${r}`, c, strings)).join('')}</row>`,
    );
  }
  parts.push('</sheetData>');
  if (sheet.merges?.length)
    parts.push(
      `<mergeCells count="${sheet.merges.length}">${sheet.merges.map((m) => `<mergeCell ref="${m}"/>`).join('')}</mergeCells>`,
    );
  parts.push('</worksheet>');
  return parts.join('');
}

export async function buildXlsx(wb: RawWorkbook): Promise<Buffer> {
  const zip = new JSZip();
  const strings = new Map<string, number>();
  const n = wb.sheets.length;
  zip.file(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${wb.sheets.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('')}<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
  );
  zip.file(
    'xl/workbook.xml',
    `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><workbookPr${wb.date1904 ? ' date1904="1"' : ''}/><sheets>${wb.sheets.map((s, i) => `<sheet name="${esc(s.name)}" sheetId="${i + 1}"${s.hidden ? ' state="hidden"' : ''} r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`,
  );
  zip.file(
    'xl/_rels/workbook.xml.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${wb.sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('')}<Relationship Id="rId${n + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rId${n + 2}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
  );
  // Sheets first, then styles and shared strings: the order Excel itself writes.
  wb.sheets.forEach((s, i) => {
    zip.file(`xl/worksheets/sheet${i + 1}.xml`, sheetXml(s, strings));
  });
  const custom = Object.entries(wb.customFormats ?? {});
  const ids = [0, ...(wb.numFmtIds ?? [])];
  zip.file(
    'xl/styles.xml',
    `<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${custom.length ? `<numFmts count="${custom.length}">${custom.map(([id, code]) => `<numFmt numFmtId="${id}" formatCode="${esc(code)}"/>`).join('')}</numFmts>` : ''}<fonts count="1"><font/></fonts><fills count="1"><fill/></fills><borders count="1"><border/></borders><cellXfs count="${ids.length}">${ids.map((id) => `<xf numFmtId="${id}" fontId="0" fillId="0" borderId="0"${id ? ' applyNumberFormat="1"' : ''}/>`).join('')}</cellXfs></styleSheet>`,
  );
  zip.file(
    'xl/sharedStrings.xml',
    `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.size}" uniqueCount="${strings.size}">${[...strings.keys()].map((s) => `<si><t xml:space="preserve">${esc(s)}</t></si>`).join('')}</sst>`,
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 1 } });
}
