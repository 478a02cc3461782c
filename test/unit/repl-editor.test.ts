import { PassThrough, Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { LineEditor } from '../../src/cli/repl/editor.js';
import { History } from '../../src/cli/repl/history.js';

/** A terminal made of streams: keys go in through `type()`, everything drawn lands in `screen`. */
function fakeTerminal() {
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => input });
  let screen = '';
  const output = Object.assign(
    new Writable({
      write(chunk, _enc, cb) {
        screen += chunk.toString();
        cb();
      },
    }),
    { isTTY: true, columns: 80, rows: 24 },
  );
  return { input, output, screen: () => screen };
}

const tick = () => new Promise((r) => setImmediate(r));

let editors: LineEditor[] = [];
afterEach(() => {
  for (const e of editors) e.close();
  editors = [];
});

async function setup(entries: string[] = []) {
  const term = fakeTerminal();
  const history = new History(undefined);
  for (const e of [...entries].reverse()) await history.add(e);
  const editor = new LineEditor(term, {
    history,
    prompt: () => 'zhi [approve]> ',
    continuation: '… ',
    bracketedPaste: true,
  });
  editors.push(editor);
  /** Type keys as separate reads (a person typing), waiting a tick after each. */
  const type = async (...chunks: string[]) => {
    for (const c of chunks) {
      term.input.write(c);
      await tick();
    }
  };
  return { term, history, editor, type };
}

describe('LineEditor', () => {
  it('reads a line and turns on bracketed paste', async () => {
    const { editor, type, term } = await setup();
    const line = editor.read();
    await type('你好，世界', '\r');
    expect(await line).toEqual({ kind: 'line', text: '你好，世界' });
    expect(term.screen()).toContain('\x1b[?2004h');
    expect(term.screen()).toContain('zhi [approve]> ');
  });

  it('joins lines ending in a backslash, with a continuation prompt', async () => {
    const { editor, type, term } = await setup();
    const line = editor.read();
    await type('first \\', '\r', 'second', '\r');
    expect(await line).toEqual({ kind: 'line', text: 'first \nsecond' });
    expect(term.screen()).toContain('… ');
  });

  it('keeps a bracketed paste with newlines in the line, sent only by Enter', async () => {
    const { editor, type } = await setup();
    const line = editor.read();
    let done = false;
    void line.then(() => {
      done = true;
    });
    await type('总结：', '\x1b[200~第一行\r\n第二行\n\x1b[201~');
    await tick();
    expect(done).toBe(false);
    await type('\r');
    expect(await line).toEqual({ kind: 'line', text: '总结：第一行\n第二行' });
  });

  it('treats several lines arriving in one chunk as a paste (terminals without bracketed paste)', async () => {
    const { editor, type } = await setup();
    const line = editor.read();
    await type('one\rtwo\rthree');
    await tick();
    await type('\r');
    expect(await line).toEqual({ kind: 'line', text: 'one\ntwo\nthree' });
  });

  it('inserts a multi-character chunk (an IME commit) at the cursor, not at the end', async () => {
    const { editor, type } = await setup();
    const line = editor.read();
    await type('abcdef', '\x01', '中文xyz', '\r');
    expect(await line).toEqual({ kind: 'line', text: '中文xyzabcdef' });
  });

  it('Ctrl+C clears a typed line, and on an empty line reports an interrupt', async () => {
    const { editor, type } = await setup();
    const line = editor.read();
    await type('draft', '\x03');
    await type('\x03');
    expect(await line).toEqual({ kind: 'interrupt' });
  });

  it('Ctrl+D on an empty line is the end; with text it deletes forward', async () => {
    const { editor, type } = await setup();
    const first = editor.read();
    await type('ab', '\x01', '\x04', '\r');
    expect(await first).toEqual({ kind: 'line', text: 'b' });
    const second = editor.read();
    await type('\x04');
    expect(await second).toEqual({ kind: 'eof' });
  });

  it('Up recalls history, including multi-line entries', async () => {
    const { editor, type } = await setup(['第一行\n第二行', 'older']);
    const line = editor.read();
    await type('\x1b[A', '\r');
    expect(await line).toEqual({ kind: 'line', text: '第一行\n第二行' });
  });

  it('Ctrl+R searches the history; Enter sends the match, Ctrl+G restores the line', async () => {
    const { editor, type, term } = await setup(['hello', '总结 report.pdf', '翻译 a.md']);
    const first = editor.read();
    await type('\x12', '总结', '\r');
    expect(await first).toEqual({ kind: 'line', text: '总结 report.pdf' });
    expect(term.screen()).toContain("(reverse-i-search)'总结': ");
    const second = editor.read();
    await type('draft', '\x12', 'zzz', '\x07', '\r');
    expect(await second).toEqual({ kind: 'line', text: 'draft' });
    expect(term.screen()).toContain('failed reverse-i-search');
  });

  it('asks a question while busy; the answer never enters the history', async () => {
    const { editor, type, history } = await setup(['earlier']);
    const line = editor.read();
    await type('run it', '\r');
    await line;
    editor.busy(() => {});
    const answer = editor.ask('Allow? [y/N] ');
    await type('y', '\r');
    expect(await answer).toBe('y');
    editor.idle();
    const next = editor.read();
    await type('\x1b[A', '\r');
    expect(await next).toEqual({ kind: 'line', text: 'earlier' });
    expect(history.entries()).not.toContain('y');
  });

  it('Ctrl+C during a question answers no and interrupts the run', async () => {
    const { editor, type } = await setup();
    let interrupted = 0;
    editor.busy(() => interrupted++);
    const answer = editor.ask('Allow? ');
    await type('\x03');
    expect(await answer).toBeNull();
    expect(interrupted).toBe(1);
  });

  it('a question ends when its signal aborts', async () => {
    const { editor } = await setup();
    const abort = new AbortController();
    editor.busy(() => {});
    const answer = editor.ask('Allow? ', abort.signal);
    abort.abort();
    expect(await answer).toBeNull();
  });

  it('while busy, Ctrl+C interrupts and other keys wait for the next prompt', async () => {
    const { editor, type } = await setup();
    let interrupted = 0;
    editor.busy(() => interrupted++);
    await type('next question', '\x03', '\r');
    expect(interrupted).toBe(1);
    editor.idle();
    expect(await editor.read()).toEqual({ kind: 'line', text: 'next question' });
  });

  it('a closed input ends reading', async () => {
    const { editor, term } = await setup();
    const line = editor.read();
    term.input.end();
    await tick();
    editor.close();
    expect(await line).toEqual({ kind: 'eof' });
  });
});

describe('LineEditor between a line and its work', () => {
  it('a Ctrl+C typed before the work starts stops it as soon as it starts', async () => {
    const { editor, type } = await setup();
    const line = editor.read();
    await type('go', '\r');
    await line;
    await type('\x03');
    let interrupted = 0;
    editor.busy(() => interrupted++);
    expect(interrupted).toBe(1);
    editor.idle();
    const next = editor.read();
    editor.busy(() => interrupted++);
    expect(interrupted).toBe(1);
    editor.idle();
    void next;
  });
});
