import { Lexer } from 'marked';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { highlight } from '../../src/cli/render/highlight.js';
import { renderBlock, renderBlocks } from '../../src/cli/render/markdown.js';
import { MarkdownStream } from '../../src/cli/render/md-stream.js';
import { Screen } from '../../src/cli/render/screen.js';
import { fitColumns } from '../../src/cli/render/table.js';
import { makeTheme } from '../../src/cli/render/theme.js';
import { wrapSpans } from '../../src/cli/render/wrap.js';
import { cutToWidth as clip, textWidth as displayWidth, padToWidth as pad } from '../../src/support/width.js';

const plain = makeTheme(false);
const color = makeTheme(true);
const strip = (s: string) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
const md = (src: string, width = 40, theme = plain) => renderBlocks(Lexer.lex(src), { width, theme });

describe('wrapSpans', () => {
  it('wraps Latin text at spaces', () => {
    expect(wrapSpans([{ text: 'the quick brown fox jumps over the lazy dog' }], 15)).toEqual([
      'the quick brown',
      'fox jumps over',
      'the lazy dog',
    ]);
  });

  it('wraps Chinese text between characters, counting each as two columns', () => {
    const lines = wrapSpans([{ text: '这是一个很长的中文句子需要换行显示' }], 10);
    expect(lines).toEqual(['这是一个很', '长的中文句', '子需要换行', '显示']);
    for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(10);
  });

  it('never starts a line with closing punctuation', () => {
    const lines = wrapSpans([{ text: '第一句话写完了。第二句' }], 14);
    expect(lines[1]!.startsWith('。')).toBe(false);
    for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(14);
  });

  it('mixes Chinese and English, hard-breaks words longer than a line, keeps newlines', () => {
    expect(wrapSpans([{ text: '使用 GLM-5 模型' }], 7)).toEqual(['使用', 'GLM-5', '模型']);
    expect(wrapSpans([{ text: 'abcdefghijkl' }], 5)).toEqual(['abcde', 'fghij', 'kl']);
    expect(wrapSpans([{ text: 'a\n  b' }], 20)).toEqual(['a', '  b']);
  });

  it('keeps each span’s paint on every line it spans, with a hanging indent', () => {
    const lines = wrapSpans([{ text: 'bold words here', paint: color.bold }], 10, {
      first: '• ',
      rest: '  ',
    });
    expect(lines.map(strip)).toEqual(['• bold', '  words', '  here']);
    expect(lines[1]).toContain('\x1b[1m');
  });

  it('clip and pad measure display width', () => {
    expect(stringWidth(clip('中文中文中文', 7))).toBeLessThanOrEqual(7);
    expect(clip('short', 10)).toBe('short');
    expect(pad('中', 4, 'right')).toBe('  中');
    expect(displayWidth('\x1b[1m模型\x1b[22m ab')).toBe(7);
  });
});

describe('renderBlock', () => {
  it('renders headings, emphasis, lists and links in plain text with Markdown markers', () => {
    expect(md('# 标题\n\n**粗体** and *it* `code` [site](https://x.cn)\n\n- a\n- b\n  1. c', 60)).toEqual([
      '# 标题',
      '',
      '**粗体** and it `code` site (https://x.cn)',
      '',
      '- a',
      '- b',
      '  1. c',
    ]);
  });

  it('renders with colour: no markers, styles applied', () => {
    const out = md('## 小节\n\n**粗体**', 40, color);
    expect(strip(out[0]!)).toBe('小节');
    expect(out[0]).toContain('\x1b[1m');
    expect(strip(out[2]!)).toBe('粗体');
  });

  it('aligns a table with Chinese cells by display width', () => {
    const lines = md(
      '| 名称 | 数量 | 备注 |\n|:--|--:|:-:|\n| 苹果 | 3 | 新鲜 |\n| Banana | 12 | ok |',
      60,
      color,
    ).map(strip);
    expect(lines[0]).toMatch(/^┌─+┬─+┬─+┐$/);
    const widths = lines.map((l) => stringWidth(l));
    expect(new Set(widths).size).toBe(1);
    expect(lines[3]).toBe('│ 苹果   │    3 │ 新鲜 │');
    expect(lines[4]).toBe('│ Banana │   12 │  ok  │');
  });

  it('renders a plain table as Markdown pipes and shrinks wide tables to fit', () => {
    const lines = md('| a | b |\n|---|---|\n| 一二三四五六七八九十一二三四五六 | x |', 24);
    expect(lines[0]).toMatch(/^\| a +\| b +\|$/);
    expect(lines[1]).toMatch(/^\| -+ \| -+ \|$/);
    for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(24);
    expect(lines.length).toBeGreaterThan(3); // the long cell wrapped inside its column
  });

  it('fitColumns shrinks the widest column first', () => {
    expect(fitColumns([10, 30, 5], 30)).toEqual([10, 15, 5]);
    expect(fitColumns([2, 2], 1, 2)).toEqual([2, 2]);
  });

  it('renders code blocks: fences without colour, highlighted and indented with colour', () => {
    expect(md('```js\nconst a = 1;\n```')).toEqual(['```js', 'const a = 1;', '```']);
    const out = md('```js\nconst a = "x"; // hi\n```', 40, color);
    expect(strip(out[0]!)).toBe('  js');
    expect(strip(out[1]!)).toBe('  const a = "x"; // hi');
    expect(out[1]).toContain('\x1b[');
  });

  it('renders quotes, rules and task lists', () => {
    expect(md('> 引用\n\n---\n\n- [x] done\n- [ ] todo')).toEqual([
      '> 引用',
      '',
      '---',
      '',
      '- [x] done',
      '- [ ] todo',
    ]);
  });

  it('wraps list items under their text', () => {
    expect(md('- one two three four five six', 16)).toEqual(['- one two three', '  four five six']);
  });

  it('falls back to the source for unknown blocks', () => {
    expect(renderBlock({ type: 'custom', raw: 'raw text\n' }, { width: 20, theme: plain })).toEqual([
      'raw text',
    ]);
  });
});

describe('highlight', () => {
  it('colours keywords, strings, comments and numbers, and leaves the text unchanged', () => {
    const lines = highlight('def f(x):\n    return "a" # note\n', 'python', color);
    const text = lines.map((l) => l.map((s) => s.text).join('')).join('\n');
    expect(text).toBe('def f(x):\n    return "a" # note\n');
    const painted = lines
      .flat()
      .filter((s) => s.paint)
      .map((s) => s.text);
    expect(painted).toEqual(['def', 'return', '"a"', '# note']);
  });

  it('passes unknown languages and colourless output through plain', () => {
    expect(highlight('x = 1', 'brainfuck', color)).toEqual([[{ text: 'x = 1' }]]);
    expect(highlight('x = 1', 'python', plain)).toEqual([[{ text: 'x = 1' }]]);
  });

  it('splits multi-line comments into lines', () => {
    const lines = highlight('/* a\nb */ x', 'js', color);
    expect(lines.length).toBe(2);
    expect(lines[1]![0]!.text).toBe('b */');
  });
});

describe('MarkdownStream', () => {
  const stream = (width = 40) =>
    new MarkdownStream(
      (s) => Lexer.lex(s),
      (tok) => renderBlock(tok, { width, theme: plain }),
    );

  it('commits finished blocks once and keeps only the last block live', () => {
    const s = stream();
    s.push('# 标题\n\n第一段');
    let u = s.update(false, 10);
    expect(u.commit).toEqual(['# 标题']);
    expect(u.live).toEqual(['', '第一段']);
    s.push('继续。\n\n第二段');
    u = s.update(false, 10);
    expect(u.commit).toEqual(['', '第一段继续。']);
    expect(u.live).toEqual(['', '第二段']);
    u = s.update(true, 10);
    expect(u.commit).toEqual(['', '第二段']);
    expect(u.live).toEqual([]);
  });

  it('streams a table: live while rows arrive, committed when the text ends', () => {
    const s = stream();
    const src = '| 名称 | 数量 |\n|---|---|\n| 苹果 | 3 |\n| 梨 | 5 |\n';
    let committed: string[] = [];
    for (let i = 0; i < src.length; i += 5) {
      s.push(src.slice(i, i + 5));
      committed = committed.concat(s.update(false, 10).commit);
    }
    expect(committed).toEqual([]);
    const done = s.update(true, 10);
    expect(done.commit).toEqual(md(src));
  });

  it('commits the top of a block taller than the live area, exactly once', () => {
    const s = stream(20);
    const lines = Array.from({ length: 12 }, (_, i) => `line ${i}`);
    s.push(`\`\`\`\n${lines.join('\n')}`);
    const first = s.update(false, 4);
    expect(first.live.length).toBe(4);
    s.push('\nline 12\n```\n');
    const second = s.update(false, 4);
    const last = s.update(true, 4);
    const all = [...first.commit, ...second.commit, ...last.commit];
    expect(all).toEqual(['```', ...lines, 'line 12', '```']);
  });

  it('shows nothing live when there is no live area (plain output)', () => {
    const s = stream();
    s.push('para one\n\npara two');
    expect(s.update(false, 0)).toEqual({ commit: ['para one'], live: [] });
  });

  it('survives link definitions that the lexer drops', () => {
    const s = stream();
    s.push('See [x][1].\n\n[1]: http://a.b\n\nNext para\n\nLast');
    const u = s.update(false, 10);
    expect(u.commit).toEqual(['See x (http://a.b).', '', 'Next para']);
    expect(s.update(true, 10).commit).toEqual(['', 'Last']);
  });
});

describe('Screen', () => {
  function fakeTerm() {
    const out: string[] = [];
    return { out, term: { write: (s: string) => out.push(s), columns: () => 40, rows: () => 10 } };
  }

  it('redraws only from the first changed live line', () => {
    const { out, term } = fakeTerm();
    const screen = new Screen(term);
    screen.setLive(['a', 'b']);
    out.length = 0;
    screen.setLive(['a', 'c']);
    expect(out.join('')).toContain('\x1b[1A\x1b[J');
    expect(out.join('')).toContain('c\n');
    expect(out.join('')).not.toContain('a\n');
    out.length = 0;
    screen.setLive(['a', 'c']);
    expect(out).toEqual([]);
  });

  it('prints lines above the live area and draws it again', () => {
    const { out, term } = fakeTerm();
    const screen = new Screen(term);
    screen.setLive(['spinner']);
    out.length = 0;
    screen.print(['done']);
    expect(out.join('')).toMatch(/\x1b\[1A\x1b\[Jdone\nspinner\n/);
    screen.clear();
    expect(screen.liveLines).toEqual([]);
  });

  it('clips live lines to the terminal width', () => {
    const { out, term } = fakeTerm();
    new Screen(term).setLive(['x'.repeat(100)]);
    const drawn = strip(out.join('')).split('\n')[0]!;
    expect(stringWidth(drawn)).toBeLessThan(40);
  });
});
