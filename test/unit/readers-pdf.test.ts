import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDocument } from '../../src/tools/files/readers/index.js';
import { pageStarts } from '../../src/tools/files/readers/pdf-pages.js';
import { makeCjkCMapPdf } from '../helpers/file-fixtures.js';
import { makePdf } from '../helpers/media.js';
import {
  makeFormPdf,
  makeFourFieldPdf,
  makeGbkWinAnsiPdf,
  makePositionedPdf,
  makeShiftJisPdf,
  makeStreamPdf,
} from '../helpers/pdf-build.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

/** Real PDFs from pdf.js's test suite (test/fixtures/real/pdf, Apache-2.0, see LICENSE there). */
const REAL = join(import.meta.dirname, '../fixtures/real/pdf');

let dir: string;
beforeAll(() => {
  dir = tempDir('zhi-pdf-');
});
afterAll(() => cleanup(dir));

function file(name: string, data: Buffer): string {
  const p = join(dir, name);
  writeFileSync(p, data);
  return p;
}

describe('Chinese and Japanese PDFs without embedded fonts', () => {
  it('a GBK CMap (GBKp-EUC-H, pdf.js issue 3521) reads as text', async () => {
    const doc = await readDocument(join(REAL, 'issue3521.pdf'));
    expect(doc.text).toContain('我们都是黑体字');
  });

  it('UniGB-UCS2-H with the non-embedded STSong-Light reads as text', async () => {
    const doc = await readDocument(file('cmap.pdf', makeCjkCMapPdf('你好世界')));
    expect(doc.text).toContain('你好世界');
  });

  it('Shift-JIS Japanese in 90ms-RKSJ-H (a non-embedded Japanese font) reads as Japanese', async () => {
    const doc = await readDocument(file('sjis.pdf', makeShiftJisPdf('東京支店の売上報告：前年比１２％増')));
    expect(doc.text).toContain('東京支店の売上報告：前年比１２％増');
  });

  it('XiaoBiaoSong and SimFang (GBK bytes in a WinAnsi font) read as Chinese, not Latin-1', async () => {
    const toc = await readDocument(join(REAL, 'XiaoBiaoSong.pdf'));
    expect(toc.text).toContain('目　　录');
    expect(toc.text).toContain('关于红军作战的原则');
    expect(toc.text).toContain('（一九三七年八月一日）');
    expect(toc.text).not.toMatch(/[ÄÂ¹Ø]/);
    const fang = await readDocument(join(REAL, 'SimFang-variant.pdf'));
    expect(fang.text).toContain('联 合 起 来');
    expect(
      (await readDocument(file('gbk-winansi.pdf', makeGbkWinAnsiPdf('季度报告：收入增长')))).text,
    ).toContain('季度报告：收入增长');
  });

  it('accented Latin text in a WinAnsi font is left as it is', async () => {
    const latin = 'Caf\xe9 cr\xe8me br\xfbl\xe9e \xc5ngstr\xf6m \xc6\xf8';
    const doc = await readDocument(file('latin.pdf', makePositionedPdf([{ x: 72, y: 700, text: latin }])));
    expect(doc.text).toContain('Café crème brûlée Ångström Æø');
  });

  it('vertical Japanese (Identity-V) reads as text', async () => {
    const doc = await readDocument(join(REAL, 'vertical.pdf'));
    expect(doc.text).toContain('あいうえお');
    expect(doc.text).toContain('日本語');
  });
});

describe('word gaps (compared with pdftotext on the same files)', () => {
  const line = async (name: string, stream: string) =>
    (await readDocument(file(name, makeStreamPdf(`BT /F1 10 Tf 72 720 Td ${stream} ET`)))).text
      .split('\n')
      .slice(1)
      .join(' ');

  it('a space drawn on its own in a smaller size still separates the words', async () => {
    expect(await line('sp.pdf', '(Build powerful) Tj /F1 6 Tf ( ) Tj /F1 10 Tf (agents) Tj')).toBe(
      'Build powerful agents',
    );
  });

  it('no stray spaces inside brackets or before commas from runs set a little apart', async () => {
    expect(
      await line(
        'br.pdf',
        '[([) -250 (38) -250 (,) -250 (22) -250 (]) -250 (and) -300 (\\(a) -250 (\\))] TJ',
      ),
    ).toBe('[38, 22] and (a)');
  });

  it('kerning inside a word does not split it; a TJ word gap does', async () => {
    expect(await line('kern.pdf', '[(W) 80 (aves) -150 (rise)] TJ')).toBe('Waves rise');
  });
});

describe('forms and tables', () => {
  it('four filled fields show four values: on the field, on a parent, only in the appearance, one field twice', async () => {
    const doc = await readDocument(file('four.pdf', makeFourFieldPdf()));
    expect(doc.text).toContain('- customer: 李华');
    expect(doc.text).toContain('- order_no: A-1042');
    expect(doc.text).toContain('- amount: 1,280.00');
    expect(doc.text).toContain('- date: 2026-11-27');
    expect(doc.text).not.toContain('(empty)');
    expect(doc.text.match(/- date:/g)).toHaveLength(1);
  });

  it('AcroForm field values are listed under their page', async () => {
    const doc = await readDocument(
      file('form.pdf', makeFormPdf({ name: '王小明', agree: true, city: 'Shanghai' })),
    );
    expect(doc.text).toContain('Application form');
    expect(doc.text).toContain('Form fields:\n- 申请人姓名: 王小明\n- agree: [x]\n- city: Shanghai');
    const blank = await readDocument(file('form2.pdf', makeFormPdf({ name: '', agree: false, city: '' })));
    expect(blank.text).toContain('- 申请人姓名: (empty)\n- agree: [ ]');
  });

  it('text laid out in aligned columns becomes a Markdown table; prose stays prose', async () => {
    const rows = [
      ['Item', 'Qty', 'Price'],
      ['Apples', '3', '1.10'],
      ['Pears', '10', '2.00'],
      ['Plums', '7', '0.50'],
    ];
    const runs = [{ x: 72, y: 740, text: 'Quarterly order summary for the north region' }];
    for (const [i, r] of rows.entries())
      for (const [c, text] of r.entries()) runs.push({ x: 72 + c * 150, y: 700 - i * 20, text });
    runs.push({ x: 72, y: 600, text: 'Prices are in euros.' });
    const doc = await readDocument(file('table.pdf', makePositionedPdf(runs)));
    expect(doc.text).toContain('Quarterly order summary for the north region');
    expect(doc.text).toContain(
      '| Item | Qty | Price |\n| --- | --- | --- |\n| Apples | 3 | 1.10 |\n| Pears | 10 | 2.00 |\n| Plums | 7 | 0.50 |',
    );
    expect(doc.text).toContain('Prices are in euros.');
  });
});

describe('paging', () => {
  it('a continuation starts at the page holding the offset, and offsets mean the same every time', async () => {
    const pages = Array.from({ length: 30 }, (_, i) => `Page ${i + 1} ${'text '.repeat(60)}`);
    const p = file('long.pdf', makePdf(pages));
    const first = await readDocument(p, { maxBytes: 2000 });
    expect(first.truncated).toBe(true);
    const st = statSync(p);
    const starts = pageStarts(`${p}\0${st.size}\0${st.mtimeMs}`);
    expect(starts.pageAt(first.nextOffset!)).toBeGreaterThan(1); // page 1 is not parsed again
    const second = await readDocument(p, { maxBytes: 2000, offset: first.nextOffset! });
    expect(second.offset).toBe(first.nextOffset);
    const whole = await readDocument(p, { maxBytes: 1_000_000 });
    const body = (t: string) => t.slice(0, t.lastIndexOf('\n\n[truncated'));
    expect(whole.text.startsWith(body(first.text) + body(second.text))).toBe(true);
    // Read again from the same offset: the same text.
    expect((await readDocument(p, { maxBytes: 2000, offset: first.nextOffset! })).text).toBe(second.text);
  });
});
