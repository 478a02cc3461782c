/**
 * Issue 39 point 7, one text renderer: what a run writes for a person when it is not drawn live
 * (`RunText`: the lines about the run, the answer once, the closing part) is the same through the
 * text format (one-shot, pipe, `zhi run`) and through the REPL's renderer with stdout redirected.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { AgentResult, RunEvent } from '../../src/agent/events.js';
import { TextPrinter } from '../../src/cli/render/formats/text.js';
import { ReplRenderer } from '../../src/cli/render/repl-renderer.js';
import { RunText } from '../../src/cli/render/run-text.js';
import { makeStyle } from '../../src/cli/render/style.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import { UsageTracker } from '../../src/llm/usage.js';

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

const result = (over: Partial<AgentResult> = {}): AgentResult => ({
  text: '',
  stopReason: 'answer',
  turns: 2,
  toolCalls: 1,
  filesRead: 1,
  filesWritten: [],
  ...over,
});

const usage = () => new UsageTracker(PLATFORMS.bigmodel);

const ANSWER = '# Summary\n\nShort.';

/** A skill run: its line (said twice, as a folder run announces it again), narration, a tool, the answer. */
const skillRun: RunEvent[] = [
  { type: 'skill_start', skill: 'summarize', model: 'glm-4-flash', depth: 1 },
  { type: 'skill_step', skill: 'summarize', index: 0, total: 1, label: 'Summarize' },
  { type: 'skill_start', skill: 'summarize', model: 'glm-4-flash', depth: 1 },
  { type: 'turn_start', turn: 1, model: 'glm-4-flash' },
  { type: 'text_delta', text: 'Let me read it first.' },
  { type: 'tool_start', id: 'a', name: 'file_read', label: 'notes.md', args: {}, index: 0, total: 1 },
  {
    type: 'tool_end',
    id: 'a',
    name: 'file_read',
    label: 'notes.md',
    ok: true,
    result: 'text',
    durationMs: 300,
    index: 0,
    total: 1,
    filesRead: 1,
    filesWritten: [],
  },
  { type: 'warning', message: 'The document is long.' },
  { type: 'turn_start', turn: 2, model: 'glm-4-flash' },
  { type: 'text_delta', text: ANSWER },
];

describe('a run written for a person, not drawn live', () => {
  it('the text format and the REPL (stdout redirected) write the same answer once and the same lines', () => {
    const out = sink();
    const err = sink();
    const printer = new TextPrinter({
      out: makeStyle(false),
      err: makeStyle(false),
      stdoutIsTTY: false,
      stderrIsTTY: false,
      verbose: 0,
      debug: false,
      cwd: '/work',
      stdout: out.stream,
      stderr: err.stream,
    });
    let replOut = '';
    let replErr = '';
    const repl = new ReplRenderer({
      mode: 'pipe',
      term: { write: (s) => (replOut += s), columns: () => 80, rows: () => 24 },
      out: makeStyle(false),
      err: makeStyle(false),
      stderr: (s) => (replErr += s),
      verbose: () => false,
      debug: false,
      cwd: '/work',
      animate: false,
    });
    for (const ev of skillRun) {
      printer.handle(ev);
      repl.handle(ev);
    }
    printer.finish(result({ text: ANSWER }), usage(), 'glm-4-flash', 1500);
    repl.finish(result({ text: ANSWER }), usage(), 1500);
    // The narration before the tool call never lands in the redirected file.
    expect(out.text()).toBe(`${ANSWER}\n`);
    expect(replOut).toBe(out.text());
    expect(err.text()).toBe(
      [
        'Running summarize (glm-4-flash)…',
        '[1/1] Summarize',
        '[TOOL] [1/1] Read notes.md … ✓ 0.3s',
        '[WARN] The document is long.',
        '[DONE] Done: 1 file read, 0 written · 1 tool · 0 tokens · ¥0.00 · 1.5s',
        '',
      ].join('\n'),
    );
    // Drawn like chat, the closing line stands after a blank line; nothing else differs.
    expect(replErr).toBe(err.text().replace('[DONE]', '\n[DONE]'));
  });

  /** The answer written at the end: what the result says, else what the last turn streamed. */
  const answers: { name: string; text: string; streamed: string; live: boolean; written: string }[] = [
    { name: 'the result', text: 'A', streamed: 'A', live: false, written: 'A\n' },
    { name: 'its own newline kept', text: 'A\n', streamed: '', live: false, written: 'A\n' },
    {
      name: 'the last turn, when the result has none',
      text: '',
      streamed: 'partial',
      live: false,
      written: 'partial\n',
    },
    { name: 'nothing for blank text', text: ' \n', streamed: '', live: false, written: '' },
    { name: 'nothing when shown live', text: 'A', streamed: 'A', live: true, written: '' },
  ];
  for (const c of answers) {
    it(`answer once: ${c.name}`, () => {
      let written = '';
      const text = new RunText({
        ui: makeStyle(false),
        line: () => {},
        answer: (s) => (written += s),
        closeAnswer: () => {},
        chat: false,
        oneShot: true,
        debug: false,
        cwd: '/work',
      });
      text.handle({ type: 'turn_start', turn: 1, model: 'glm-5' });
      text.handle({ type: 'text_delta', text: c.streamed });
      text.finish(result({ text: c.text }), usage(), 10, { live: c.live });
      expect(written).toBe(c.written);
    });
  }

  it("drawn like chat only: a call not run says no reason on its line, a command's output shows under it", () => {
    const lines = (chat: boolean) => {
      const shown: string[] = [];
      const text = new RunText({
        ui: makeStyle(false),
        line: (s) => shown.push(s.replace(/\n$/, '')),
        answer: () => {},
        closeAnswer: () => {},
        chat,
        oneShot: false,
        debug: false,
        cwd: '/work',
      });
      const end = {
        type: 'tool_end' as const,
        index: 0,
        total: 2,
        durationMs: 100,
        filesRead: 0,
        filesWritten: [],
      };
      text.handle({ type: 'permission', id: 'a', name: 'shell', decision: 'denied' });
      text.handle({
        ...end,
        id: 'a',
        name: 'shell',
        label: 'rm x',
        ok: false,
        result: 'Denied by the user.',
      });
      text.handle({
        ...end,
        id: 'b',
        name: 'shell',
        label: 'ls',
        ok: true,
        result: 'Exit code: 0 (0.1 s)\n\nstdout:\nnotes.md',
      });
      return shown;
    };
    const chat = lines(true);
    const text = lines(false);
    expect(chat[1]).toBe('[TOOL] [1/2] Run rm x … ✗');
    expect(text[1]).toMatch(/^\[TOOL\] \[1\/2\] Run rm x … ✗ 0\.1s ./);
    expect(chat.slice(2).join('\n')).toContain('notes.md');
    expect(text.slice(2).join('\n')).not.toContain('notes.md');
  });
});
