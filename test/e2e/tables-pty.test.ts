/**
 * Tables that fit (issue 13, defect 6): a wide table with Chinese text, dates and amounts,
 * streamed into the REPL at 60 and 100 columns, in English and Chinese. Every row of the screen
 * stays within the window (nothing wraps behind the renderer's back) and no date or amount is
 * split across lines. At a width too narrow for a grid the rows become cards.
 */
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { VirtualTerminal } from '../helpers/vt.js';

const e = useE2E();
const { fake } = e;

const PROMPT = /zhi \[(?:approve|确认)\]> $/;

const TABLE = `| 日期 | 客户名称 | 金额（元） | 状态 | 备注 |
|---|---|--:|---|---|
| 2026-01-15 | 北京智谱华章科技有限公司 | 2,000.00 | 已付款 | 第一期款项，按合同约定于月中支付 |
| 2026-02-01 | 上海某某文化传媒有限公司 | 12,345.67 | 待付款 | 等待对方财务确认发票信息后再付 |
| 2026-03-20 | Acme Trading Co. | 980.50 | 已付款 | paid by bank transfer, reference 7781 |
`;
const TOKENS = ['2026-01-15', '2026-02-01', '2026-03-20', '2,000.00', '12,345.67', '980.50'];

async function answerIn(cols: number, language: string): Promise<string[]> {
  fake.script({ kind: 'text', text: `${TABLE}\n合计三笔。`, chunk: 7 });
  const s = e.pty({ cols, rows: 40, env: { ZHI_LANGUAGE: language } });
  await s.waitFor(PROMPT);
  const from = s.mark();
  s.write('列出账目\r');
  await s.waitFor('合计三笔', 15_000, from);
  await s.waitFor(PROMPT, 15_000, from);
  const vt = new VirtualTerminal(cols);
  vt.write(s.raw());
  const lines = vt.text().split('\n');
  const start = lines.findIndex((l) => l.includes('列出账目'));
  return lines.slice(start + 1, lines.findIndex((l, i) => i > start && l.includes('合计三笔')) + 1);
}

describe('tables that fit the window', () => {
  for (const cols of [60, 100]) {
    for (const language of ['en', 'zh']) {
      it(`${cols} columns, ${language}: every line fits and dates and amounts stay whole`, async () => {
        const lines = await answerIn(cols, language);
        for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(cols);
        const text = lines.join('\n');
        for (const token of TOKENS) expect(text).toContain(token);
        expect(text).toContain('┌');
      });
    }
  }

  it('34 columns: no grid fits, so each row is a card', async () => {
    const lines = await answerIn(34, 'zh');
    for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(34);
    const text = lines.join('\n');
    expect(text).not.toContain('┌');
    expect(text).toMatch(/日期： +2026-01-15/);
    expect(text).toMatch(/金额（元）：12,345\.67/);
  });
});

describe('a table taller than the window (issue 44)', () => {
  let table = '| # | 日期 | 客户 | 金额（元） | 状态 |\n|--:|---|---|--:|---|\n';
  for (let i = 0; i < 172; i++)
    table += `| ${i + 1} | 2026-01-${String((i % 28) + 1).padStart(2, '0')} | 客户${i}有限公司 | ${((i * 7919) % 100000).toLocaleString('en')}.00 | ${i % 3 ? '已付' : '待付款'} |\n`;
  const answer = `下面是回款明细：\n\n${table}\n合计 172 笔。`;

  for (const cols of [100, 60]) {
    it(`${cols} columns: printed row by row as it streams, each row once and in order, borders aligned`, async () => {
      fake.script({ kind: 'text', text: answer, chunk: 48, delayMs: 8 });
      const s = e.pty({ cols, rows: 30 });
      await s.waitFor(PROMPT);
      const from = s.mark();
      s.write('列出回款\r');
      // Rows are on the screen for good while the table is still arriving.
      await s.waitFor('客户60有限公司', 30_000, from);
      expect(s.text().slice(from)).not.toContain('合计 172 笔');
      await s.waitFor('合计 172 笔', 30_000, from);
      await s.waitFor(PROMPT, 15_000, from);
      const raw = s.raw();
      const vt = new VirtualTerminal(cols);
      vt.write(raw);
      const lines = vt.text().split('\n');
      const rows = lines.filter((l) => /^│ +\d+ │ 2026-/.test(l));
      expect(rows.map((l) => Number(l.match(/\d+/)![0]))).toEqual(
        Array.from({ length: 172 }, (_, i) => i + 1),
      );
      const grid = lines.filter((l) => /^[┌│├└]/.test(l));
      expect(new Set(grid.map((l) => stringWidth(l))).size).toBe(1);
      expect(stringWidth(grid[0]!)).toBeLessThanOrEqual(cols);
      for (const token of ['99,819.00', '2026-01-28']) expect(grid.join('\n')).toContain(token);
      // Redrawing the newest rows every frame wrote about 9× the answer here.
      expect(Buffer.byteLength(raw.slice(raw.indexOf('列出回款')))).toBeLessThan(
        4 * Buffer.byteLength(answer),
      );
    });
  }
});
