import stringWidth from 'string-width';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent, AgentResult, RunEvent } from '../../src/agent/events.js';
import { type RenderMode, ReplRenderer } from '../../src/cli/render/repl-renderer.js';
import { makeStyle } from '../../src/cli/render/style.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import { UsageTracker } from '../../src/llm/usage.js';
import { ZhiError } from '../../src/support/errors.js';
import { setLanguage } from '../../src/support/i18n/index.js';
import { VirtualTerminal } from '../helpers/vt.js';

const strip = (s: string) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');

function make(mode: RenderMode, verbose = false) {
  let out = '';
  const vt = new VirtualTerminal(60);
  let err = '';
  let now = 1000;
  const color = mode === 'rich';
  const r = new ReplRenderer({
    mode,
    term: {
      write: (s) => {
        out += s;
        vt.write(s);
      },
      columns: () => 60,
      rows: () => 20,
    },
    out: makeStyle(color),
    err: makeStyle(color),
    stderr: (s) => (err += s),
    verbose: () => verbose,
    debug: false,
    cwd: '/work',
    now: () => now,
    animate: false,
  });
  return {
    r,
    out: () => out,
    screen: () => vt.text(),
    err: () => err,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const result = (over: Partial<AgentResult> = {}): AgentResult => ({
  text: '',
  stopReason: 'answer',
  turns: 1,
  toolCalls: 0,
  filesRead: 0,
  filesWritten: [],
  ...over,
});

function usage(): UsageTracker {
  const u = new UsageTracker(PLATFORMS.bigmodel);
  u.add('glm-5', {
    promptTokens: 8000,
    completionTokens: 200,
    totalTokens: 8200,
    cachedTokens: 0,
    reasoningTokens: 0,
  });
  return u;
}

const toolRun: AgentEvent[] = [
  { type: 'turn_start', turn: 1, model: 'glm-5' },
  { type: 'tool_start', id: 'a', name: 'ocr', label: 'report.pdf', args: {}, index: 0, total: 2 },
  { type: 'progress', id: 'a', note: 'page 1/3' },
  {
    type: 'tool_end',
    id: 'a',
    name: 'ocr',
    label: 'report.pdf',
    ok: true,
    result: 'text',
    durationMs: 1234,
    index: 0,
    total: 2,
    filesRead: 0,
    filesWritten: [],
  },
  { type: 'tool_start', id: 'b', name: 'file_write', label: 'out.xlsx', args: {}, index: 1, total: 2 },
  {
    type: 'tool_end',
    id: 'b',
    name: 'file_write',
    label: 'out.xlsx',
    ok: false,
    result: 'Error: disk full\nmore',
    durationMs: 50,
    index: 1,
    total: 2,
    filesRead: 0,
    filesWritten: [],
  },
];

beforeEach(() => setLanguage('en'));

describe('ReplRenderer (rich)', () => {
  it('streams Markdown: thinking collapses to one line, the answer is rendered, a done line closes', () => {
    const t = make('rich');
    t.r.handle({ type: 'turn_start', turn: 1, model: 'glm-5' });
    expect(strip(t.out())).toContain('Thinking… 0.0s');
    t.r.handle({ type: 'thinking_delta', text: '先想一想这个问题。' });
    expect(strip(t.out())).toContain('先想一想这个问题。');
    t.advance(2500);
    t.r.handle({ type: 'text_delta', text: '## 结果\n\n**完成**了' });
    t.r.handle({ type: 'text_delta', text: '。\n\n| 名称 | 数量 |\n|---|---|\n| 苹果 | 3 |\n' });
    t.r.finish(result({ text: 'x' }), usage(), 4500);
    const text = t.screen();
    expect(text).not.toContain('先想一想'); // collapsed
    expect(text).not.toContain('Thinking… 0.0s');
    expect(text).toContain('✻ Thought for 2.5s');
    expect(text).toContain('结果\n');
    expect(text).toContain('完成了。');
    expect(text).toContain('│ 苹果 │ 3    │');
    expect(text).toContain('Done: 8.2k tokens · ≈¥0.04 · 4.5s');
    expect(t.err()).toBe('');
  });

  it('shows tool progress lines with a step counter, mark and duration', () => {
    const t = make('rich');
    for (const ev of toolRun) t.r.handle(ev);
    expect(strip(t.out())).toContain('page 1/3');
    t.r.finish(result({ toolCalls: 2, filesRead: 1 }), usage(), 4500);
    const text = t.screen();
    expect(text).not.toContain('page 1/3');
    expect(text).toContain('[1/2] Read text in report.pdf … ✓ 1.2s');
    expect(text).toContain('[2/2] Write out.xlsx … ✗ 0.1s disk full');
    expect(text).toContain('Done: 1 file read, 0 written · 2 tools · 8.2k tokens');
  });

  it("shows a long document's parts on the waiting line, alone or in a folder run, in place", () => {
    const t = make('rich');
    const progress = (done: number): AgentEvent => ({
      type: 'progress',
      id: 'long-document',
      note: `Long document: part ${done} of 12 done`,
      part: { done, total: 12, round: 0 },
    });
    for (let i = 1; i <= 3; i++) t.r.handle(progress(i));
    expect(t.screen()).toContain('Long document: part 3 of 12 done');
    expect(t.screen()).not.toContain('part 2 of 12');
    const c = { total: 2, done: 0, failed: 0, earlier: 0 };
    const file = (status: 'started' | 'part' | 'done', extra = {}): RunEvent => ({
      type: 'folder_file',
      skill: 'summarize',
      file: 'docs/big.txt',
      index: 0,
      status,
      counts: c,
      spent: 0,
      ...extra,
    });
    t.r.handle(file('started'));
    for (let i = 1; i <= 7; i++) t.r.handle(file('part', { part: { done: i, total: 12, round: 0 } }));
    expect(t.screen()).toContain('docs/big.txt part 7/12');
    expect(t.screen()).not.toContain('part 6/12');
    t.r.handle(file('done', { counts: { ...c, done: 1 } }));
    expect(t.screen()).not.toContain('part 7/12');
  });

  it('shows the whole reasoning, dimmed and indented, when verbose', () => {
    const t = make('rich', true);
    t.r.handle({ type: 'turn_start', turn: 1, model: 'glm-5' });
    t.r.handle({ type: 'thinking_delta', text: 'line one\nline two\n' });
    t.r.handle({ type: 'text_delta', text: 'answer' });
    t.r.finish(result(), usage(), 1000);
    expect(t.screen()).toMatch(/^✻ Thinking…\n {2}line one\n {2}line two\nanswer\n\nDone: /);
    expect(t.out()).toContain('\x1b[2m');
  });

  it('before a question: prints what the model said, then stops drawing until resumed', () => {
    const t = make('rich');
    t.r.handle({ type: 'turn_start', turn: 1, model: 'glm-5' });
    t.r.handle({ type: 'text_delta', text: '好的，我来写文件。' });
    t.r.suspend();
    expect(t.screen()).toBe('好的，我来写文件。');
    const before = t.out().length;
    t.r.handle({
      type: 'tool_start',
      id: 'a',
      name: 'file_write',
      label: 'a.md',
      args: {},
      index: 0,
      total: 1,
    });
    expect(t.out().length).toBe(before);
    t.r.resume();
    expect(t.screen()).toMatch(/^好的，我来写文件。\n⠋ \[1\/1\] Write a\.md … 0\.0s$/);
    t.r.dispose();
  });

  it('a table taller than the screen is printed once, row by row: each row once, in order, not redrawn every frame', () => {
    const intro = '第一季度回款明细如下，金额单位为元。The notes say what was agreed with each customer.\n\n';
    let answer = `${intro.repeat(4)}| # | 日期 | 客户 | 金额 | 状态 |\n|--:|---|---|--:|---|\n`;
    for (let i = 0; i < 172; i++)
      answer += `| ${i + 1} | 2026-01-${String((i % 28) + 1).padStart(2, '0')} | 客户${i}有限公司 | ${(i * 7919) % 100000}.00 | ${i % 3 ? '已付' : '待付款'} |\n`;
    answer += `\n${intro.repeat(4)}`;
    const t = make('rich');
    t.r.handle({ type: 'turn_start', turn: 1, model: 'glm-5' });
    // Every delta is a frame here (no frame clock): harder than a terminal's 60 a second.
    for (let i = 0; i < answer.length; i += 24)
      t.r.handle({ type: 'text_delta', text: answer.slice(i, i + 24) });
    t.r.finish(result({ text: answer }), usage(), 100);
    // Redrawing the newest rows every frame wrote 23× here. Drawn once at 60 columns, a table's box
    // borders and their colour are already 2.5× its Markdown (the bench's 120-column row holds 3×).
    expect(Buffer.byteLength(t.out())).toBeLessThan(4 * Buffer.byteLength(answer));
    const rows = t
      .screen()
      .split('\n')
      .filter((l) => /^│ +\d+ │ 2026/.test(l));
    expect(rows.map((l) => Number(l.match(/\d+/)![0]))).toEqual(Array.from({ length: 172 }, (_, i) => i + 1));
    const table = t
      .screen()
      .split('\n')
      .filter((l) => /^[│┌├└]/.test(l));
    expect(new Set(table.map((l) => stringWidth(l))).size).toBe(1);
  });

  it('stopped in a long table: only the rest and the bottom border are printed, not the table again', () => {
    let table = '| n | 名称 |\n|--:|---|\n';
    for (let i = 0; i < 300; i++) table += `| ${i} | 第${i}行 |\n`;
    const stopped = make('rich');
    stopped.r.handle({ type: 'turn_start', turn: 1, model: 'glm-5' });
    stopped.r.handle({ type: 'text_delta', text: table });
    stopped.r.handle({ type: 'text_delta', text: '| 300 | 第3' });
    const before = stopped.out().length;
    stopped.r.finish(result({ stopReason: 'aborted' }), usage(), 100);
    const written = strip(stopped.out().slice(before));
    expect(written.split('\n').filter((l) => /│ +\d+ │/.test(l))).toHaveLength(1);
    expect(written).toMatch(/│ +300 │ 第3 +│\n└─+┴─+┘/);
    expect(
      stopped
        .screen()
        .split('\n')
        .filter((l) => /│ +\d+ │/.test(l)),
    ).toHaveLength(301);
    expect(stopped.screen()).toMatch(/⚠ Interrupted\./);
  });

  it('while a tool call is being written, the live line says so, not Thinking (issue 44 point 21)', () => {
    const t = make('rich');
    t.r.handle({ type: 'turn_start', turn: 1, model: 'glm-5' });
    t.r.handle({ type: 'thinking_delta', text: 'I will write the file.' });
    t.advance(1500);
    t.r.handle({ type: 'tool_call_writing', name: 'file_write' });
    t.advance(2000);
    t.r.handle({ type: 'progress', id: 'none', note: '' });
    const live = t.screen().split('\n').slice(-2).join('\n');
    expect(live).toMatch(/Writing the tool call… 2\.0s/);
    expect(live).not.toMatch(/Thinking/);
    t.r.dispose();
  });

  it('ends an interrupted run with a note, an error with a what/why/try panel', () => {
    const a = make('rich');
    a.r.handle({ type: 'text_delta', text: '部分' });
    a.r.finish(result({ stopReason: 'aborted' }), usage(), 100);
    expect(a.screen()).toMatch(/^部分\n⚠ Interrupted\. The conversation so far is kept/);
    const b = make('rich');
    const error = new ZhiError({
      kind: 'auth',
      what: { key: 'config.noKey.what' },
      tries: [{ key: 'config.noKey.try1' }],
    });
    b.r.handle({ type: 'error', error });
    b.r.finish(result({ stopReason: 'error', error }), usage(), 100);
    expect(b.screen()).toMatch(/^✖ Error: .+\n {2}Try:\n {4}1\. /);
  });
});

describe('ReplRenderer (plain and pipe)', () => {
  it('plain: no escape codes, [TOOL] and [DONE] prefixes, blocks printed once when finished', () => {
    const t = make('plain');
    for (const ev of toolRun) t.r.handle(ev);
    t.r.handle({ type: 'turn_start', turn: 2, model: 'glm-5' });
    t.r.handle({ type: 'thinking_delta', text: 'hidden unless verbose' });
    t.r.handle({ type: 'text_delta', text: '# Title\n\npara' });
    expect(t.out()).toBe('# Title\n');
    t.r.finish(result({ toolCalls: 2 }), usage(), 2000);
    expect(t.out()).toBe('# Title\n\npara\n');
    expect(t.err()).toContain('[TOOL] [1/2] Read text in report.pdf … ✓ 1.2s\n');
    expect(t.err()).toContain('[DONE] Done: 2 tools · 8.2k tokens · ≈¥0.04 · 2.0s');
    expect(t.err()).not.toContain('hidden unless verbose');
    expect(t.out() + t.err()).not.toContain('\x1b');
  });

  it('plain: errors and warnings carry [ERROR] and [WARN]', () => {
    const t = make('plain');
    t.r.handle({ type: 'warning', message: 'careful' });
    const error = new ZhiError({ kind: 'auth', what: { key: 'config.noKey.what' } });
    t.r.finish(result({ stopReason: 'error', error }), usage(), 100);
    expect(t.err()).toContain('[WARN] careful');
    expect(t.err()).toContain('[ERROR] ');
  });

  it('plain, in Chinese: the line marks are Chinese words, not [TOOL] [DONE] [ERROR] [WARN] (issue 44 point 8)', () => {
    setLanguage('zh');
    const t = make('plain');
    for (const ev of toolRun) t.r.handle(ev);
    t.r.handle({ type: 'warning', message: '小心' });
    t.r.finish(result({ toolCalls: 2 }), usage(), 2000);
    const failed = make('plain');
    const error = new ZhiError({ kind: 'auth', what: { key: 'config.noKey.what' } });
    failed.r.finish(result({ stopReason: 'error', error }), usage(), 100);
    const all = t.err() + failed.err();
    expect(all).not.toMatch(/\[(TOOL|DONE|ERROR|WARN)\]/);
    expect(t.err()).toContain('【工具】[1/2]');
    expect(t.err()).toMatch(/^完成：/m);
    expect(t.err()).toContain('【注意】小心');
    expect(failed.err()).toMatch(/^【错误】/m);
  });

  it('pipe: the answer is written once as it came, progress goes to stderr', () => {
    const t = make('pipe');
    t.r.handle({ type: 'turn_start', turn: 1, model: 'glm-5' });
    t.r.handle({ type: 'text_delta', text: '**raw** markdown' });
    expect(t.out()).toBe('');
    t.r.finish(result({ text: '**raw** markdown' }), usage(), 100);
    expect(t.out()).toBe('**raw** markdown\n');
    expect(t.err()).toContain('[DONE]');
  });
});

describe('ReplRenderer tool lines', () => {
  it('a tool the user declined is marked as not run, without the note meant for the model', () => {
    const t = make('plain');
    t.r.handle({
      type: 'tool_start',
      id: 'x',
      name: 'shell',
      label: 'rm -rf out',
      args: {},
      index: 0,
      total: 1,
    });
    t.r.handle({ type: 'permission', id: 'x', name: 'shell', decision: 'denied' });
    t.r.handle({
      type: 'tool_end',
      id: 'x',
      name: 'shell',
      label: 'rm -rf out',
      ok: false,
      result: 'Error: The user declined this tool call. Ask them how to continue.',
      durationMs: 2500,
      index: 0,
      total: 1,
      filesRead: 0,
      filesWritten: [],
    });
    expect(t.err()).toContain('[WARN] Not run (run a command): you said no.');
    expect(t.err()).toContain('[TOOL] [1/1] Run rm -rf out … ✗\n');
    expect(t.err()).not.toContain('declined');
  });

  it('a long failure reason goes under the tool line, wrapped at words, never cut (its end is the advice)', () => {
    const t = make('plain');
    t.r.handle({
      type: 'tool_end',
      id: 'y',
      name: 'file_read',
      label: 'a.md',
      ok: false,
      result: `Error: ${'很长的错误说明'.repeat(20)}；要让命令写入当前文件夹，批准时按 w`,
      durationMs: 10,
      index: 0,
      total: 1,
      filesRead: 0,
      filesWritten: [],
    });
    const [line, ...reason] = t.err().trimEnd().split('\n');
    expect(line).toBe('[TOOL] [1/1] Read a.md … ✗ 0.0s');
    for (const l of reason) {
      expect(l).toMatch(/^ {4}\S/);
      expect(stringWidthOf(l)).toBeLessThanOrEqual(59);
    }
    const squeeze = (x: string) => x.replace(/\s+/g, '');
    expect(squeeze(reason.join(''))).toBe(
      squeeze(`${'很长的错误说明'.repeat(20)}；要让命令写入当前文件夹，批准时按 w`),
    );
    expect(reason.join('')).not.toContain('…');
  });
});

function stringWidthOf(s: string): number {
  let w = 0;
  for (const ch of s) w += /[\u3000-\u9fff\uff00-\uffef]/.test(ch) ? 2 : 1;
  return w;
}

describe('ReplRenderer: /run on a folder', () => {
  const counts = { total: 2, done: 0, failed: 0, earlier: 0 };
  const file = (f: string, status: 'started' | 'done', done: number) => ({
    type: 'folder_file' as const,
    skill: 'summarize',
    file: f,
    index: 0,
    status,
    counts: { ...counts, done },
    spent: 0,
  });

  it('prints one line per file, the run record, then the answers whole (they were not streamed)', () => {
    const t = make('rich');
    t.r.handle({
      type: 'folder_start',
      skill: 'summarize',
      counts,
      todo: 2,
      jobs: 2,
      manifest: 'zhi-output/.zhi-runs/x.json',
      skillChanged: false,
      currency: 'CNY',
    });
    t.r.handle(file('docs/a.txt', 'started', 0));
    t.r.handle(file('docs/b.txt', 'started', 0));
    t.r.handle(file('docs/b.txt', 'done', 1));
    t.r.handle(file('docs/a.txt', 'done', 2));
    t.r.handle({
      type: 'long_document',
      skill: 'summarize',
      file: 'docs/c.txt',
      parts: 12,
      estimate: 0.5,
      tokens: { input: 40_000, output: 9_000 },
      currency: 'CNY',
    });
    t.r.handle({
      type: 'folder_end',
      skill: 'summarize',
      counts: { ...counts, done: 2 },
      spent: 0,
      currency: 'CNY',
      failures: [],
      outputs: [],
      notStarted: 0,
      interrupted: 0,
      manifest: 'zhi-output/.zhi-runs/x.json',
    });
    t.r.finish(
      result({ text: '## docs/a.txt\n\nFirst \x1b[31msummary\n\n## docs/b.txt\n\nSecond' }),
      usage(),
      10,
    );
    const screen = t.screen();
    expect(screen).toContain('2 of 2 files to process, 2 at a time');
    expect(screen).toContain('[1/2] ✓ docs/b.txt');
    expect(screen).toContain('[2/2] ✓ docs/a.txt');
    expect(screen).toContain('Long document docs/c.txt: 12 parts');
    // Without a limit passed, no estimate is said.
    expect(screen).not.toMatch(/Estimated cost/);
    expect(screen).toContain('Run record: zhi-output/.zhi-runs/x.json');
    expect(screen.indexOf('First')).toBeGreaterThan(screen.indexOf('Run record'));
    expect(screen).toContain('Second');
    // The answers came from the model: no escape sequence reaches the terminal.
    expect(t.out()).not.toContain('\x1b[31msummary');
  });
});
