import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDocument } from '../../src/tools/files/readers/index.js';
import { buildXlsx, type RawCell } from '../helpers/xlsx-build.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

/** Real workbooks from exceljs's test suite (test/fixtures/real/xlsx, MIT, see LICENSE there). */
const REAL = join(import.meta.dirname, '../fixtures/real/xlsx');

let dir: string;
beforeAll(() => {
  dir = tempDir('zhi-xlsx-');
});
afterAll(() => cleanup(dir));

async function xlsx(name: string, wb: Parameters<typeof buildXlsx>[0]): Promise<string> {
  const p = join(dir, name);
  writeFileSync(p, await buildXlsx(wb));
  return p;
}

describe('spreadsheet values as a person sees them', () => {
  it('Chinese built-in date and time formats (numFmtId 31, 55, 56, 57, 58) are dates, not serial numbers', async () => {
    const serial = 43831.6; // 2020-01-01 14:24
    const p = await xlsx('dates.xlsx', {
      numFmtIds: [31, 55, 56, 57, 58, 14, 22],
      sheets: [
        {
          name: '日期',
          rows: [
            ['31', '55', '56', '57', '58', '14', '22'],
            [1, 2, 3, 4, 5, 6, 7].map((s) => ({ v: serial, s })),
          ],
        },
      ],
    });
    const doc = await readDocument(p);
    expect(doc.text).toContain(
      '| 2020年1月1日 | 下午 2时24分 | 下午 2时24分00秒 | 2020年1月 | 1月1日 | 2020-01-01 | 2020-01-01 14:24 |',
    );
    expect(doc.text).not.toContain('43831');
  });

  it('the built-in time format 47 shows minutes and seconds as Excel does: 01:01.0', async () => {
    const p = await xlsx('minutes.xlsx', {
      numFmtIds: [47],
      sheets: [{ name: 'T', rows: [['lap'], [{ v: 61 / 86400, s: 1 }]] }],
    });
    expect((await readDocument(p)).text).toContain('| 01:01.0 |');
  });

  it('currency, percent, thousands and custom formats; General numbers in full', async () => {
    const p = await xlsx('money.xlsx', {
      numFmtIds: [164, 165, 10, 3, 7, 166],
      customFormats: { 164: '"$"#,##0.00', 165: '[$€-407]#,##0.00', 166: 'yyyy"年"m"月"d"日" dddd' },
      sheets: [
        {
          name: 'Money',
          rows: [
            ['usd', 'eur', 'pct', 'thousands', 'yuan', 'weekday', 'general'],
            [
              { v: 123, s: 1 },
              { v: 1234.5, s: 2 },
              { v: 0.1234, s: 3 },
              { v: 1234567, s: 4 },
              { v: -1234.5, s: 5 },
              { v: 45366, s: 6 },
              123456789012,
            ],
          ],
        },
      ],
    });
    const doc = await readDocument(p);
    expect(doc.text).toContain(
      '| $123.00 | €1.234,50 | 12.34% | 1,234,567 | ¥-1,234.50 | 2024年3月15日 星期五 | 123456789012 |',
    );
  });

  it('cached formula values; formulas without one say so; merged cells show their value once', async () => {
    const p = await xlsx('formulas.xlsx', {
      sheets: [
        {
          name: 'Sheet1',
          rows: [
            ['季度汇总', 'x', 'x', null],
            ['a', 'b', 'sum', 'text'],
            [1, 2, { f: 'A3+B3', v: 3 }, { f: 'CONCAT("a","b")', t: 'str', v: 'ab' }],
            [4, 5, { f: 'A4+B4' }, null],
          ],
          merges: ['A1:C1'],
        },
      ],
    });
    const doc = await readDocument(p);
    expect(doc.text).toContain('| 季度汇总 |  |  |  |');
    expect(doc.text).toContain('| 1 | 2 | 3 | ab |');
    expect(doc.text).toContain('| 4 | 5 | =A4+B4 (formula, not calculated) |  |');
    expect(doc.notes.join('\n')).toMatch(/merged cells A1:C1/);
    expect(doc.notes.join('\n')).toMatch(/1 formula\(s\) without a saved result/);
  });

  it('1904 date system, hidden sheets, booleans, errors, inline and escaped strings', async () => {
    const p = await xlsx('misc.xlsx', {
      date1904: true,
      numFmtIds: [14],
      sheets: [
        {
          name: 'Visible',
          rows: [
            ['d', 'b', 'e', 'inline'],
            [
              { v: 43904, s: 1 },
              { v: 1, t: 'b' },
              { v: '#DIV/0!', t: 'e' },
              { v: 'in_x000D_line', t: 'inlineStr' },
            ],
          ],
        },
        { name: 'Secret', hidden: true, rows: [['x']] },
      ],
    });
    const doc = await readDocument(p);
    expect(doc.text).toContain('| 2024-03-15 | TRUE | #DIV/0! | in\rline |'.replace('\r', '<br>'));
    expect(doc.text).toContain('## Secret (hidden sheet, not shown in Excel)');
    expect(doc.sheets).toEqual(['Visible', 'Secret']);
  });
});

describe('big sheets stream', () => {
  it('stops at the page budget, marks the rest, and pages on from the offset it gave', async () => {
    function* rows(): Generator<RawCell[]> {
      yield ['id', 'name', 'value'];
      for (let i = 1; i <= 30_000; i++) yield [i, `客户 ${i}`, i * 1.5];
    }
    const p = await xlsx('big.xlsx', {
      sheets: [
        { name: 'Big', rows: rows() },
        { name: 'Second', rows: [['after']] },
      ],
    });
    const doc = await readDocument(p, { maxBytes: 20_000, continueHint: (n) => ` offset=${n}` });
    expect(doc.complete).toBe(false);
    expect(doc.text).toMatch(
      /\[truncated: showing the first 20 KB of text; the document has more\. offset=\d+\]$/,
    );
    expect(doc.text).toContain('| 1 | 客户 1 | 1.5 |');
    expect(doc.sheets).toEqual(['Big', 'Second']);
    const next = await readDocument(p, { maxBytes: 20_000, offset: doc.nextOffset! });
    expect(next.offset).toBe(doc.nextOffset);
    const lastShown = /\| (\d+) \| 客户/.exec(
      doc.text
        .split('\n')
        .filter((l) => l.includes('客户'))
        .at(-2) ?? '',
    )?.[1];
    expect(next.text).toContain(`| ${Number(lastShown) + 2} | 客户 ${Number(lastShown) + 2} |`);
  });
});

describe('real workbooks (exceljs test suite)', () => {
  it('gold.xlsx: text, numbers, a date, a formula result and a hyperlink', async () => {
    const doc = await readDocument(join(REAL, 'gold.xlsx'));
    expect(doc.text).toContain('| Number | 3.14 |');
    expect(doc.text).toContain('| Date | 2016-05-17 |');
    expect(doc.text).toContain('| Formula | I am Text |');
    expect(doc.text).toContain('| Hyperlink | exceljs |');
  });

  it('1904.xlsx: a workbook counting days from 1904', async () => {
    const doc = await readDocument(join(REAL, '1904.xlsx'));
    expect(doc.text).toContain('1904-01-01');
  });

  it('dateIssue.xlsx (LibreOffice): a custom DD/MM/YY date as the author sees it', async () => {
    const doc = await readDocument(join(REAL, 'dateIssue.xlsx'));
    expect(doc.text).toContain('| 20/11/20 |');
  });

  it('shared_string_with_escape.xlsx: an escaped _x000D_ stays literal text', async () => {
    const doc = await readDocument(join(REAL, 'shared_string_with_escape.xlsx'));
    expect(doc.text).toContain('| _x000D_ |');
  });

  it('missing-bits.xlsx: a package without its workbook part still shows its sheet', async () => {
    const doc = await readDocument(join(REAL, 'missing-bits.xlsx'));
    expect(doc.text).toContain('| 42 |');
  });

  it('fibonacci.xlsx: formula results', async () => {
    const doc = await readDocument(join(REAL, 'fibonacci.xlsx'));
    expect(doc.text).toContain('| 19 | 4181 |');
  });
});
