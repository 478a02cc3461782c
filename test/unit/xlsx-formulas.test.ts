import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertWithSoffice, findSoffice } from '../../src/tools/files/readers/soffice.js';
import { encodeXlsx } from '../../src/tools/files/writers/xlsx.js';
import { FormulaEvaluator } from '../../src/tools/files/writers/xlsx-formula.js';
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
        ['说明', '', '=VLOOKUP(1,A1:B2,2)', '=AVERAGE(B2:B3)'],
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
  const sheet: Record<string, number | { formula: string } | 'other'> = {
    A1: 'other',
    B1: 2,
    B2: 3,
    C1: { formula: 'B1*B2' },
    C2: { formula: 'C2+1' },
  };
  const ev = new FormulaEvaluator((col, row) => sheet[`${String.fromCharCode(64 + col)}${row}`]);
  it('arithmetic, precedence, references to other formulas, ranges', () => {
    expect(ev.evaluate('1+2*3^2')).toBe(19);
    expect(ev.evaluate('-(B1+B2)/2')).toBe(-2.5);
    expect(ev.evaluate('C1*2')).toBe(12);
    expect(ev.evaluate('SUM(A1:C1, 4)')).toBe(12); // text in a range is skipped
    expect(ev.evaluate('MAX(B1:B2)+MIN(B1:B2)+COUNT(A1:B2)')).toBe(7);
    expect(ev.evaluate('50%*B1')).toBe(1);
  });
  it('leaves the rest to the spreadsheet', () => {
    expect(ev.evaluate('A1*2')).toBeUndefined(); // text in arithmetic
    expect(ev.evaluate('C2')).toBeUndefined(); // a cycle
    expect(ev.evaluate('B1/0')).toBeUndefined();
    expect(ev.evaluate('IF(B1>1,1,0)')).toBeUndefined();
    expect(ev.evaluate('Sheet2!A1')).toBeUndefined();
  });
});

describe('an xlsx written with =B2*C2', () => {
  it('holds formulas with their cached results, and asks for recalculation on open', async () => {
    const { data } = await encodeXlsx(ORDERS);
    const { default: ExcelJS } = await import('exceljs');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(data as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('订单')!;
    expect(ws.getCell('D2').value).toEqual({ formula: 'B2*C2', result: 500 });
    expect(ws.getCell('D3').value).toEqual({ formula: 'B3*C3', result: 800 });
    expect(ws.getCell('D4').value).toEqual({ formula: 'SUM(D2:D3)', result: 1300 });
    expect(ws.getCell('C5').value).toEqual({ formula: 'VLOOKUP(1,A1:B2,2)' });
    expect(ws.getCell('D5').value).toEqual({ formula: 'AVERAGE(B2:B3)', result: 10.25 });
    const workbookXml = new TextDecoder().decode(unzipSync(data)['xl/workbook.xml']);
    expect(workbookXml).toMatch(/<calcPr fullCalcOnLoad="1"/);
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
      expect(lines[4]).toBe('说明,,#N/A,10.25');
    },
    120_000,
  );
});
