import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDocument } from '../../src/tools/files/readers/index.js';
import { convertWithSoffice, findSoffice } from '../../src/tools/files/readers/soffice.js';
import { encodeXlsx } from '../../src/tools/files/writers/xlsx.js';
import {
  type CellContent,
  FormulaEvaluator,
  type Outcome,
} from '../../src/tools/files/writers/xlsx-formula.js';
import { reachesOut } from '../../src/tools/files/writers/xlsx-recalc.js';
import { withDecimals } from '../../src/tools/files/writers/xlsx-results.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

const ORDERS = {
  sheets: [
    {
      name: '订单',
      headers: ['产品', '单价', '数量', '金额'],
      rows: [
        ['笔记本', '12.5', '40', '=B2*C2'],
        ['钢笔', '8', '100', '=B3*C3'],
        ['合计', '', '=SUM(C2:C3)', '=SUM(D2:D3)'],
        ['说明', '', '=VLOOKUP("钢笔",A1:B3,2,FALSE)', '=AVERAGE(B2:B3)'],
      ],
    },
  ],
};

/** A summary sheet over two data sheets: the workbook of issue 45. */
const SUMMARY = {
  sheets: [
    {
      name: 'Sheet 1',
      headers: ['门店', '销售额'],
      rows: [
        ['东城', '1.2万'],
        ['西城', '¥3,400'],
        ['南城', '（2,000）'],
        ['北城', '约3万'],
      ],
    },
    {
      name: '目标',
      headers: ['门店', '目标'],
      rows: [
        ['东城', 10_000],
        ['西城', 5000],
      ],
    },
    {
      name: '汇总',
      headers: ['项目', '值'],
      rows: [
        ['合计', "=SUM('Sheet 1'!B2:B9)"],
        ['平均', "=AVERAGE('Sheet 1'!B2:B5)"],
        ['东城目标', '=VLOOKUP("东城",目标!A:B,2,FALSE)'],
        ['完成率', '=B2/SUM(目标!B2:B3)'],
        ['取整', '=ROUND(B3,-2)'],
        ['判断', '=IF(B2>=SUM(目标!B:B),"达标","未达标")'],
        ['门店数', "=COUNTA('Sheet 1'!A2:A9)"],
        ['未知', '=NETWORKDAYS(A1,A2)'],
        ['缺失', '=VLOOKUP("中城",目标!A:B,2,FALSE)'],
      ],
    },
  ],
};

let dir: string;
beforeAll(() => {
  dir = tempDir('zhi-formula-');
});
afterAll(() => cleanup(dir));

describe('formulas zhi can compute', () => {
  const cells: Record<string, CellContent> = {
    A1: 'Name',
    B1: 2,
    B2: 3,
    C1: { formula: 'B1*B2' },
    C2: { formula: 'C2+1' },
    A2: 'x',
  };
  const other: Record<string, CellContent> = { A1: 'k', B1: 7, A2: 'v', B2: 9 };
  const grid = (name: string, t: Record<string, CellContent>) => ({
    name,
    rows: 2,
    cell: (col: number, row: number) => t[`${String.fromCharCode(64 + col)}${row}`] ?? null,
  });
  const ev = new FormulaEvaluator([grid('S', cells), grid('My data', other)]);
  const value = (f: string): Outcome => ev.evaluate('S', f);
  const TABLE: [string, Outcome][] = [
    ['1+2*3^2', { value: 19 }],
    ['-(B1+B2)/2', { value: -2.5 }],
    ['-2^2', { value: 4 }], // Excel: unary minus first
    ['C1*2', { value: 12 }],
    ['SUM(A1:C1, 4)', { value: 12 }], // text in a range is skipped
    ['MAX(B1:B2)+MIN(B1:B2)+COUNT(A1:B2)', { value: 7 }],
    ['COUNTA(A1:B2)', { value: 4 }],
    ['50%*B1', { value: 1 }],
    ["SUM('My data'!B1:B2)", { value: 16 }],
    ["'My data'!B2-B1", { value: 7 }],
    ['ROUND(2.345,2)', { value: 2.35 }],
    ['ROUND(1.005,2)', { value: 1.01 }],
    ['ROUND(-2.5,0)', { value: -3 }],
    ['ROUND(1234,-2)', { value: 1200 }],
    ['ROUNDUP(1.21,1)+ROUNDDOWN(1.29,1)', { value: 2.5 }],
    ['IF(B1>1,"big","small")', { value: 'big' }],
    ['IF(B1>5,1)', { value: false }],
    ['IF(B1=2,1,1/0)', { value: 1 }], // the branch not taken is not computed
    ['VLOOKUP("V",\'My data\'!A1:B2,2,FALSE)', { value: 9 }],
    ['VLOOKUP("w",\'My data\'!A1:B2,2,FALSE)', { error: '#N/A' }],
    ['IFERROR(VLOOKUP("w",\'My data\'!A1:B2,2,FALSE),0)', { value: 0 }],
    ['B1/0', { error: '#DIV/0!' }],
    ['A1*2', { error: '#VALUE!' }],
    ['A1&"-"&B1', { value: 'Name-2' }],
    ['AVERAGE(A1:A2)', { error: '#DIV/0!' }],
  ];
  it.each(TABLE)('=%s', (f, out) => {
    expect(value(f)).toEqual(out);
  });

  const UNSUPPORTED: [string, RegExp][] = [
    ['C2', /circular/],
    ['NOW()', /NOW is not among the functions/],
    ['VLOOKUP(1,A1:B2,2)', /approximate match/],
    ['Sheet9!A1', /no sheet named "Sheet9"/],
    ['{1,2}', /cannot read/],
    ['SUM(A1:B2', /expected/],
    [`${'('.repeat(100)}1${')'.repeat(100)}`, /nested more than 64/],
  ];
  it.each(UNSUPPORTED)('=%s is not computed, with a reason', (f, why) => {
    const out = value(f);
    expect('unsupported' in out && out.unsupported).toMatch(why);
  });

  it('a long chain of formulas and a whole-column SUM in every row stay bounded', () => {
    const n = 2000;
    const chain = new FormulaEvaluator([
      {
        name: 'C',
        rows: n,
        cell: (col, row) => (col === 1 ? (row < n ? { formula: `A${row + 1}+1` } : 1) : null),
      },
    ]);
    expect(chain.evaluate('C', 'A2+1', '1,1')).toEqual({
      unsupported: 'formulas that refer to formulas more than 400 deep',
    });
    const rows = 100_000;
    const wide = new FormulaEvaluator([
      { name: 'W', rows, cell: (col, row) => (col === 1 ? row : col === 2 ? { formula: 'SUM(A:A)' } : null) },
    ]);
    const outcomes = Array.from({ length: 60 }, (_, r) => wide.evaluate('W', 'SUM(A:A)', `2,${r + 1}`));
    expect(outcomes[0]).toEqual({ value: (rows * (rows + 1)) / 2 });
    expect(outcomes[59]).toMatchObject({ unsupported: expect.stringMatching(/too many formula cells/) });
  });

  it('decimals go into every section of a format', () => {
    expect(withDecimals('#,##0', 2)).toBe('#,##0.00');
    expect(withDecimals('"¥"#,##0;("¥"#,##0)', 2)).toBe('"¥"#,##0.00;("¥"#,##0.00)');
    expect(withDecimals('0.0%', 0)).toBe('0%');
  });
});

describe('a workbook written with formulas', () => {
  it('holds formulas with their cached results, and asks for recalculation on open', async () => {
    const { data, notes } = await encodeXlsx(ORDERS);
    const { default: ExcelJS } = await import('exceljs');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(data as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('订单')!;
    expect(ws.getCell('D2').value).toEqual({ formula: 'B2*C2', result: 500 });
    expect(ws.getCell('D3').value).toEqual({ formula: 'B3*C3', result: 800 });
    expect(ws.getCell('D4').value).toEqual({ formula: 'SUM(D2:D3)', result: 1300 });
    expect(ws.getCell('C5').value).toEqual({ formula: 'VLOOKUP("钢笔",A1:B3,2,FALSE)', result: 8 });
    expect(ws.getCell('D5').value).toEqual({ formula: 'AVERAGE(B2:B3)', result: 10.25 });
    expect(ws.getCell('D5').numFmt).toBe('#,##0.00');
    expect(notes).toEqual([]);
    const workbookXml = new TextDecoder().decode(unzipSync(data)['xl/workbook.xml']);
    expect(workbookXml).toMatch(/<calcPr fullCalcOnLoad="1"/);
  });

  it('a summary sheet: cross-sheet SUM and AVERAGE, VLOOKUP, read back by zhi with values and formats', async () => {
    const { data, notes } = await encodeXlsx(SUMMARY, { libreOffice: false });
    const path = join(dir, 'summary.xlsx');
    writeFileSync(path, data);
    const { default: ExcelJS } = await import('exceljs');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(data as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('汇总')!;
    // 12,000 + 3,400 - 2,000; "约3万" stays text and SUM skips it, as Excel does
    expect(ws.getCell('B2').value).toEqual({ formula: "SUM('Sheet 1'!B2:B9)", result: 13_400 });
    expect(ws.getCell('B2').numFmt).toBe('#,##0');
    expect(ws.getCell('B3').value).toMatchObject({ result: 13_400 / 3 });
    expect(ws.getCell('B3').numFmt).toBe('#,##0.00');
    expect(ws.getCell('B4').value).toMatchObject({ result: 10_000 });
    expect(ws.getCell('B5').value).toMatchObject({ result: 13_400 / 15_000 });
    expect(ws.getCell('B5').numFmt).toBe('#,##0.00'); // not "1"
    expect(ws.getCell('B6').value).toMatchObject({ result: 4500 });
    expect(ws.getCell('B7').value).toMatchObject({ result: '未达标' });
    expect(ws.getCell('B8').value).toMatchObject({ result: 4 });
    expect(ws.getCell('B9').value).toEqual({ formula: 'NETWORKDAYS(A1,A2)' });
    expect(ws.getCell('B10').value).toMatchObject({ result: { error: '#N/A' } });
    expect(notes).toEqual([
      '1 cell(s) look numeric but were kept as text, because they do not say one exact number: \'Sheet 1\'!B5 "约3万" (an approximate amount or a range). Write them as plain numbers (e.g. 30000 for 3万) if they are amounts',
      "1 of 9 formula(s) were not computed by zhi and have no saved value until the file is opened in Excel or LibreOffice (which recalculate on open): '汇总'!B9 =NETWORKDAYS(A1,A2) (NETWORKDAYS is not among the functions zhi computes)",
      'formula(s) whose result is an error: \'汇总\'!B10 =VLOOKUP("中城",目标!A:B,2,FALSE) gives #N/A',
    ]);
    const doc = await readDocument(path);
    expect(doc.text).toContain('| 东城 | 12,000 |');
    expect(doc.text).toContain('| 南城 | (2,000) |');
    expect(doc.text).toContain('| 合计 | 13,400 |');
    expect(doc.text).toContain('| 平均 | 4,466.67 |');
    expect(doc.text).toContain('| 东城目标 | 10000 |'); // 目标!B is written without a format
    expect(doc.text).toContain('| 取整 | 4,500 |');
    expect(doc.text).toContain('| 判断 | 未达标 |');
    expect(doc.text).toContain('| 缺失 | #N/A |');
    expect(doc.text).toContain('NETWORKDAYS(A1,A2) (formula, not calculated)');
  });

  it.skipIf(!findSoffice())(
    'LibreOffice computes the same values (converted to CSV)',
    async () => {
      const { data } = await encodeXlsx(ORDERS);
      const path = join(dir, 'orders.xlsx');
      writeFileSync(path, data);
      const csv = (
        await convertWithSoffice(path, '.xlsx', 'csv:Text - txt - csv (StarCalc):44,34,76')
      ).toString('utf8');
      const lines = csv
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/);
      expect(lines[1]).toBe('笔记本,12.5,40,500');
      expect(lines[3]).toBe('合计,,140,1300');
      expect(lines[4]).toBe('说明,,8,10.25');
    },
    120_000,
  );

  it.skipIf(!findSoffice())(
    'where LibreOffice is installed, it gives the formulas zhi does not compute their values',
    async () => {
      const { data, notes } = await encodeXlsx({
        sheets: [
          {
            name: 'S',
            headers: ['x', 'y'],
            rows: [
              [16, '=SQRT(A2)'],
              ['a', '=NETWORKDAYS("2024-03-01","2024-03-31")'],
              [2, '=A2*A4'],
            ],
          },
        ],
      });
      const { default: ExcelJS } = await import('exceljs');
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(data as unknown as ArrayBuffer);
      const ws = wb.getWorksheet('S')!;
      expect(ws.getCell('B2').value).toEqual({ formula: 'SQRT(A2)', result: 4 });
      expect(ws.getCell('B3').value).toEqual({
        formula: 'NETWORKDAYS("2024-03-01","2024-03-31")',
        result: 21,
      });
      expect(ws.getCell('B4').value).toEqual({ formula: 'A2*A4', result: 32 });
      expect(ws.getCell('A1').font?.bold).toBe(true); // zhi's own layout, not LibreOffice's
      expect(notes).toEqual([
        `2 formula(s) zhi does not compute were given their values by LibreOffice's recalculation: 'S'!B2 =SQRT(A2); 'S'!B3 =NETWORKDAYS("2024-03-01","2024-03-31")`,
      ]);
    },
    120_000,
  );

  it('a workbook with a formula that reaches outside it is never given to LibreOffice', () => {
    expect(reachesOut(['SUM(A1:A2)', 'SQRT(16)', 'NETWORKDAYS(A1,A2)', "'Sheet 1'!B2"])).toBe(false);
    for (const f of [
      'WEBSERVICE("http://169.254.169.254/")',
      'webservice(A1)',
      'FILTERXML(A1,"//a")',
      "'file:///etc/passwd'#$Sheet1.A1",
      '[other.xlsx]Sheet1!A1',
      'DDE("soffice";"x";"y")',
      'HYPERLINK("https://x")',
      "'/etc/other.ods'#$Sheet1.A1",
    ])
      expect(reachesOut(['1+1', f]), f).toBe(true);
  });

  it('…and its formulas stay reported as not computed', async () => {
    const { notes } = await encodeXlsx({ rows: [['=SQRT(16)', '=WEBSERVICE("http://127.0.0.1:9/")']] });
    expect(notes).toEqual([expect.stringMatching(/^2 of 2 formula\(s\) were not computed by zhi/)]);
  });

  it.skipIf(!findSoffice())(
    'LibreOffice recalculates the summary sheet to the values zhi cached, cell by cell',
    async () => {
      // the summary first: LibreOffice converts the first sheet to CSV
      const [data1, target, summary] = SUMMARY.sheets;
      const { data } = await encodeXlsx({ sheets: [summary, data1, target] }, { libreOffice: false });
      const path = join(dir, 'summary-first.xlsx');
      writeFileSync(path, data);
      const csv = (
        await convertWithSoffice(path, '.xlsx', 'csv:Text - txt - csv (StarCalc):44,34,76')
      ).toString('utf8');
      const ours = (await readDocument(path)).text.split('## Sheet 1')[0]!;
      const theirs = csv
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/)
        .slice(1);
      expect(theirs).toHaveLength(9);
      // LibreOffice computed what zhi left (NETWORKDAYS of two labels): it did recalculate
      expect(theirs[7]).toBe('未知,#VALUE!');
      for (const line of theirs) {
        const [label, value] = line.replace(/"/g, '').split(/,(.*)/s) as [string, string];
        if (label === '未知') continue; // NETWORKDAYS: LibreOffice's own, zhi left it
        expect(ours).toContain(`| ${label} | ${value} |`);
      }
    },
    120_000,
  );
});
