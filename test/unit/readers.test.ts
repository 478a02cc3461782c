import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DocumentError, readDocument } from '../../src/tools/files/readers/index.js';
import { decodeText } from '../../src/tools/files/readers/text.js';
import { GBK_BYTES, GBK_TEXT, makeCjkCMapPdf } from '../helpers/file-fixtures.js';
import { makePdf } from '../helpers/media.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let dir: string;
beforeAll(() => {
  dir = tempDir('zhi-readers-');
});
afterAll(() => cleanup(dir));

function file(name: string, data: string | Buffer): string {
  const p = join(dir, name);
  writeFileSync(p, data);
  return p;
}

async function failure(p: string): Promise<DocumentError> {
  const err = await readDocument(p).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DocumentError);
  return err as DocumentError;
}

describe('text encodings', () => {
  it('reads UTF-8, with or without a BOM', async () => {
    const plain = await readDocument(file('u8.md', '# 标题\nhello'));
    expect(plain).toMatchObject({ text: '# 标题\nhello', kind: 'text', encoding: 'utf-8', truncated: false });
    const bom = await readDocument(
      file('bom.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('名称,金额\n')])),
    );
    expect(bom.text).toBe('名称,金额\n');
  });

  it('detects and decodes GBK/GB18030 (a Chinese Windows file)', async () => {
    const doc = await readDocument(file('gbk.txt', GBK_BYTES));
    expect(doc.encoding).toBe('gb18030');
    expect(doc.text).toBe(GBK_TEXT);
  });

  it('decodes UTF-16 with a BOM (both byte orders) and UTF-16LE without one', async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('你好 hello', 'utf16le')]);
    expect((await readDocument(file('le.txt', le))).text).toBe('你好 hello');
    const be = Buffer.from('\ufeff你好', 'utf16le').swap16();
    expect((await readDocument(file('be.txt', be))).text).toBe('你好');
    const noBom = Buffer.from('plain ascii in utf-16', 'utf16le');
    expect(decodeText(noBom)).toMatchObject({ text: 'plain ascii in utf-16', encoding: 'utf-16le' });
  });

  it('falls back to Windows-1252 for Latin text that is neither UTF-8 nor GBK', () => {
    expect(decodeText(Buffer.from('caf\xe9 ok', 'latin1'))).toMatchObject({
      text: 'café ok',
      encoding: 'windows-1252',
    });
  });
});

describe('binary files are refused', () => {
  it('NUL bytes', async () => {
    const err = await failure(file('blob.dat', Buffer.from([1, 2, 0, 0, 5, 6, 0, 200, 0, 1])));
    expect(err.code).toBe('binary');
    expect(err.message).toMatch(/binary file/);
  });

  it('an image, by signature even with a text extension, pointing to ocr', async () => {
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(64, 7),
    ]);
    const err = await failure(file('scan.txt', png));
    expect(err.code).toBe('binary');
    expect(err.message).toMatch(/image.*ocr/);
    expect((await failure(file('photo.jpg', 'not really'))).message).toMatch(/ocr/);
  });

  it('an old Office file cut short is said to be damaged', async () => {
    const err = await failure(file('old.doc', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])));
    expect(err.code).toBe('unreadable');
    expect(err.message).toMatch(/damaged/);
  });
});

describe('size cap', () => {
  it('cuts at maxBytes with a visible marker, and reads on from an offset', async () => {
    const line = '第一行 line of text\n';
    const big = line.repeat(10_000); // ~240 KB
    const p = file('big.txt', big);
    const doc = await readDocument(p, { maxBytes: 100 * 1024, continueHint: (n) => ` next=${n}` });
    expect(doc.truncated).toBe(true);
    expect(Buffer.byteLength(doc.text, 'utf8')).toBeLessThan(100 * 1024 + 300);
    expect(doc.text).toMatch(/\[truncated: showing the first 100 KB of 2\d\d KB of text\. next=\d+\]$/);
    expect(doc.text).not.toContain('\uFFFD');
    const next = await readDocument(p, { maxBytes: 100 * 1024, offset: doc.nextOffset! });
    expect(next.offset).toBe(doc.nextOffset);
    // the two parts join up exactly
    const first = doc.text.slice(0, doc.text.lastIndexOf('\n\n[truncated'));
    expect(big.startsWith(first + next.text.slice(0, 50))).toBe(true);
  });

  it('is not triggered by a file under the cap', async () => {
    const doc = await readDocument(file('small.txt', 'x'.repeat(1000)), { maxBytes: 2000 });
    expect(doc.truncated).toBe(false);
    expect(doc.text).not.toContain('[truncated');
  });
});

describe('Word documents', () => {
  it('become Markdown: headings, bold, lists and tables', async () => {
    const d = await import('docx');
    const doc = new d.Document({
      sections: [
        {
          children: [
            new d.Paragraph({ text: '季度报告', heading: d.HeadingLevel.HEADING_1 }),
            new d.Paragraph({
              children: [new d.TextRun('收入 '), new d.TextRun({ text: '增长', bold: true })],
            }),
            new d.Paragraph({ text: '第一点', bullet: { level: 0 } }),
            new d.Paragraph({ text: '第二点', bullet: { level: 0 } }),
            new d.Table({
              rows: [
                new d.TableRow({
                  children: ['名称', '金额'].map((s) => new d.TableCell({ children: [new d.Paragraph(s)] })),
                }),
                new d.TableRow({
                  children: ['A|B', '1,234'].map((s) => new d.TableCell({ children: [new d.Paragraph(s)] })),
                }),
              ],
            }),
          ],
        },
      ],
    });
    const out = await readDocument(file('r.docx', await d.Packer.toBuffer(doc)));
    expect(out.kind).toBe('docx');
    expect(out.text).toContain('# 季度报告');
    expect(out.text).toContain('收入 **增长**');
    expect(out.text).toMatch(/^- 第一点$/m);
    expect(out.text).toMatch(/^\| 名称\s*\| 金额\s*\|$/m);
    expect(out.text).toMatch(/^\| A\\\|B\s*\| 1,234 \|$/m);
  });

  it('a damaged or fake .docx is reported, not crashed on (text named .docx is read as the text it is)', async () => {
    const text = await readDocument(file('fake.docx', 'plain text'));
    expect(text.kind).toBe('text');
    expect(text.notes.join(' ')).toContain('the file is plain text');
    const zipJunk = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100)]);
    expect((await failure(file('junk.docx', zipJunk))).message).toMatch(/cannot be read as a Word document/);
  });
});

describe('Excel workbooks', () => {
  it('one ## section per sheet, rows as a table, numbers/dates/formulas rendered', async () => {
    const { default: ExcelJS } = await import('exceljs');
    const wb = new ExcelJS.Workbook();
    const s1 = wb.addWorksheet('销售');
    s1.addRow(['产品', '数量', '单价', '日期', '占比', '合计']);
    s1.addRow([
      '苹果',
      3,
      1.1,
      new Date(Date.UTC(2024, 2, 15)),
      0.125,
      { formula: 'B2*C2', result: 3.3000000000000003 },
    ]);
    s1.getCell('E2').numFmt = '0.0%';
    s1.addRow([]);
    s1.addRow(['梨|pear', 10, 2, new Date(Date.UTC(2024, 2, 16, 9, 30)), 0.5, { formula: 'B4*C4' }]);
    const s2 = wb.addWorksheet('Notes');
    s2.addRow(['note']);
    s2.addRow([{ richText: [{ text: 'rich ' }, { text: 'text', font: { bold: true } }] }]);
    const data = Buffer.from(await wb.xlsx.writeBuffer());
    const out = await readDocument(file('book.xlsx', data));
    expect(out.kind).toBe('xlsx');
    expect(out.sheets).toEqual(['销售', 'Notes']);
    expect(out.text).toContain(
      '## 销售\n\n| 产品 | 数量 | 单价 | 日期 | 占比 | 合计 |\n| --- | --- | --- | --- | --- | --- |',
    );
    expect(out.text).toContain('| 苹果 | 3 | 1.1 | 2024-03-15 | 12.5% | 3.3 |');
    expect(out.text).toContain(
      '| 梨\\|pear | 10 | 2 | 2024-03-16 | 0.5 | =B4*C4 (formula, not calculated) |',
    );
    expect(out.text).toContain('## Notes\n\n| note |\n| --- |\n| rich text |');
    expect(out.text).not.toMatch(/\|\s*\|\s*\|\s*\|/); // the empty row is dropped
  });

  it('renders the odd cell values sensibly', async () => {
    const { NumberFormatter } = await import('../../src/tools/files/readers/xlsx-format.js');
    const fmt = new NumberFormatter(await import('numfmt'));
    expect(fmt.format(0.1 + 0.2, 'General')).toBe('0.3');
    expect(fmt.format(123456789012, 'General')).toBe('123456789012');
    expect(fmt.format(45366, 'yyyy-mm-dd')).toBe('2024-03-15');
    expect(fmt.format(45366, 'mm-dd-yy')).toBe('2024-03-15');
    expect(new NumberFormatter(await import('numfmt'), true).format(43904, 'yyyy-mm-dd')).toBe('2024-03-15');
  });
});

describe('PDF', () => {
  it('reads a text PDF page by page with separators', async () => {
    const out = await readDocument(file('two.pdf', makePdf(['Hello page one', 'Second (page) here'])));
    expect(out.kind).toBe('pdf');
    expect(out.pages).toBe(2);
    expect(out.text).toBe('--- page 1 of 2 ---\nHello page one\n\n--- page 2 of 2 ---\nSecond (page) here');
  });

  it('a PDF without a text layer says so and suggests ocr', async () => {
    const err = await failure(file('scan.pdf', makePdf([null, null])));
    expect(err.code).toBe('no_text_layer');
    expect(err.message).toMatch(/no text layer \(2 pages.*ocr tool/);
  });

  it('text in a CJK font that cannot be decoded is not mistaken for a scan, and points to ocr', async () => {
    // A real file from pdf.js's tests: an embedded CID font without a usable character map.
    const err = await failure(join(import.meta.dirname, '../fixtures/real/pdf/arial_unicode_ab_cidfont.pdf'));
    expect(err.code).toBe('no_text_layer');
    expect(err.message).toMatch(/has text, but in a font whose characters cannot be decoded.*ocr tool/);
  });

  it('a mixed PDF marks the pages without text', async () => {
    const out = await readDocument(file('mixed.pdf', makePdf(['Typed page', null])));
    expect(out.text).toContain('[no text on this page');
    expect(out.notes.join()).toMatch(/page 2 without readable text/);
  });

  it('is recognised by its signature whatever the extension, and a broken one is reported', async () => {
    expect((await readDocument(file('noext', makePdf(['By signature'])))).text).toContain('By signature');
    expect((await failure(file('broken.pdf', '%PDF-1.4 garbage'))).code).toBe('unreadable');
    expect((await failure(file('notpdf.pdf', 'hello'))).message).toMatch(/not a valid PDF/);
  });

  it('prints nothing on the console (pdf.js warnings are silenced)', async () => {
    const spies = ['log', 'warn', 'error', 'info'].map((m) => vi.spyOn(console, m as 'log'));
    await failure(
      file('broken2.pdf', '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF'),
    );
    await readDocument(file('ok.pdf', makePdf(['quiet'])));
    expect((await readDocument(file('cmap2.pdf', makeCjkCMapPdf('中文')))).text).toContain('中文'); // loads CMaps
    for (const s of spies) {
      expect(s).not.toHaveBeenCalled();
      s.mockRestore();
    }
  });
});

describe('other failures', () => {
  it('a folder and a missing file', async () => {
    mkdirSync(join(dir, 'sub'), { recursive: true });
    expect((await failure(join(dir, 'sub'))).code).toBe('is_directory');
    expect((await failure(join(dir, 'nope.txt'))).code).toBe('not_found');
  });
});
