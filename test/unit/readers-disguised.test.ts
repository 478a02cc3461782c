/**
 * Issue 45 point 4: the content decides the reader. A file named like one kind of Office file but
 * holding another (or text, or an HTML table saved as .xls by an ERP system) is read as what it
 * is, and the model is told the name and the content disagree; a file whose name is right gets
 * no such note.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDocument } from '../../src/tools/files/readers/index.js';
import { buildDocx, p } from '../helpers/docx-build.js';
import { stretched } from '../helpers/slowdown.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

const OFFICE = join(import.meta.dirname, '../fixtures/office');
let dir: string;
beforeAll(() => {
  dir = tempDir('zhi-disguised-');
});
afterAll(() => cleanup(dir));

const file = (name: string, data: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, data);
  return path;
};

describe('a file read as what it is, whatever its name says', () => {
  it('a Word document named .xlsx, or with no extension, is read as Word', async () => {
    const docx = await buildDocx({ body: p('Quarterly report: revenue grew 12%.') });
    for (const name of ['report.xlsx', 'report']) {
      const doc = await readDocument(file(name, docx));
      expect(doc.kind).toBe('docx');
      expect(doc.text).toContain('Quarterly report: revenue grew 12%.');
      expect(doc.notes.join(' ')).toMatch(
        /but the file is a Word document \(\.docx\); it was read as what it is/,
      );
    }
  });

  it('a real .docx gets no note about its name', async () => {
    const doc = await readDocument(file('plain.docx', await buildDocx({ body: p('Hello.') })));
    expect(doc.notes.join(' ')).not.toMatch(/the name ends in/);
  });

  it('CSV text named .xlsx is read as text, not called damaged', async () => {
    const doc = await readDocument(file('export.xlsx', '日期,金额\n2026-11-01,1200\n2026-11-02,800\n'));
    expect(doc.kind).toBe('text');
    expect(doc.text).toContain('2026-11-01,1200');
    expect(doc.notes.join(' ')).toContain('the file is plain text (CSV or similar)');
  });

  it('an HTML table saved as .xls (an ERP export, in GBK) is read as a Markdown table', async () => {
    const html =
      '<html><head><meta charset="gbk"><title>x</title></head><body><table><tr><th>客户</th><th>金额</th></tr><tr><td>华东公司</td><td>1,200.00</td></tr></table></body></html>';
    const iconv = await import('iconv-lite');
    const doc = await readDocument(file('bank.xls', iconv.encode(html, 'gbk')));
    expect(doc.kind).toBe('html');
    expect(doc.text).toMatch(/\|\s*客户\s*\|\s*金额\s*\|/);
    expect(doc.text).toMatch(/\|\s*华东公司\s*\|\s*1,200\.00\s*\|/);
    expect(doc.notes.join(' ')).toContain('a web page or an Excel XML table');
  });

  it('an Excel 2003 XML workbook named .xls is read sheet by sheet', async () => {
    const xml = `<?xml version="1.0"?><?mso-application progid="Excel.Sheet"?>
<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet" xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet">
<Worksheet ss:Name="销售"><Table><Row><Cell><Data ss:Type="String">地区</Data></Cell><Cell><Data ss:Type="String">金额</Data></Cell></Row>
<Row><Cell><Data ss:Type="String">华北</Data></Cell><Cell ss:Index="3"><Data ss:Type="Number">300</Data></Cell></Row></Table></Worksheet></Workbook>`;
    const doc = await readDocument(file('report.xls', xml));
    expect(doc.kind).toBe('html');
    expect(doc.sheets).toEqual(['销售']);
    expect(doc.text).toContain('## 销售');
    expect(doc.text).toContain('| 华北 |  | 300 |');
  });

  it('an OpenDocument text named .docx is read as OpenDocument', async () => {
    copyFileSync(join(OFFICE, 'report.odt'), join(dir, 'odt-named.docx'));
    const doc = await readDocument(join(dir, 'odt-named.docx'));
    expect(doc.kind).toBe('odt');
    expect(doc.text).toContain('主要数据');
  });

  it(
    'a .doc renamed .docx is read as Word 97–2003, not refused as encrypted',
    async () => {
      copyFileSync(join(OFFICE, 'report.doc'), join(dir, 'renamed.docx'));
      const doc = await readDocument(join(dir, 'renamed.docx'));
      expect(doc.kind).toBe('doc');
      expect(doc.text).toContain('主要数据');
      expect(doc.notes.join(' ')).toContain('a Word 97–2003 document (.doc)');
    },
    stretched(120_000),
  );
});
