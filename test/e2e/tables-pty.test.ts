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
    expect(text).toMatch(/日期: +2026-01-15/);
    expect(text).toMatch(/金额（元）: +12,345\.67/);
  });
});
