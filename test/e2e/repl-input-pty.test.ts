/**
 * The REPL's own input line in a real pseudo-terminal, at 60 and 100 columns, in English and
 * Chinese (issue 13, defect 1): a wrapped Chinese line edited with Backspace, Left in a long line,
 * lines ended with `\` edited again, a resize at the prompt, and text typed during an answer.
 * Each check reads the screen as a terminal shows it (redraws applied), never the raw bytes.
 */
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { KEY, type PtySession, promptFor, waitScreen } from '../helpers/pty.js';

const e = useE2E();
const { fake } = e;

const LEFT = '\x1b[D';
const BACKSPACE = '\x7f';

function open(cols: number, lang: 'en' | 'zh'): PtySession {
  const s = e.pty({ cols, rows: 30, env: { ZHI_LANGUAGE: lang, ZHI_STATUS_LINE: 'on' } });
  return s;
}

/** Keys one at a time, as a person types them. */
async function keys(s: PtySession, key: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    s.write(key);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const count = (text: string, part: string) => text.split(part).length - 1;
const lastUser = () => fake.chatBodies().at(-1)?.messages.at(-1);

describe.each([
  [60, 'en'],
  [100, 'en'],
  [60, 'zh'],
  [100, 'zh'],
] as const)('the input line at %i columns (%s)', (cols, lang) => {
  it('a wrapped Chinese line edited with Backspace is drawn once, and sends what is shown', async () => {
    fake.script({ kind: 'text', text: 'OK' });
    const s = open(cols, lang);
    await s.waitFor(promptFor(lang));
    const typed = '春眠不觉晓处处闻啼鸟'.repeat(4) + '夜来风雨声';
    s.write(typed);
    await waitScreen(s, cols, (v) => v.replace(/\n/g, '').includes(typed), 'the typed line');
    await keys(s, BACKSPACE, 5);
    const kept = typed.slice(0, -5);
    const view = await waitScreen(
      s,
      cols,
      (v) => v.replace(/\n/g, '').includes(promptFor(lang) + kept) && !v.includes('夜来风雨声'),
      'the line without its last five characters',
    );
    expect(count(view, promptFor(lang))).toBe(1);
    expect(view).not.toContain('夜来风雨声');
    s.write(KEY.enter);
    await s.waitFor('OK');
    expect(lastUser()).toEqual({ role: 'user', content: kept });
  });

  it('Left in a long line puts the cursor where it shows: a typed letter lands there, drawn once', async () => {
    fake.script({ kind: 'text', text: 'OK' });
    const s = open(cols, lang);
    await s.waitFor(promptFor(lang));
    const line = 'abcdefghij'.repeat(6);
    s.write(line);
    await waitScreen(s, cols, (v) => v.replace(/\n/g, '').includes(line), 'the typed line');
    await keys(s, LEFT, 18);
    s.write('文');
    const expected = `${line.slice(0, 42)}文${line.slice(42)}`;
    const view = await waitScreen(s, cols, (v) => v.replace(/\n/g, '').includes(expected), 'the insertion');
    expect(count(view, promptFor(lang))).toBe(1);
    // Every row fits the window: nothing drawn past the right edge, no duplicate rows.
    for (const row of view.split('\n')) expect(row.length).toBeLessThanOrEqual(cols);
    s.write(KEY.enter);
    await s.waitFor('OK');
    expect(lastUser()).toEqual({ role: 'user', content: expected });
  });

  it('a line ended with \\ stays editable: Up moves into it', async () => {
    fake.script({ kind: 'text', text: 'OK' });
    const s = open(cols, lang);
    await s.waitFor(promptFor(lang));
    s.write('第一行 \\');
    s.write(KEY.enter);
    await waitScreen(s, cols, (v) => /第一行\s*\n…/.test(v), 'the continuation prompt');
    s.write('second');
    s.write(KEY.up);
    s.write('\x05'); // Ctrl+E: end of that line
    s.write('改');
    await waitScreen(s, cols, (v) => v.includes('第一行 改\n… second'), 'the first line edited');
    s.write(KEY.enter);
    await s.waitFor('OK');
    expect(lastUser()).toEqual({ role: 'user', content: '第一行 改\nsecond' });
  });

  it('a resize at the prompt leaves no stale prompt lines', async () => {
    const s = open(cols, lang);
    await s.waitFor(promptFor(lang));
    const typed = '一二三四五六七八九十'.repeat(4);
    s.write(typed);
    await waitScreen(s, cols, (v) => v.replace(/\n/g, '').includes(typed), 'the typed line');
    const wider = cols + 40;
    s.pty.resize(wider, 30);
    s.write('尾');
    const view = await waitScreen(s, wider, (v) => v.replace(/\n/g, '').includes(`${typed}尾`), 'the redraw');
    expect(count(view, promptFor(lang))).toBe(1);
  });
});

describe('typing during an answer', () => {
  it.each([
    'en',
    'zh',
  ] as const)('shows the text typed ahead, and sends it when the answer is done (%s)', async (lang) => {
    fake.script({ kind: 'text', text: '慢慢地回答。'.repeat(30), chunk: 3, delayMs: 30 });
    fake.script({ kind: 'text', text: 'SECOND' });
    const s = open(100, lang);
    await s.waitFor(promptFor(lang));
    s.write('讲个故事');
    s.write(KEY.enter);
    await s.waitFor('慢慢地回答');
    s.write('下一个问题');
    await waitScreen(s, 100, (v) => /› 下一个问题/.test(v), 'the typed-ahead text');
    s.write(KEY.enter);
    await s.waitFor('SECOND', 15_000);
    expect(lastUser()).toEqual({ role: 'user', content: '下一个问题' });
  });
});

describe.each([
  [60, 'en'],
  [100, 'zh'],
] as const)('a draft made from a history entry at %i columns (%s)', (cols, lang) => {
  /** What the last prompt line holds. */
  const atPrompt = (v: string) =>
    v
      .slice(v.lastIndexOf(promptFor(lang)) + promptFor(lang).length)
      .split('\n')[0]!
      .trim();
  it.each([
    ['Alt+Enter', '\x1b\r'],
    ['\\ and Enter', '\\\r'],
  ])('is kept when Up is pressed (%s)', async (_name, newline) => {
    fake.script({ kind: 'text', text: 'ONE' });
    fake.script({ kind: 'text', text: 'TWO' });
    fake.script({ kind: 'text', text: 'THREE' });
    const s = open(cols, lang);
    await s.waitFor(promptFor(lang));
    s.write('较早的问题');
    s.write(KEY.enter);
    await s.waitFor('ONE');
    s.write('最近的问题');
    s.write(KEY.enter);
    await s.waitFor('TWO');
    await waitScreen(s, cols, (v) => count(v, promptFor(lang).trimEnd()) === 3, 'the prompt again');
    s.write(KEY.up);
    await waitScreen(s, cols, (v) => atPrompt(v) === '最近的问题', 'the recalled entry');
    s.write('\x01\x0b'); // Ctrl+A Ctrl+K: the entry cleared
    s.write('aaa');
    s.write(newline);
    s.write('bbb');
    await waitScreen(s, cols, (v) => /aaa\s*\n… bbb/.test(v), 'the two-line draft');
    s.write(KEY.up);
    s.write('!');
    await waitScreen(s, cols, (v) => /aaa!\s*\n… bbb/.test(v), 'the first line of the draft edited');
    s.write(KEY.up); // into the history: the draft is kept
    await waitScreen(s, cols, (v) => atPrompt(v) === '最近的问题', 'the history entry');
    s.write(KEY.down);
    await waitScreen(s, cols, (v) => /aaa!\s*\n… bbb/.test(v), 'the draft back');
    s.write(KEY.enter);
    await s.waitFor('THREE');
    expect(lastUser()).toEqual({ role: 'user', content: 'aaa!\nbbb' });
  });
});
