import { Lexer } from 'marked';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { type BlockContext, renderBlock, renderBlocks } from '../../src/cli/render/markdown.js';
import { MarkdownStream } from '../../src/cli/render/md-stream.js';
import { allocate, emptyMeasure, measureCell } from '../../src/cli/render/table-layout.js';
import { makeTheme } from '../../src/cli/render/theme.js';

const plain = makeTheme(false);
const color = makeTheme(true);
const strip = (s: string) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
const md = (src: string, width: number, theme = plain) =>
  renderBlocks(Lexer.lex(src, { gfm: true }), { width, theme }).map(strip);

const LEDGER = `| 日期 | 客户名称 | 金额 | 状态 | 备注 |
|---|---|--:|---|---|
| 2026-01-15 | 北京智谱华章科技有限公司 | 2,000.00 | 已付款 | 第一期款项，按合同约定于月中支付 |
| 2026-02-01 | 上海某某文化传媒有限公司 | 12,345.67 | 待付款 | 等待对方财务确认发票信息 |
| 2026-03-20 | Acme Trading Co. | ¥980.50 | 已付款 | paid by bank transfer, reference 7781 |
`;

const measure = (cells: string[]) => {
  const m = emptyMeasure();
  for (const c of cells) measureCell(c, m);
  return m;
};

describe('table layout', () => {
  it('keeps natural widths when they fit', () => {
    expect(allocate([measure(['abc']), measure(['12345'])], 20)).toEqual([3, 5]);
  });

  it('shrinks text columns, never below the widest number or date in them', () => {
    const cols = [
      measure(['2026-01-15']),
      measure(['a long description of the work done']),
      measure(['12,345.67']),
    ];
    const widths = allocate(cols, 36)!;
    expect(widths[0]).toBe(10);
    expect(widths[2]).toBe(9);
    expect(widths.reduce((a, b) => a + b)).toBeLessThanOrEqual(36);
  });

  it('gives up on a grid (cards) when even the minimums do not fit', () => {
    const cols = Array.from({ length: 6 }, () => measure(['2026-01-15']));
    expect(allocate(cols, 40)).toBeUndefined();
  });
});

describe('tables that fit', () => {
  for (const width of [60, 80, 100]) {
    for (const theme of [plain, color]) {
      it(`fits a wide Chinese table in ${width} columns (${theme.enabled ? 'colour' : 'plain'}), dates and amounts whole`, () => {
        const lines = md(LEDGER, width, theme);
        for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(width);
        const text = lines.join('\n');
        for (const token of ['2026-01-15', '2026-02-01', '2026-03-20', '2,000.00', '12,345.67', '¥980.50']) {
          expect(text).toContain(token);
        }
      });
    }
  }

  it('draws one card per row when the window is too narrow for a grid', () => {
    const lines = md(LEDGER, 30, color);
    for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(30);
    const text = lines.join('\n');
    expect(text).toMatch(/^日期: +2026-01-15$/m);
    expect(text).toMatch(/^金额: +12,345\.67$/m);
    expect(text).toMatch(/^客户名称: 北京智谱华章科技有限\n {10}公司$/m);
    expect(text).not.toContain('┌');
  });
});

describe('streaming tables and code', () => {
  const stream = (ctx: BlockContext, lexed?: { chars: number }) =>
    new MarkdownStream(
      (s) => {
        if (lexed) lexed.chars += s.length;
        return Lexer.lex(s, { gfm: true });
      },
      (tok) => renderBlock(tok, ctx),
      () => ctx,
    );

  const feed = (s: MarkdownStream, src: string, step: number, maxLive: number) => {
    const committed: string[] = [];
    let live: string[] = [];
    for (let i = 0; i < src.length; i += step) {
      s.push(src.slice(i, i + step));
      const u = s.update(false, maxLive);
      committed.push(...u.commit);
      live = u.live;
    }
    committed.push(...s.update(true, maxLive).commit);
    return { committed, live };
  };

  for (const theme of [plain, color]) {
    it(`commits the same lines as rendering the whole answer (${theme.enabled ? 'colour' : 'plain'})`, () => {
      const src = `# 账目\n\n${LEDGER}\n说明：以上为第一季度。\n\n\`\`\`python\nx = 1\n\n\nprint(x)  # done\n\`\`\`\n\nThe end.`;
      const ctx = { width: 70, theme };
      const { committed } = feed(stream(ctx), src, 7, 12);
      expect(committed.map(strip)).toEqual(md(src, 70, theme));
    });
  }

  it('shows the header and the newest rows of a long table while it streams', () => {
    const ctx = { width: 60, theme: color };
    const s = stream(ctx);
    let src = '| n | 名称 |\n|--:|---|\n';
    for (let i = 0; i < 50; i++) src += `| ${i} | 第${i}行 |\n`;
    s.push(src);
    const u = s.update(false, 10);
    expect(u.commit).toEqual([]);
    const live = u.live.map(strip);
    expect(live.length).toBeLessThanOrEqual(10);
    expect(live[1]).toMatch(/│ +n │ 名称/);
    expect(live.at(-1)).toMatch(/│ +49 │ 第49行/);
  });

  it('reads each part of a long table a bounded number of times (linear, not quadratic)', () => {
    const lexed = { chars: 0 };
    const ctx = { width: 100, theme: color };
    let src = '| 日期 | 金额 | 备注 |\n|---|--:|---|\n';
    for (let i = 0; i < 800; i++)
      src += `| 2026-01-${String((i % 28) + 1).padStart(2, '0')} | ${i * 7},000.00 | 第${i}笔 |\n`;
    src += '\nDone.';
    const { committed } = feed(stream(ctx, lexed), src, 8, 20);
    expect(committed.length).toBeGreaterThan(800);
    // Each row is lexed once under the header; the old renderer lexed the whole table per update.
    expect(lexed.chars).toBeLessThan(src.length * 4);
  });

  it('stopped inside a long table, commits what the live view showed (closed), not the whole table', () => {
    const ctx = { width: 60, theme: color };
    const s = stream(ctx);
    let src = 'Intro.\n\n| n | 名称 |\n|--:|---|\n';
    for (let i = 0; i < 500; i++) src += `| ${i} | 第${i}行 |\n`;
    s.push(src);
    expect(s.update(false, 10).commit).toEqual(['Intro.']);
    s.push('| 500 | 第500');
    const countRows = (lines: string[]) => lines.map(strip).filter((l) => /│ +\d+ │/.test(l)).length;
    const cut = s.cut(10);
    const lines = cut.commit.map(strip);
    // The rows that fit in 10 lines (the newest, with the half-arrived last one), then the border.
    expect(lines.length).toBeLessThanOrEqual(12);
    expect(countRows(cut.commit)).toBe(cut.shown);
    expect(cut.shown + cut.hidden).toBe(501);
    expect(lines.at(-2)).toMatch(/│ +500 │ 第500/);
    expect(lines.at(-1)).toMatch(/^└─+┴─+┘$/);
    // Nothing is left to draw afterwards.
    expect(s.update(true, 10)).toEqual({ commit: [], live: [] });
  });

  it('stopped outside a table, commits the rest as a final update would', () => {
    const ctx = { width: 60, theme: color };
    const src = `${LEDGER}\nThe end of **this**`;
    const a = stream(ctx);
    const b = stream(ctx);
    a.push(src);
    b.push(src);
    a.update(false, 10);
    b.update(false, 10);
    expect(a.cut(10)).toEqual({ commit: b.update(true, 10).commit, shown: 0, hidden: 0 });
  });

  it('commits a long code block line by line as it arrives', () => {
    const ctx = { width: 40, theme: plain };
    const s = stream(ctx);
    s.push('```js\nconst a = 1;\nconst b = 2;\ncon');
    const u = s.update(false, 5);
    expect(u.commit).toEqual(['```js', 'const a = 1;', 'const b = 2;']);
    expect(u.live).toEqual(['con']);
    s.push('st c = 3;\n```\n\nafter');
    const v = s.update(false, 5);
    expect(v.commit).toEqual(['const c = 3;', '```']);
    expect(v.live).toEqual(['', 'after']);
  });
});
