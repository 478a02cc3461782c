/**
 * Issue 30 (the first hour), the rendering items in pure functions: one wrap at words for every
 * line the REPL prints (16), headers kept whole in narrow tables (16), the session table in a
 * narrow window (16), plain previews of Markdown (18), tool lines and titles in words (19, 23),
 * and the editor advice naming what is installed (11).
 */
import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../src/agent/sessions/store.js';
import { editorAdvice } from '../../src/cli/external-editor.js';
import { toolLine } from '../../src/cli/render/lines.js';
import { makeStyle } from '../../src/cli/render/style.js';
import { allocate, emptyMeasure, measureCell } from '../../src/cli/render/table-layout.js';
import { callText, toolTitle } from '../../src/cli/render/tool-names.js';
import { columns, fitLines, wrapText } from '../../src/cli/render/width.js';
import { sessionTable } from '../../src/cli/sessions/list.js';
import { setLanguage } from '../../src/support/i18n/index.js';
import { markdownAsPlain } from '../../src/support/text.js';
import { textWidth } from '../../src/support/width.js';

const strip = (s: string) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');

describe.each([40, 60, 100])('wrapping at %i columns', (width) => {
  const banner =
    'zhi 0.1.0 · glm-5 · approve mode — /help for commands, Ctrl+D to exit, costs ¥0.02 per call';
  const chinese = 'zhi 0.1.0 · glm-5 · 确认模式 — 输入 /help 查看命令，Ctrl+D 退出，每次约 ¥0.02';

  it('breaks only between words (Latin) or between CJK characters, never inside Ctrl+D or ¥0.02', () => {
    for (const text of [banner, chinese]) {
      const out = fitLines(text, width).split('\n');
      for (const l of out) expect(textWidth(l)).toBeLessThanOrEqual(width);
      const joined = out.join('\n');
      expect(joined).toContain('Ctrl+D');
      expect(joined).toContain('¥0.02');
      // Each Latin word of the text is whole on some line.
      for (const w of text.split(/[\s，]+/).filter((x) => /^[\x21-\x7e]+$/.test(x)))
        expect(out.some((l) => l.includes(w))).toBe(true);
    }
  });

  it('keeps painted text painted and measures it without its escape codes', () => {
    const style = makeStyle(true);
    const out = fitLines(
      `  ${style.cyan('/skill list | show <name> | new [template] | edit <name> | delete <name>')}`,
      width,
    );
    for (const l of out.split('\n')) expect(textWidth(l)).toBeLessThanOrEqual(width);
    expect(strip(out).replace(/\s+/g, ' ')).toContain('edit <name> | delete <name>');
  });

  it('wraps the last of aligned columns under itself', () => {
    const rows = [
      ['glm-4-air-250414', '≈¥0.50/¥0.50', '便宜的 GLM-4，2025 年 4 月版（BigModel）（不思考）'],
      ['glm-5', '≈¥4.00/¥18.00+', 'Default chat model: deep reasoning and tool calls, with thinking'],
    ];
    const out = columns(rows, new Set(), width);
    for (const l of out) expect(textWidth(l)).toBeLessThanOrEqual(width);
    expect(out.join('\n')).toContain('≈¥4.00/¥18.00+');
    expect(out.join(' ')).toMatch(/tool\s+calls/);
  });
});

it('an opening bracket never ends a line, closing punctuation never starts one', () => {
  const out = wrapText('自动模式：创建新文件不再询问（shell 仍会询问）', 28, '', '');
  for (const l of out) {
    expect(l.endsWith('（')).toBe(false);
    expect(/^[，。）]/.test(l)).toBe(false);
  }
});

it('a narrow table keeps a header whole when there is room for it (能否编辑, not 能否编/辑)', () => {
  const cells = [
    ['格式', 'Word', 'Excel', 'PDF'],
    ['适合做什么', '合同、报告、长篇文字', '表格、统计、财务数据', '正式发布、打印、归档'],
    ['能否编辑', '能', '能', '较难'],
    ['常见扩展名', '.docx', '.xlsx', '.pdf'],
  ];
  const measures = cells.map((col) => {
    const m = emptyMeasure();
    measureCell(col[0]!, m);
    m.head = m.natural;
    for (const c of col.slice(1)) measureCell(c, m);
    return m;
  });
  const widths = allocate(measures, 27)!;
  expect(widths.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(27);
  expect(widths[2]).toBeGreaterThanOrEqual(8);
});

describe('the session table in a narrow window', () => {
  const session = (id: string, title: string): SessionSummary =>
    ({
      id,
      file: `/s/${id}.jsonl`,
      cwd: '/w',
      created: '2026-11-27T06:36:00Z',
      updated: '2026-11-27T06:36:00Z',
      turns: 12,
      model: 'glm-4.5-airx',
      cost: 0.0244,
      currency: 'CNY',
      title,
    }) as SessionSummary;
  for (const lang of ['en', 'zh'] as const)
    it(`fits 60 columns with the cost whole (${lang})`, () => {
      setLanguage(lang);
      const out = sessionTable([session('20261127-063603-6cb4', '请用一个表格介绍几种文件格式')], {
        style: makeStyle(false),
        width: 60,
        cwd: '/w',
        numbered: true,
      });
      for (const l of out) expect(textWidth(l)).toBeLessThanOrEqual(60);
      expect(out[0]).toContain(lang === 'zh' ? '费用' : 'COST');
      expect(out[1]).toMatch(/ ¥0\.02\d* /);
      expect(out[1]).toContain('20261127-063603-6cb4');
      setLanguage('en');
    });
});

it('a Markdown answer previews as plain words', () => {
  const md =
    '## Three formats\n\n| Format | Good for |\n|:--|--:|\n| Word | **long** text |\n\n1. Use `docx` for *edits* in [Word](http://x)';
  const plain = markdownAsPlain(md);
  expect(plain).toBe('Three formats\nFormat · Good for\nWord · long text\nUse docx for edits in Word');
  expect(markdownAsPlain('keep snake_case_name and 2 * 3 * 4')).toBe('keep snake_case_name and 2 * 3 * 4');
});

describe('tools named in words', () => {
  it('a built-in tool line says what it does; an MCP tool line names server and tool once', () => {
    setLanguage('zh');
    expect(callText('file_write', 'notes.md')).toBe('写入 notes.md');
    expect(toolTitle('shell')).toBe('运行命令');
    setLanguage('en');
    expect(callText('shell', 'ls -la')).toBe('Run ls -la');
    expect(callText('files__list_directory', 'files: list_directory docs')).toBe(
      'files: list_directory docs',
    );
    expect(toolTitle('files__list_directory')).toBe('files: list_directory');
    expect(callText('make_note', 'x')).toBe('make_note x');
  });
});

describe('a tool line with a long label', () => {
  const end = (label: string) => ({
    type: 'tool_end' as const,
    id: 'c1',
    name: 'files__list_directory',
    label,
    ok: true,
    result: '',
    durationMs: 40,
    index: 0,
    total: 1,
    filesRead: 0,
    filesWritten: [],
  });

  it.each([40, 60, 100])('fits %i columns with its mark and duration whole (en, zh)', (width) => {
    for (const lang of ['en', 'zh'] as const) {
      setLanguage(lang);
      for (const label of [
        'files: list_directory /tmp/a-rather-long-temporary-folder/zhi-work-Abc123/and/deeper/than/any/window/is/wide',
        'files: list_directory /tmp/文件夹/季度报告/二〇二六年/第三季度/明细/按部门/按月份/再按项目分开的清单',
      ]) {
        const line = strip(toolLine(end(label), makeStyle(true), { width }));
        expect(textWidth(line)).toBeLessThan(width);
        expect(line).toMatch(/^\[1\/1\] files: list_directory \S.*… … ✓ 0\.0s$/);
      }
      // A short label is not cut.
      expect(strip(toolLine(end('files: list_directory a'), makeStyle(true), { width }))).toBe(
        '[1/1] files: list_directory a … ✓ 0.0s',
      );
    }
    setLanguage('en');
  });
});

describe('the editor advice names what is installed', () => {
  const only = (names: string[]) => (cmd: string) => names.includes(cmd);
  it('offers an installed editor, not nano when it is missing (en, zh)', () => {
    setLanguage('en');
    const en = editorAdvice({}, 'linux', only(['vim', 'vi']));
    expect(en).toContain('export EDITOR=vim');
    expect(en).toContain('vi');
    expect(en).not.toContain('nano');
    setLanguage('zh');
    expect(editorAdvice({}, 'linux', only(['emacs']))).toBe(
      '请使用这台电脑上已安装的编辑器：export EDITOR=emacs',
    );
    expect(editorAdvice({}, 'linux', only(['code']))).toContain('export EDITOR="code --wait"');
    expect(editorAdvice({}, 'linux', only([]))).toContain('请先安装一个文本编辑器');
    setLanguage('en');
  });
  it('on Windows says it the Windows way', () => {
    const win = editorAdvice({}, 'win32', only(['notepad', 'code']));
    expect(win).toContain('set EDITOR=notepad');
    expect(win).toContain('setx EDITOR notepad');
    expect(win).not.toContain('export');
  });
});

it('a narrow table whose words do not fit becomes cards rather than cutting words (Editabl/e)', () => {
  const cells = [
    ['Format', 'Word', 'Excel'],
    ['Good for', 'contracts, reports', 'tables, figures'],
    ['Editable', 'yes', 'hardly'],
    ['Extension', '.docx', '.xlsx'],
  ];
  const measures = cells.map((col) => {
    const m = emptyMeasure();
    for (const c of col) measureCell(c, m);
    return m;
  });
  expect(allocate(measures, 27)).toBeUndefined();
  expect(allocate(measures, 60)).toBeDefined();
});
