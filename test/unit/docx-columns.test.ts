/** Word tables sized by what their cells hold (issue 45): dates and phone numbers not wrapped. */
import { describe, expect, it } from 'vitest';
import { columnWidths } from '../../src/tools/files/writers/docx-columns.js';

describe('columnWidths', () => {
  it('gives a date and a phone number room on one line, a one-letter code little, and sums to the page', () => {
    const widths = columnWidths(
      [
        ['Code', 'A', 'B'],
        ['Date', '2026-11-29', '2026-12-01'],
        ['Phone', '+86 138-0013-8000', '021-6543-2100'],
        ['Notes', 'Paid in full after the second reminder was sent by post', 'Open'],
      ],
      9000,
    );
    expect(widths.reduce((a, b) => a + b, 0)).toBe(9000);
    const [code, date, phone, notes] = widths as [number, number, number, number];
    expect(date).toBeGreaterThanOrEqual('2026-11-29'.length * 110 + 180);
    expect(phone).toBeGreaterThanOrEqual('021-6543-2100'.length * 110 + 180);
    expect(code).toBeLessThan(date);
    expect(notes).toBeGreaterThan(phone);
  });

  it('shares the page evenly when nothing asks more, and still sums exactly with many columns', () => {
    expect(columnWidths([['a'], ['b'], ['c']], 9000)).toEqual([3000, 3000, 3000]);
    const many = columnWidths(
      Array.from({ length: 12 }, () => ['2026-11-29 09:30:15']),
      9000,
    );
    expect(many.reduce((a, b) => a + b, 0)).toBe(9000);
  });
});
