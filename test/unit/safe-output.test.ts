/** Model and file text reaches the terminal only through visible(): escapes shown, never executed. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { AgentEvent, AgentResult } from '../../src/agent/events.js';
import { formatError, formatWarning } from '../../src/cli/render/error.js';
import { TextPrinter } from '../../src/cli/render/formats/text.js';
import { ReplRenderer } from '../../src/cli/render/repl-renderer.js';
import { safeEvent } from '../../src/cli/render/safe-event.js';
import { makeStyle } from '../../src/cli/render/style.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import { UsageTracker } from '../../src/llm/usage.js';
import { quoted, ZhiError } from '../../src/support/errors.js';

const WRAP_OFF = '\x1b[?7l';
const TITLE = '\x1b]0;pwned\x07';

const result = (text: string): AgentResult => ({
  text,
  stopReason: 'answer',
  turns: 1,
  toolCalls: 1,
  filesRead: 0,
  filesWritten: [],
});

function sink() {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  return { stream, text: () => text };
}

const events: AgentEvent[] = [
  { type: 'thinking_delta', text: `plan${WRAP_OFF}\nstep two` },
  { type: 'text_delta', text: `Hello${TITLE}\n\tworld\r` },
  {
    type: 'tool_start',
    id: 'c1',
    name: 'file_read',
    label: `notes${WRAP_OFF}.md\nx`,
    args: {},
    index: 0,
    total: 1,
  },
  { type: 'progress', id: 'c1', note: `page 1${WRAP_OFF}` },
  {
    type: 'tool_end',
    id: 'c1',
    name: 'file_read',
    label: `notes${WRAP_OFF}.md`,
    ok: false,
    result: `Error: no such file ${TITLE}`,
    filesRead: 0,
    filesWritten: [],
    durationMs: 5,
    index: 0,
    total: 1,
  },
  { type: 'permission', id: 'c1', name: 'shell', decision: 'refused', reason: `bad${WRAP_OFF}` },
  { type: 'warning', message: `skill broke${WRAP_OFF}` },
];

describe('safeEvent', () => {
  it('makes escapes visible in every string, keeping line breaks only in answers and reasoning', () => {
    expect(safeEvent(events[1]!)).toEqual({ type: 'text_delta', text: 'Hello␛]0;pwned\\a\n\tworld\\r' });
    expect(safeEvent(events[2]!)).toMatchObject({ label: 'notes␛[?7l.md↵x', id: 'c1' });
    const retry: AgentEvent = {
      type: 'retry',
      attempt: 1,
      maxRetries: 3,
      delayMs: 10,
      error: { kind: 'server', message: `busy${WRAP_OFF}`, status: 500 } as never,
    };
    expect((safeEvent(retry) as { error: { message: string } }).error.message).toBe('busy␛[?7l');
    const plain: AgentEvent = { type: 'text_delta', text: 'plain' };
    expect(safeEvent(plain)).toBe(plain);
  });
});

describe('no raw escape from the model or a file reaches the terminal', () => {
  it('one-shot printer on a terminal: answer, reasoning, tool lines, warnings', () => {
    const out = sink();
    const err = sink();
    const p = new TextPrinter({
      out: makeStyle(false),
      err: makeStyle(false),
      stdoutIsTTY: true,
      stderrIsTTY: false,
      verbose: 1,
      debug: false,
      cwd: '/work',
      stdout: out.stream,
      stderr: err.stream,
    });
    for (const ev of events) p.handle(ev);
    p.finish(result(`Hello${TITLE}\n\tworld\r`), new UsageTracker(PLATFORMS.bigmodel), 'glm-5', 10);
    expect(out.text()).not.toContain('\x1b');
    expect(out.text()).toContain('Hello␛]0;pwned\\a\n\tworld');
    expect(err.text()).not.toContain('\x1b');
    expect(err.text()).toContain('notes␛[?7l.md');
    expect(err.text()).toContain('skill broke␛[?7l');
    expect(err.text()).toContain('plan␛[?7l');
  });

  it('one-shot printer into a pipe or a file: the answer keeps its tabs, its escapes are shown (less -R would run them)', () => {
    const out = sink();
    const p = new TextPrinter({
      out: makeStyle(false),
      err: makeStyle(false),
      stdoutIsTTY: false,
      stderrIsTTY: false,
      verbose: 0,
      debug: false,
      cwd: '/work',
      stdout: out.stream,
      stderr: sink().stream,
    });
    p.finish(result('a\tb\x1b[1mc'), new UsageTracker(PLATFORMS.bigmodel), 'glm-5', 10);
    expect(out.text()).toBe('a\tb␛[1mc\n');
  });

  it('REPL renderer (plain terminal): no escape but its own', () => {
    let out = '';
    let err = '';
    const r = new ReplRenderer({
      mode: 'plain',
      term: { write: (s) => (out += s), columns: () => 80, rows: () => 24 },
      out: makeStyle(false),
      err: makeStyle(false),
      stderr: (s) => (err += s),
      verbose: () => true,
      debug: false,
      cwd: '/work',
      animate: false,
    });
    for (const ev of events) r.handle(ev);
    r.finish(result(''), new UsageTracker(PLATFORMS.bigmodel), 10);
    expect(out + err).not.toContain('\x1b');
    expect(out + err).not.toContain('\x07');
    expect(out).toContain('␛]0;pwned');
  });

  it('error panels and warnings show escapes from API or file text', () => {
    const e = new ZhiError({
      kind: 'server',
      what: { key: 'cli.err.unexpected' },
      why: quoted(`x${WRAP_OFF}`, 'cli.by.platform'),
    });
    expect(formatError(e, makeStyle(false))).not.toContain('\x1b');
    expect(formatWarning(`path ${WRAP_OFF}`, makeStyle(false))).toBe('[WARN] path ␛[?7l\n');
  });
});
