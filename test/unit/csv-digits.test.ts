/**
 * Issue 30 #22: CSV output opened in Excel or WPS kept `013800000000` as 13800000000. Digit strings
 * a spreadsheet would damage are written as `="…"` text; LibreOffice opens the file as a
 * spreadsheet and the cell holds the digits as written.
 */
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { convertWithSoffice, findSoffice } from '../../src/tools/files/readers/soffice.js';
import { csvField, encodeCsv, keepDigits } from '../../src/tools/files/writers/csv.js';

describe('CSV digit strings keep their digits in a spreadsheet', () => {
  it('a leading zero or 12+ digits is written as ="…" text; other values as they are', () => {
    expect(csvField('013800000000')).toBe('"=""013800000000"""');
    expect(csvField('007')).toBe('"=""007"""');
    expect(csvField('6222021234567890123')).toBe('"=""6222021234567890123"""');
    expect(csvField('13800138000')).toBe('13800138000');
    expect(csvField('0')).toBe('0');
    expect(csvField('0.5')).toBe('0.5');
    expect(csvField('11010519491231002X')).toBe('11010519491231002X');
    expect(csvField(13800000000)).toBe('13800000000');
  });

  it('CSV text from the model: only those fields change, every other byte is kept', () => {
    const text = 'name,phone,note\r\n张三,013800000000,"a, ""quoted"" one"\r\n李四,"0755",plain\n';
    expect(keepDigits(text)).toBe(
      'name,phone,note\r\n张三,"=""013800000000""","a, ""quoted"" one"\r\n李四,"=""0755""",plain\n',
    );
    expect(keepDigits('a;0123\n')).toBe('a;0123\n');
    expect(keepDigits('"unterminated,0123')).toBe('"unterminated,0123');
    expect(encodeCsv('id\n0123\n').data.toString()).toBe('\uFEFFid\n"=""0123"""\n');
  });

  it.skipIf(!findSoffice())(
    'LibreOffice opens the CSV with 013800000000 in the cell',
    async () => {
      const { data } = encodeCsv({ headers: ['name', 'phone'], rows: [['A', '013800000000']] });
      const xlsx = await convertWithSoffice(data, '.csv', 'xlsx');
      const sheet = new TextDecoder().decode(unzipSync(xlsx)['xl/worksheets/sheet1.xml']);
      const cell = /<c r="B2"[^>]*>(.*?)<\/c>/.exec(sheet)?.[1] ?? '';
      expect(cell).toContain('<v>013800000000</v>');
    },
    120_000,
  );
});
