import { Lexer } from 'marked';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { type BlockContext, renderBlock, renderBlocks } from '../../src/cli/render/markdown.js';
import { MarkdownStream } from '../../src/cli/render/md-stream.js';
import { allocate, emptyMeasure, measureCell } from '../../src/cli/render/table-layout.js';
import { makeTheme } from '../../src/cli/render/theme.js';
import { setLanguage } from '../../src/support/i18n/index.js';

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

describe('cards in Chinese (issue 44 point 8)', () => {
  it('take the full-width colon, the values still in one column', () => {
    setLanguage('zh');
    try {
      const text = md(LEDGER, 30, color).join('\n');
      expect(text).toMatch(/^日期： {4}2026-01-15$/m);
      expect(text).toMatch(/^客户名称：北京智谱华章科技有限\n {10}公司$/m);
      expect(text).not.toMatch(/^\S+: /m);
    } finally {
      setLanguage('en');
    }
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

  it('shows a table whole while it fits, then prints it once and each later row once as it comes', () => {
    const ctx = { width: 60, theme: color };
    const s = stream(ctx);
    s.push('| n | 名称 |\n|--:|---|\n');
    for (let i = 0; i < 6; i++) s.push(`| ${i} | 第${i}行 |\n`);
    const small = s.update(false, 10);
    expect(small.commit).toEqual([]);
    expect(small.live.map(strip).at(-1)).toMatch(/│ +5 │ 第5行/);
    // Taller than the live area: its layout settles and everything so far is printed, in order.
    for (let i = 6; i < 50; i++) s.push(`| ${i} | 第${i}行 |\n`);
    const big = s.update(false, 10);
    expect(big.live).toEqual([]);
    const lines = big.commit.map(strip);
    expect(lines[1]).toMatch(/│ +n │ 名称/);
    expect(lines.filter((l) => /│ +\d+ │/.test(l)).map((l) => l.match(/\d+/)![0])).toEqual(
      Array.from({ length: 50 }, (_, i) => String(i)),
    );
    // A later row is printed once, in the same columns; the end adds only the bottom border.
    s.push('| 50 | 第50行 |\n| 5');
    expect(s.update(false, 10).commit.map(strip)).toEqual([lines.at(-1)!.replaceAll('49', '50')]);
    s.push('1 | 第51行 |\n\nDone.');
    const end = s.update(true, 10).commit.map(strip);
    expect(end.slice(0, 2)).toEqual([
      lines.at(-1)!.replaceAll('49', '51'),
      lines[0]!.replace('┌', '└').replaceAll('┬', '┴').replace('┐', '┘'),
    ]);
    expect(end.slice(2)).toEqual(['', 'Done.']);
  });

  it('a settled table keeps its columns: a wider cell wraps inside its column, the borders stay aligned', () => {
    const ctx = { width: 60, theme: color };
    const s = stream(ctx);
    let src = '| n | 名称 |\n|--:|---|\n';
    for (let i = 0; i < 20; i++) src += `| ${i} | 第${i}行 |\n`;
    s.push(src);
    const lines = s.update(false, 10).commit.map(strip);
    s.push('| 20 | 一个比前面所有名称都长得多的名称 |\n');
    const wide = s.update(false, 10).commit.map(strip);
    expect(wide.length).toBeGreaterThan(1);
    lines.push(...wide);
    const widths = new Set(lines.map((l) => stringWidth(l)));
    expect(widths.size).toBe(1);
    expect(wide.join('').replace(/[│ ]/g, '')).toBe('20一个比前面所有名称都长得多的名称');
  });

  const NOTES = ['已开票', '分两期支付，第二期在月底', '对方要求更正抬头', '合同约定季度末结清'];
  const shapes = [
    {
      width: 40,
      live: 5,
      head: '| n | 日期 | 名称 |\n|--:|---|---|\n',
      row: (i: number) => `| ${i} | 2026-02-01 | 第${i}行 |`,
    },
    {
      // Six columns in a 60-column window: no room to give the numbers more than they need.
      width: 59,
      live: 27,
      head: '| # | 日期 | 客户 | 金额（元） | 状态 | 备注 |\n|--:|---|---|--:|---|---|\n',
      row: (i: number) =>
        `| ${i} | 2026-02-01 | 客户${i}有限公司 | ${((i * 7919) % 100000).toLocaleString('en')}.00 | ${i % 3 ? '已付' : '待付款'} | invoice ${1000 + i}，${NOTES[i % 4]} |`,
    },
  ];
  for (const [k, shape] of shapes.entries()) {
    it(`a number that outgrows its settled column (row 100 under 99) starts a new part, never breaks (${k + 1})`, () => {
      const ctx = { width: shape.width, theme: color };
      const s = stream(ctx);
      s.push(shape.head);
      const lines: string[] = [];
      for (let i = 1; i <= 120; i++) {
        s.push(`${shape.row(i)}\n`);
        lines.push(...s.update(false, shape.live).commit.map(strip));
      }
      lines.push(...s.update(true, shape.live).commit.map(strip));
      const numbers = lines.flatMap((l) => l.match(/^│ +(\d+) │ 2026/)?.slice(1) ?? []).map(Number);
      expect(numbers).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
      for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(shape.width);
      // A new part only when a number no longer fits: twice at most (10 and 100), not per row;
      // and a grid stays a grid (the whole table at 60 columns would be cards).
      expect(lines.filter((l) => l.startsWith('┌')).length).toBeLessThanOrEqual(3);
      expect(lines.filter((l) => l.startsWith('└'))).toHaveLength(
        lines.filter((l) => l.startsWith('┌')).length,
      );
    });
  }

  it('a settled table goes on under a new header after the window is resized', () => {
    let width = 60;
    const s = new MarkdownStream(
      (x) => Lexer.lex(x, { gfm: true }),
      (tok) => renderBlock(tok, { width, theme: color }),
      () => ({ width, theme: color }),
    );
    let src = '| n | 名称 |\n|--:|---|\n';
    for (let i = 0; i < 20; i++) src += `| ${i} | 第${i}行 |\n`;
    s.push(src);
    s.update(false, 10);
    width = 40;
    s.push('| 20 | 第20行 |\n');
    const lines = s.update(false, 10).commit.map(strip);
    expect(lines[0]).toMatch(/^└─+┴─+┘$/);
    expect(lines[1]).toMatch(/^┌─+┬─+┐$/);
    expect(lines[2]).toMatch(/│ +n │ 名称/);
    expect(lines.at(-1)).toMatch(/│ +20 │ 第20行/);
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

  it('a long table stopped mid-row prints only the rest and its bottom border (the rows are on screen already)', () => {
    const ctx = { width: 60, theme: color };
    const s = stream(ctx);
    let src = 'Intro.\n\n| n | 名称 |\n|--:|---|\n';
    for (let i = 0; i < 500; i++) src += `| ${i} | 第${i}行 |\n`;
    s.push(src);
    const first = s.update(false, 10).commit.map(strip);
    expect(first.slice(0, 2)).toEqual(['Intro.', '']);
    expect(first.filter((l) => /│ +\d+ │/.test(l))).toHaveLength(500);
    s.push('| 500 | 第500');
    const lines = s.update(true, 0).commit.map(strip);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/│ +500 │ 第500/);
    expect(lines[1]).toMatch(/^└─+┴─+┘$/);
    expect(s.update(true, 10)).toEqual({ commit: [], live: [] });
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
