import { describe, expect, it } from 'vitest';
import { readNumber } from '../../src/tools/files/writers/cell-number.js';
import { xlsxValue } from '../../src/tools/files/writers/xlsx.js';

// input → the number stored and the format that shows it (undefined: the General format)
const NUMBERS: [string, number, string | undefined][] = [
  ['42', 42, undefined],
  ['3.50', 3.5, '0.00'],
  ['1,234.50', 1234.5, '#,##0.00'],
  ['-1,234', -1234, '#,##0'],
  ['+5', 5, undefined],
  ['0.5', 0.5, '0.0'],
  // Chinese magnitudes are the number they say, never the digits before them
  ['1.2万', 12_000, '#,##0'],
  ['1.5亿', 150_000_000, '#,##0'],
  ['3千', 3000, '#,##0'],
  ['2.5百万', 2_500_000, '#,##0'],
  ['1千万', 10_000_000, '#,##0'],
  ['1.23456万', 12_345.6, '#,##0.0'],
  ['0.1万', 1000, '#,##0'],
  ['1.2 万', 12_000, '#,##0'],
  ['-2.3万', -23_000, '#,##0'],
  ['（1.2万）', -12_000, '#,##0;(#,##0)'],
  ['(1.2万)', -12_000, '#,##0;(#,##0)'],
  // currencies, kept as a number format
  ['¥1.2万', 12_000, '"¥"#,##0'],
  ['￥1,200', 1200, '"¥"#,##0'],
  ['¥1,200.50', 1200.5, '"¥"#,##0.00'],
  ['RMB 1,200', 1200, '"¥"#,##0'],
  ['$99.90', 99.9, '"$"#,##0.00'],
  ['€1,000', 1000, '"€"#,##0'],
  ['-¥200', -200, '"¥"#,##0'],
  ['¥-200', -200, '"¥"#,##0'],
  ['(¥200)', -200, '"¥"#,##0;("¥"#,##0)'],
  ['15000元', 15_000, '#,##0"元"'],
  ['1,500.50元', 1500.5, '#,##0.00"元"'],
  ['3,400万元', 34_000_000, '#,##0"元"'],
  ['¥1.2万元', 12_000, '"¥"#,##0"元"'],
  ['(1,500.00)', -1500, '#,##0.00;(#,##0.00)'],
  ['(12)', -12, '0;(0)'],
  // percentages are fractions shown as percentages
  ['12.5%', 0.125, '0.0%'],
  ['-3%', -0.03, '0%'],
  ['12.5 %', 0.125, '0.0%'],
  // full-width digits and other minus signs
  ['１２３', 123, undefined],
  ['１，２３４．５', 1234.5, '#,##0.0'],
  ['−12', -12, undefined],
  ['－12', -12, undefined],
  ['１．５亿', 150_000_000, '#,##0'],
];

// input → why it stays text (undefined: plain text, no warning)
const TEXTS: [string, string | undefined][] = [
  ['1.2.3', 'not one number as written'],
  ['约3万', 'an approximate amount or a range'],
  ['3万多', 'an approximate amount or a range'],
  ['2-3万', 'a range'],
  ['1,23', 'not one number as written'],
  ['5%万', 'not one number as written'],
  ['¥12%', 'not one number as written'],
  ['1,234,567,890,123,456', 'more than 15 significant digits'],
  ['$1.2M', 'k/M/B are not read as thousands, millions or billions'],
  ['3.5k', 'k/M/B are not read as thousands, millions or billions'],
  ['5 kg', undefined],
  ['007', undefined],
  ['010-12345678', undefined],
  ['2-3', undefined],
  ['3 apples', undefined],
  ['①', undefined],
  ['10²', undefined],
  ['万', undefined],
  ['¥', undefined],
  ['', undefined],
];

describe('numeric text in a spreadsheet cell', () => {
  it.each(NUMBERS)('%s is stored as %d with format %s', (input, value, numFmt) => {
    expect(readNumber(input)).toEqual(
      numFmt === undefined ? { kind: 'number', value } : { kind: 'number', value, numFmt },
    );
    expect(xlsxValue(input)).toEqual(numFmt === undefined ? { value } : { value, numFmt });
  });

  it.each(TEXTS)('%s stays text (%s)', (input, why) => {
    expect(readNumber(input)).toEqual(why ? { kind: 'ambiguous', why } : { kind: 'text' });
    expect(xlsxValue(input)).toEqual(why ? { value: input, warning: why } : { value: input });
  });

  it('identifiers stay text whatever their digits are written with', () => {
    expect(xlsxValue('１３８００１３８０００')).toEqual({ value: '１３８００１３８０００' });
    expect(xlsxValue('12345', '工号')).toEqual({ value: '12345' });
    expect(xlsxValue('12345', '数量')).toEqual({ value: 12345 });
  });

  it('dates stay dates, as before', () => {
    const day = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d));
    expect(xlsxValue('2024-03-16')).toEqual({ value: day(2024, 3, 16), numFmt: 'yyyy-mm-dd' });
    expect(xlsxValue('2024.3.16')).toEqual({ value: day(2024, 3, 16), numFmt: 'yyyy.m.d' });
    expect(xlsxValue('2024年3月17日')).toEqual({ value: day(2024, 3, 17), numFmt: 'yyyy"年"m"月"d"日"' });
    expect(xlsxValue('2024-02-30')).toEqual({ value: '2024-02-30' });
    expect(xlsxValue('2024.2.30')).toEqual({ value: '2024.2.30', warning: 'not one number as written' });
  });
});
