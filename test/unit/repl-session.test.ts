import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatSession } from '../../src/agent/chat.js';
import { newConversation } from '../../src/agent/conversation.js';
import type { Prompter } from '../../src/agent/loop.js';
import type { AppContext } from '../../src/cli/context.js';
import { loadSlashCommands } from '../../src/cli/repl/commands/index.js';
import type { SlashContext } from '../../src/cli/repl/commands/types.js';
import { History } from '../../src/cli/repl/history.js';
import { Repl } from '../../src/cli/repl/repl.js';
import { statusText } from '../../src/cli/repl/status.js';
import { usageSince } from '../../src/cli/repl/usage-delta.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import type { StreamEvent } from '../../src/llm/types.js';
import { UsageTracker } from '../../src/llm/usage.js';
import { setLanguage } from '../../src/support/i18n/index.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { Tool } from '../../src/tools/types.js';
import { terminalContext } from '../helpers/app-context.js';
import { ScriptedLlm, type Turn } from '../helpers/fake-llm.js';
import { unwrap } from '../helpers/untrusted.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

function stream(isTTY: boolean) {
  let text = '';
  const s = Object.assign(
    new Writable({
      write(chunk, _enc, cb) {
        text += chunk.toString();
        cb();
      },
    }),
    { isTTY, columns: 80, rows: 24 },
  );
  return { s, text: () => text };
}

const tick = () => new Promise((r) => setImmediate(r));

async function until(check: () => boolean, what: string, ms = 3000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

let dir: string;
beforeEach(() => {
  dir = tempDir();
  setLanguage('en');
});
afterEach(() => cleanup(dir));

const notes: string[] = [];
const noteTool: Tool<z.ZodObject<{ text: z.ZodString }>> = {
  name: 'make_note',
  description: 'test tool',
  schema: z.object({ text: z.string() }),
  kind: 'risky',
  label: (a) => a.text,
  async execute(a) {
    notes.push(a.text);
    return 'noted';
  },
};

async function start(turns: Turn[], o: { stdoutTTY?: boolean } = {}) {
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => input });
  const err = stream(true);
  const out = stream(o.stdoutTTY ?? true);
  const llm = new ScriptedLlm(turns);
  const tools = new ToolRegistry();
  tools.register(noteTool);
  const platform = PLATFORMS.bigmodel;
  const ctx: AppContext = terminalContext(dir, { file: { status_line: 'off' } });
  // Made by the REPL when first needed, with the REPL's prompter (the questions asked in its editor).
  let chat: ChatSession | undefined;
  const makeChat = (prompter: Prompter) =>
    new ChatSession(
      {
        llm,
        tools,
        prompter,
        usage: new UsageTracker(platform),
        cwd: dir,
        outputDir: ctx.outputDir,
      },
      newConversation({
        model: 'glm-5',
        thinking: true,
        mode: 'approve',
        maxTurns: 8,
        systemPrompt: 'system',
      }),
    );
  const history = await History.load(ctx.paths.historyFile);
  const repl = new Repl({
    ctx,
    chat: async (prompter) => {
      chat = makeChat(prompter);
      return { chat };
    },
    commands: await loadSlashCommands(),
    history,
    io: { input, output: err.s, stdout: out.s },
    animate: false,
  });
  repl.welcome();
  const done = repl.run();
  const type = async (...keys: string[]) => {
    for (const k of keys) {
      input.write(k);
      await tick();
    }
  };
  /** Type a line and wait until the prompt is back (the command or run is over). */
  const submit = async (line: string) => {
    const before = err.text().split('zhi [').length;
    await type(line, '\r');
    await until(() => err.text().split('zhi [').length > before, `the prompt after "${line}"`);
  };
  return {
    repl,
    get chat(): ChatSession {
      if (!chat) throw new Error('the REPL has not made its chat yet');
      return chat;
    },
    llm,
    err: err.text,
    out: out.text,
    type,
    submit,
    done,
  };
}

describe('REPL commands', () => {
  it('/help lists the commands and keys; /exit ends with the session usage', async () => {
    const r = await start([]);
    await r.submit('/help');
    expect(r.err()).toMatch(/\/model \[name\]\s+Show the models, or switch to one/);
    expect(r.err()).toContain('/exit (/quit, /q)');
    expect(r.err()).toContain('Ctrl+R');
    // Every /skill action is named, trust and cancel too (issue 44 point 21).
    expect(r.err().replace(/\s+/g, ' ')).toMatch(
      /\/skill .*Skills: list, show, new, edit, delete, trust .*, cancel/,
    );
    await r.type('/exit', '\r');
    expect(await r.done).toBe(0);
    expect(r.err()).toContain('Session: no tokens used.');
  });

  it('/auto and /approve switch the mode shown in the prompt', async () => {
    const r = await start([]);
    await r.submit('/auto');
    expect(r.chat.settings.mode).toBe('auto');
    expect(r.err()).toContain('zhi [auto]> ');
    expect(r.err().replace(/\s+/g, ' ')).toContain('Commands still ask every time');
    await r.submit('/approve');
    expect(r.chat.settings.mode).toBe('approve');
    await r.type('\x04');
    await r.done;
  });

  it('/model validates names, warns for models without tools, refuses the OCR model', async () => {
    const r = await start([]);
    await r.submit('/model');
    expect(r.err()).toContain('Current model: glm-5');
    expect(r.err()).toMatch(/glm-4-flash\s+free/);
    await r.submit('/model GLM-4.7');
    expect(r.chat.settings.model).toBe('glm-4.7');
    await r.submit('/model glm-4.8');
    // Newer than the registry is allowed (the platform decides), with a warning and a suggestion.
    expect(r.err()).toContain("glm-4.8 is not in zhi's model list: switched anyway");
    expect(r.err()).toContain('Did you mean `/model glm-4.');
    expect(r.chat.settings.model).toBe('glm-4.8');
    await r.submit('/model glm 4 8');
    expect(r.err()).toContain('Unknown model: glm 4 8.');
    expect(r.chat.settings.model).toBe('glm-4.8');
    await r.submit('/model glm-4v-flash');
    expect(r.err()).toContain('glm-4v-flash cannot use tools');
    await r.submit('/model glm-ocr');
    expect(r.err()).toContain('it cannot chat');
    expect(r.chat.settings.model).toBe('glm-4v-flash');
    await r.type('\x04');
    await r.done;
  });

  it('/think and /fast switch thinking, with a note for models that always think', async () => {
    const r = await start([]);
    await r.submit('/fast');
    expect(r.chat.settings.thinking).toBe(false);
    await r.submit('/model glm-4.7');
    expect(r.err()).not.toContain('glm-4.7 always thinks'); // both platforms allow it off
    await r.submit('/model glm-5.3');
    expect(r.err()).toContain('glm-5.3 always thinks');
    await r.submit('/think');
    expect(r.chat.settings.thinking).toBe(true);
    await r.submit('/think high');
    expect(r.chat.settings.effort).toBe('high');
    expect(r.err()).toContain('Thinking on, effort high');
    await r.submit('/think loud');
    expect(r.err()).toContain('Unknown effort "loud"');
    expect(r.chat.settings.effort).toBe('high');
    await r.submit('/verbose');
    expect(r.err()).toContain('Verbose on');
    await r.type('\x04');
    await r.done;
  });

  it('suggests the nearest command for a typo; a path is a message, not a command', async () => {
    const r = await start([{ text: 'It is a PDF path.' }]);
    await r.submit('/modle glm-5');
    expect(r.err()).toContain('Unknown command: /modle. Did you mean /model?');
    await r.submit('/');
    expect(r.err()).toContain('Type /help to see the commands.');
    await r.submit('/path/to/file.pdf what is this');
    expect(r.llm.requests).toHaveLength(1);
    expect(r.llm.requests[0]!.messages.at(-1)).toEqual({
      role: 'user',
      content: '/path/to/file.pdf what is this',
    });
    await r.type('\x04');
    await r.done;
  });

  it('/undo removes the last exchange; /reset asks first', async () => {
    const r = await start([{ text: 'one' }, { text: 'two' }]);
    await r.submit('first question');
    await r.submit('second question');
    expect(r.chat.messages).toHaveLength(5);
    await r.submit('/undo');
    expect(r.err()).toContain('Removed the last exchange: “second question”');
    expect(r.chat.messages).toHaveLength(3);
    await r.type('/reset', '\r');
    await until(() => r.err().includes('Clear the conversation (2 messages)? [y/N]'), 'the question');
    await r.submit('n');
    expect(r.err()).toContain('Nothing was cleared.');
    expect(r.chat.messages).toHaveLength(3);
    await r.type('/reset', '\r');
    await until(() => r.err().split('Clear the conversation').length === 3, 'the second question');
    await r.submit('y');
    expect(r.chat.messages).toHaveLength(1);
    await r.submit('/undo');
    expect(r.err()).toContain('Nothing to undo.');
    await r.type('\x04');
    await r.done;
  });

  it('/usage shows tokens and cost per model; /status shows the settings', async () => {
    const r = await start([
      { text: 'hi', usage: { promptTokens: 1200, completionTokens: 300, totalTokens: 1500 } },
    ]);
    await r.submit('hello');
    const mark = r.err().length;
    await r.submit('/usage');
    // The sessions module may provide a richer /usage; either way it names the model, tokens and cost.
    expect(r.err().slice(mark)).toMatch(/glm-5[^\n]*1\.5k|glm-5[^\n]*1\.2k/);
    expect(r.err().slice(mark)).toMatch(/¥0\.01/);
    await r.submit('/status');
    expect(r.err()).toMatch(/Model:\s+glm-5/);
    expect(r.err()).toMatch(/Conversation:\s+2 messages/);
    await r.type('\x04');
    await r.done;
    expect(r.err()).toContain('Session: 1.5k tokens (1.2k in, 300 out) · ≈¥0.01');
    expect(r.err()).toMatch(/Session usage:\s+1\.5k tokens/);
  });
});

describe('one context figure (issue 44 point 13)', () => {
  it('/usage, /status and the status line show the same share of the context window', async () => {
    const r = await start([
      { text: 'hi', usage: { promptTokens: 24_000, completionTokens: 300, totalTokens: 24_300 } },
    ]);
    await r.submit(`hello ${'请把这份报告读一遍。'.repeat(600)}`);
    const mark = r.err().length;
    await r.submit('/usage');
    await r.submit('/status');
    // The prompt can be drawn again before /status has printed: wait for its last line.
    await until(() => r.err().slice(mark).includes('Allowed this session'), '/status');
    const out = r.err().slice(mark);
    const [, tokens, usage] = /context ([\d.]+k) of \S+ tokens \((\d+)%\)/.exec(out) ?? [];
    const status = /context about ([\d.]+k) tokens \((\d+)% of the window\)/.exec(out)?.slice(1).join(' ');
    const line = /context (\d+)%/.exec(
      statusText(r.chat, { model: 'glm-5', mode: 'approve', currency: 'CNY' }),
    )?.[1];
    expect(Number(usage)).toBeGreaterThan(0);
    expect([status, line]).toEqual([`${tokens} ${usage}`, usage]);
    await r.type('\x04');
    await r.done;
  });
});

describe('REPL messages', () => {
  it('renders the answer as Markdown on stdout and closes with a done line', async () => {
    const r = await start([
      { text: '# 标题\n\n| 名称 | 数量 |\n|---|---|\n| 苹果 | 3 |\n', reasoning: '想一想' },
    ]);
    await r.submit('给我一个表格');
    expect(r.out()).toContain('# 标题');
    expect(r.out()).toMatch(/\| 名称 \| 数量 \|\n\| -+ \| -+ \|\n\| 苹果 \| 3 +\|/);
    expect(r.err()).toMatch(/\[DONE\] Done: 15 tokens · ≈¥0\.\d+ · \d+\.\ds/);
    expect(r.out()).not.toContain('\x1b[');
    expect(r.err()).toMatch(/\n\[DONE\] [^\x1b\n]*\n/);
    await r.type('\x04');
    await r.done;
  });

  it('writes the plain answer when stdout is not a terminal', async () => {
    const r = await start([{ text: '**bold** answer' }], { stdoutTTY: false });
    await r.submit('hi');
    expect(r.out()).toBe('**bold** answer\n');
    await r.type('\x04');
    await r.done;
  });

  it('Ctrl+C stops a run at once and keeps the partial answer in the conversation', async () => {
    const slow: Turn = async function* (req) {
      yield { type: 'text_delta', text: '部分回答' } satisfies StreamEvent;
      await new Promise<void>((resolve) =>
        req.signal?.addEventListener('abort', () => resolve(), { once: true }),
      );
      yield {
        type: 'error',
        error: { kind: 'aborted', message: 'aborted', retryable: false },
        partial: { role: 'assistant', content: '部分回答' },
      } satisfies StreamEvent;
    };
    const r = await start([slow, { text: 'ok' }]);
    await r.type('讲个长故事', '\r');
    await until(() => r.out().includes('部分回答') || r.llm.requests.length === 1, 'the run to start');
    await r.type('\x03');
    await until(() => r.err().includes('Interrupted.'), 'the interruption');
    await r.submit('继续');
    const last = r.llm.requests[1]!.messages;
    expect(last.slice(-3)).toEqual([
      { role: 'user', content: '讲个长故事' },
      { role: 'assistant', content: '部分回答' },
      { role: 'user', content: '继续' },
    ]);
    await r.type('\x04');
    await r.done;
  });

  it('asks before a risky tool, showing the call; y runs it, n does not', async () => {
    const r = await start([
      { calls: [{ name: 'make_note', args: { text: '第一条' } }] },
      { text: 'done one' },
      { calls: [{ name: 'make_note', args: { text: '第二条' } }] },
      { text: 'done two' },
    ]);
    notes.length = 0;
    await r.type('note one', '\r');
    await until(() => r.err().includes('Allow? [y/N]'), 'the permission question');
    expect(r.err()).toContain('zhi wants to run make_note');
    expect(r.err()).toContain('"text": "第一条"');
    await r.submit('y');
    await until(() => r.err().includes('done one') || r.out().includes('done one'), 'the answer');
    expect(notes).toEqual(['第一条']);
    await r.type('note two', '\r');
    await until(() => r.err().split('Allow? [y/N]').length === 3, 'the second question');
    await r.submit('n');
    await until(() => r.out().includes('done two'), 'the second answer');
    expect(notes).toEqual(['第一条']);
    expect(r.err()).toContain('Not run (make_note): you said no.');
    await r.type('\x04');
    await r.done;
  });

  it('attaches a file named in the message and tells the user', async () => {
    writeFileSync(join(dir, 'notes.txt'), '会议纪要：下周交付。');
    const r = await start([{ text: '下周交付。' }]);
    await r.submit('notes.txt 说了什么？');
    expect(r.err()).toMatch(/\[FILE\] Attached notes\.txt \(text, \d+ B\)/);
    const content = r.llm.requests[0]!.messages.at(-1)!.content as string;
    expect(content).toContain('notes.txt 说了什么？');
    expect(unwrap(content)).toContain(
      `<document name="notes.txt" path="${join(dir, 'notes.txt')}">\n会议纪要：下周交付。\n</document>`,
    );
    await r.type('\x04');
    await r.done;
  });

  it('a message none of whose files could be attached is not sent: back on the prompt, Enter sends it as it is (issue 44 point 14)', async () => {
    writeFileSync(join(dir, 'empty.md'), '  \n');
    writeFileSync(join(dir, 'blob.txt'), Buffer.from([0, 1, 2, 0, 255, 0, 3]));
    const r = await start([{ text: 'ok' }]);
    await r.submit('summarize empty.md and blob.txt');
    expect(r.llm.requests).toHaveLength(0);
    expect(r.err()).toContain('empty.md is empty: it was not attached.');
    expect(r.err()).toContain('Not sent: none of the files it names could be attached');
    // The draft is back: Enter alone sends it, as it is.
    const mark = r.err().length;
    await r.submit('');
    expect(r.llm.requests).toHaveLength(1);
    expect(r.llm.requests[0]!.messages.at(-1)!.content).toBe('summarize empty.md and blob.txt');
    expect(r.err().slice(mark)).not.toContain('Not sent');
    await r.type('\x04');
    await r.done;
  });

  it('keeps files dropped on their own for the next message', async () => {
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'docs', 'a.md'), 'AAA');
    const r = await start([{ text: 'ok' }]);
    await r.submit('docs/a.md');
    expect(r.llm.requests).toHaveLength(0);
    expect(r.err()).toContain('Your next message will include it.');
    await r.submit('summarize it');
    expect(r.llm.requests[0]!.messages.at(-1)!.content).toContain('AAA');
    await r.type('\x04');
    await r.done;
  });

  it('Ctrl+C on an empty prompt shows a hint; twice exits', async () => {
    const r = await start([]);
    await r.type('\x03');
    await until(() => r.err().includes('Press Ctrl+C again to exit'), 'the hint');
    await r.type('\x03');
    expect(await r.done).toBe(0);
    expect(r.err()).toContain('Session: no tokens used.');
  });

  it('stores messages and commands in the history file, never secrets', async () => {
    const r = await start([{ text: 'a' }, { text: 'b' }]);
    await r.submit('first message');
    await r.submit('my token=abcdef123');
    await r.submit('/status');
    await r.type('\x04');
    await r.done;
    const again = await History.load(join(dir, 'history'));
    expect(again.entries()).toEqual(['/status', 'first message']);
  });
});

describe('usageSince', () => {
  it('subtracts an earlier snapshot per model', () => {
    const now = new UsageTracker(PLATFORMS.bigmodel);
    const before = new UsageTracker(PLATFORMS.bigmodel);
    const u = {
      promptTokens: 100,
      completionTokens: 10,
      totalTokens: 110,
      cachedTokens: 0,
      reasoningTokens: 0,
    };
    now.add('glm-5', u);
    before.merge(now);
    now.add('glm-5', u);
    now.add('glm-4-flash', u);
    const d = usageSince(before, now);
    expect(d.total().totalTokens).toBe(220);
    expect(d.models().map(([m]) => m)).toEqual(['glm-5', 'glm-4-flash']);
  });
});

describe('usage text', () => {
  it('tabulates usage per model with a total, and the exit line', async () => {
    const { usageTable, sessionUsageLine } = await import('../../src/cli/repl/usage-text.js');
    const usage = new UsageTracker(PLATFORMS.bigmodel);
    expect(usageTable(usage)).toEqual(['No tokens used yet in this session.']);
    usage.add('glm-5', {
      promptTokens: 1200,
      completionTokens: 300,
      totalTokens: 1500,
      cachedTokens: 200,
      reasoningTokens: 0,
    });
    usage.add('glm-4-flash', {
      promptTokens: 50,
      completionTokens: 5,
      totalTokens: 55,
      cachedTokens: 0,
      reasoningTokens: 0,
    });
    const lines = usageTable(usage);
    expect(lines[0]).toMatch(/^model\s+calls\s+input\s+cached\s+output\s+cost$/);
    expect(lines[1]).toMatch(/^glm-5\s+1\s+1\.2k\s+200\s+300\s+¥0\.0096$/);
    expect(lines[2]).toMatch(/^glm-4-flash\s+1\s+50\s+0\s+5\s+¥0\.00$/);
    expect(lines[3]).toMatch(/^total\s+2\s+1\.3k\s+200\s+305\s+¥0\.0096$/);
    expect(sessionUsageLine(usage)).toBe('Session: 1.6k tokens (1.3k in, 305 out) · ≈¥0.0096');
  });
});

describe('REPL commands that take time', () => {
  it('Ctrl+C during a command reaches it through the one interrupt (how /run stops)', async () => {
    const r = await start([]);
    let stopped = false;
    let running = false;
    const slow = {
      name: 'slow',
      description: 'repl.cmd.help' as const,
      async run(_args: string, ctx: SlashContext) {
        await ctx.app.interrupt.run(
          (signal) =>
            new Promise<void>((resolve) => {
              running = true;
              signal.addEventListener('abort', () => {
                stopped = true;
                resolve();
              });
            }),
        );
      },
    };
    // Registered like any module's command: through the context's command list.
    (await r.repl.slashContext()).commands;
    (r.repl as unknown as { commands: unknown[] }).commands.push(slow);
    (r.repl as unknown as { commandNames: Set<string> }).commandNames.add('slow');
    await r.type('/slow', '\r');
    await until(() => running, 'the command to start');
    await r.type('\x03');
    await until(() => stopped, 'the command to stop');
    await r.type('\x04');
    await r.done;
  });
});
