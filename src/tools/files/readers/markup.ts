/**
 * "Excel" files that are text (issue 45 point 4): an HTML table saved as `.xls` — what many ERP,
 * banking and government systems export — read as Markdown with its tables kept, and Excel 2003's
 * XML workbook (SpreadsheetML) read sheet by sheet as tables. The encoding is detected as for any
 * text file (GBK exports are common).
 */
import { SaxesParser } from 'saxes';
import { mdTable } from './markdown.js';
import { decodeText } from './text.js';
import { DocumentError, type Extracted } from './types.js';

const SPREADSHEET_ML = /urn:schemas-microsoft-com:office:spreadsheet/i;

export async function readMarkup(data: Buffer): Promise<Extracted> {
  const decoded = decodeText(data);
  if ('binary' in decoded)
    throw new DocumentError('unreadable', 'This file looks like a web page or an XML table but is not text.');
  if (SPREADSHEET_ML.test(decoded.text.slice(0, 4096))) return readSpreadsheetMl(decoded.text);
  const { NodeHtmlMarkdown } = await import('node-html-markdown');
  const text = NodeHtmlMarkdown.translate(decoded.text, {
    ignore: ['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'object', 'embed', 'head'],
    maxConsecutiveNewlines: 2,
    keepDataImages: false,
  }).trim();
  return { text: text || '(This file holds no text.)' };
}

/** Sheets of a SpreadsheetML workbook: `<Worksheet ss:Name>` › `<Row>` › `<Cell ss:Index>` › `<Data>`. */
function readSpreadsheetMl(xml: string): Extracted {
  const sheets: { name: string; rows: string[][] }[] = [];
  let row: string[] | undefined;
  let cell: string | undefined;
  let inData = false;
  const parser = new SaxesParser({ xmlns: false });
  parser.on('opentag', (tag) => {
    const local = tag.name.replace(/^.*:/, '');
    const attr = (name: string) => {
      const found = Object.entries(tag.attributes).find(([k]) => k.replace(/^.*:/, '') === name);
      return found ? String(found[1]) : undefined;
    };
    if (local === 'Worksheet') sheets.push({ name: attr('Name') ?? `Sheet${sheets.length + 1}`, rows: [] });
    else if (local === 'Row') row = [];
    else if (local === 'Cell' && row) {
      // ss:Index skips empty cells (1-based).
      const index = Number(attr('Index'));
      while (Number.isInteger(index) && index > 0 && row.length < Math.min(index - 1, 16_384)) row.push('');
      cell = '';
    } else if (local === 'Data') inData = true;
  });
  parser.on('text', (t) => {
    if (inData && cell !== undefined) cell += t;
  });
  parser.on('closetag', (tag) => {
    const local = tag.name.replace(/^.*:/, '');
    if (local === 'Data') inData = false;
    else if (local === 'Cell' && row && cell !== undefined) {
      row.push(cell.trim());
      cell = undefined;
    } else if (local === 'Row' && row) {
      sheets.at(-1)?.rows.push(row);
      row = undefined;
    }
  });
  try {
    parser.write(xml).close();
  } catch (err) {
    throw new DocumentError('unreadable', `This Excel XML workbook is damaged (${(err as Error).message}).`);
  }
  const parts = sheets.map((s) => `## ${s.name}\n\n${s.rows.length ? mdTable(s.rows) : '(empty sheet)'}`);
  return { text: parts.join('\n\n') || '(This workbook is empty.)', sheets: sheets.map((s) => s.name) };
}
