/**
 * Cell values as a person sees them in Excel: the cell's number format applied by numfmt (an
 * implementation of Excel's format codes), with Excel's built-in formats filled in — including
 * the Chinese date and time formats (ids 27–36 and 50–58), which a workbook names only by number.
 * "General" numbers are shown in full (no "1.23E+11") and dates that only carry Excel's default
 * short date as ISO dates, so the model never has to guess a day/month order.
 */
import { formatWallDate } from './markdown.js';

type NumFmt = typeof import('numfmt');

/** ECMA-376 built-in formats; 27–36 and 50–58 are locale-dependent: the zh-CN variants here. */
const BUILT_IN: Record<number, string> = {
  0: 'General',
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  5: '"¥"#,##0;"¥"-#,##0',
  6: '"¥"#,##0;[Red]"¥"-#,##0',
  7: '"¥"#,##0.00;"¥"-#,##0.00',
  8: '"¥"#,##0.00;[Red]"¥"-#,##0.00',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'yyyy-mm-dd',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'yyyy-mm-dd h:mm',
  27: 'yyyy"年"m"月"',
  28: 'm"月"d"日"',
  29: 'm"月"d"日"',
  30: 'm-d-yy',
  31: 'yyyy"年"m"月"d"日"',
  32: 'h"时"mm"分"',
  33: 'h"时"mm"分"ss"秒"',
  34: '上午/下午 h"时"mm"分"',
  35: '上午/下午 h"时"mm"分"ss"秒"',
  36: 'yyyy"年"m"月"',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;[Red](#,##0)',
  39: '#,##0.00;(#,##0.00)',
  40: '#,##0.00;[Red](#,##0.00)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  // ECMA-376 prints 47 as "mmss.0"; Excel itself shows it as mm:ss.0 (01:01.0).
  47: 'mm:ss.0',
  48: '##0.0E+0',
  49: '@',
  50: 'yyyy"年"m"月"',
  51: 'm"月"d"日"',
  52: 'yyyy"年"m"月"',
  53: 'm"月"d"日"',
  54: 'm"月"d"日"',
  55: '上午/下午 h"时"mm"分"',
  56: '上午/下午 h"时"mm"分"ss"秒"',
  57: 'yyyy"年"m"月"',
  58: 'm"月"d"日"',
};

/** The format code of a numFmtId: the workbook's own, else the built-in one. */
export function formatCode(id: number, custom: Map<number, string>): string {
  return custom.get(id) ?? BUILT_IN[id] ?? 'General';
}

/** A plain number without float noise (0.1 + 0.2 → 0.3) and without exponent for ordinary sizes. */
export function plainNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  return String(Number.parseFloat(n.toPrecision(15)));
}

/** Excel serial day number (1900 system) to a UTC wall-time Date. */
export function excelSerialToDate(serial: number): Date {
  return new Date(Math.round((serial - 25569) * 86400 * 1000));
}

/** Excel's short-date formats (ids 14, 22 and their spellings), shown as ISO dates instead. */
const DEFAULT_DATE = /^(m{1,2}[-/]d{1,2}[-/]yy(yy)?|yyyy-mm-dd)( h{1,2}:mm(:ss)?)?$/i;

export class NumberFormatter {
  private readonly cache = new Map<string, ((v: number) => string) | undefined>();

  constructor(
    private readonly numfmt: NumFmt,
    /** Workbooks made on old Macs count days from 1904. */
    private readonly date1904 = false,
  ) {}

  /** The text of a number in a format code. */
  format(n: number, formatCode: string): string {
    let code = formatCode;
    if (!Number.isFinite(n)) return String(n);
    if (!code || code === 'General' || code === '@') return plainNumber(n);
    // Excel's own spelling of the Chinese AM/PM marker, which numfmt knows as AM/PM.
    code = code.replace('上午/下午', 'AM/PM');
    let fn = this.cache.get(code);
    if (!this.cache.has(code)) {
      fn = this.compile(code);
      this.cache.set(code, fn);
    }
    return fn ? fn(n) : plainNumber(n);
  }

  private compile(code: string): ((v: number) => string) | undefined {
    const numfmt = this.numfmt;
    try {
      const isDate = numfmt.isDateFormat(code);
      const shift = isDate && this.date1904 ? 1462 : 0;
      if (isDate && DEFAULT_DATE.test(code.replace(/\\|"/g, ''))) {
        // A date-only format (id 14) shows no time of day even when the value has one.
        const dateOnly = !/h/i.test(code);
        return (v) => formatWallDate(excelSerialToDate(dateOnly ? Math.floor(v + shift) : v + shift));
      }
      // Month and AM/PM names: Chinese where the format itself is Chinese (the built-ins 27–58,
      // or a custom code with CJK text), else English, as the workbook's author most likely saw.
      const locale = /[\u3000-\u9fff]/.test(code) ? 'zh-CN' : 'en';
      const options = { locale, throws: false, nbsp: false };
      return (v) => {
        const out = numfmt.format(code, v + shift, options).trim();
        // numfmt shows an overflowing value as ###…; the value itself says more.
        return /^#+$/.test(out) ? plainNumber(v) : out;
      };
    } catch {
      return undefined;
    }
  }
}
