import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatSession } from '../../src/agent/chat.js';
import { newConversation } from '../../src/agent/conversation.js';
import { emptyResult, type RunConsumer } from '../../src/agent/events.js';
import { sessionMarkdown } from '../../src/agent/sessions/export.js';
import { type SessionHeader, serialiseLine } from '../../src/agent/sessions/format.js';
import {
  findSession,
  latestSession,
  listSessions,
  summariseSession,
} from '../../src/agent/sessions/listing.js';
import { openSession } from '../../src/agent/sessions/recorder.js';
import {
  INTERRUPTED_TOOL_RESULT,
  loadSession,
  repairToolCalls,
  replaySession,
  titleFrom,
} from '../../src/agent/sessions/store.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import type { Message } from '../../src/llm/types.js';
import { UsageTracker } from '../../src/llm/usage.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { AnyTool } from '../../src/tools/types.js';
import { ScriptedLlm, type Turn } from '../helpers/fake-llm.js';
import { openTestSession } from '../helpers/session.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('zhi-sessions-');
});
afterEach(() => cleanup(dir));

const header = (over: Partial<SessionHeader> = {}): SessionHeader => ({
  type: 'session',
  v: 1,
  id: '20260314-153045-a1b2',
  created: '2026-03-14T07:30:45.000Z',
  cwd: '/work/docs',
  model: 'glm-5',
  kind: 'repl',
  platform: 'bigmodel',
  currency: 'CNY',
  zhi: 'test',
  ...over,
});

const msg = (m: Message) =>
  serialiseLine({ type: 'message', role: m.role, t: '2026-03-14T07:31:00.000Z', message: m });

const read: AnyTool = {
  name: 'file_read',
  description: 'read',
  kind: 'read',
  schema: z.object({ path: z.string() }),
  execute: async (a: { path: string }) => `contents of ${a.path}`,
};

/** A chat whose events go to whatever the test puts in `consumers` (a recorder opened later). */
function chatWith(turns: Turn[]) {
  const llm = new ScriptedLlm(turns);
  const usage = new UsageTracker(PLATFORMS.bigmodel);
  const consumers: RunConsumer[] = [];
  const chat = new ChatSession(
    {
      llm,
      tools: new ToolRegistry([read]),
      prompter: { interactive: false, confirmTool: async () => false, ask: async () => false },
      usage,
      cwd: dir,
      outputDir: join(dir, 'out'),
    },
    newConversation({
      model: 'glm-5',
      thinking: true,
      mode: 'approve',
      maxTurns: 10,
      systemPrompt: 'SYSTEM',
    }),
    {
      consumers: [
        (ev) => {
          for (const c of consumers) c(ev);
        },
      ],
    },
  );
  return { chat, llm, usage, consumers };
}

async function drain(chat: ChatSession, text: string) {
  const gen = chat.send(text);
  let step = await gen.next();
  while (!step.done) step = await gen.next();
  return step.value;
}

describe('replaySession', () => {
  it('a !command as the last thing done is no unfinished answer, and is previewed as typed', () => {
    const note =
      '{"type":"message","role":"user","t":"2026-03-14T07:32:00.000Z","typed":"!ls nosuch","note":true,' +
      '"message":{"role":"user","content":"I ran this command in my shell myself (no tool call was involved):\\n$ ls nosuch"}}\n';
    const s = replaySession(
      serialiseLine(header()) +
        msg({ role: 'user', content: 'hi' }) +
        msg({ role: 'assistant', content: 'Hello.' }) +
        note,
    )!;
    expect(s.unfinished).toBe(false);
    expect(s.lastTyped).toBe('!ls nosuch');
    expect(s.turns).toBe(1);
    // A message after it is an ordinary turn again.
    const after = replaySession(
      serialiseLine(header()) + note + msg({ role: 'user', content: 'why did it fail?' }),
    )!;
    expect(after.unfinished).toBe(true);
    expect(after.lastTyped).toBeUndefined();
    expect(after.title).toBe('!ls nosuch');
  });

  it('skips a half-written last line with a warning and keeps everything before it', () => {
    const text =
      serialiseLine(header()) +
      msg({ role: 'user', content: '翻译第一章' }) +
      msg({ role: 'assistant', content: '好的。' }) +
      '{"type":"message","role":"user","t":"2026-03-14T07:32:00.000Z","message":{"role":"user","content":"第二';
    const s = replaySession(text)!;
    expect(s.messages).toEqual([
      { role: 'user', content: '翻译第一章' },
      { role: 'assistant', content: '好的。' },
    ]);
    expect(s.warnings).toEqual([{ line: 4, last: true }]);
    expect(s.turns).toBe(1);
  });

  it('skips a damaged line in the middle without losing the lines after it', () => {
    const text =
      serialiseLine(header()) +
      msg({ role: 'user', content: 'a' }) +
      'garbage{\n' +
      msg({ role: 'assistant', content: 'b' });
    const s = replaySession(text)!;
    expect(s.messages.map((m) => m.content)).toEqual(['a', 'b']);
    expect(s.warnings).toEqual([{ line: 3, last: false }]);
  });

  it('is undefined for a file without a header', () => {
    expect(replaySession(msg({ role: 'user', content: 'x' }))).toBeUndefined();
    expect(replaySession('')).toBeUndefined();
  });

  it('rebuilds the context through compaction, truncate and context snapshots', () => {
    const summary: Message = {
      role: 'user',
      content: '[Summary of the earlier part of this conversation] S',
    };
    const text =
      serialiseLine(header()) +
      msg({ role: 'user', content: 'u1' }) +
      msg({ role: 'assistant', content: 'a1' }) +
      msg({ role: 'user', content: 'u2' }) +
      msg({ role: 'assistant', content: 'a2' }) +
      serialiseLine({
        type: 'compaction',
        t: 'x',
        reason: 'auto',
        inserted: [summary, { role: 'assistant', content: 'ok' }],
        kept: 2,
        replaced: 2,
        tokensBefore: 100,
        tokensAfter: 10,
        model: 'glm-5',
      }) +
      msg({ role: 'user', content: 'u3' }) +
      msg({ role: 'assistant', content: 'a3' }) +
      serialiseLine({ type: 'truncate', t: 'x', keep: 4 }) +
      msg({ role: 'user', content: 'u4' });
    const s = replaySession(text)!;
    expect(s.messages.map((m) => m.content)).toEqual([summary.content, 'ok', 'u2', 'a2', 'u4']);
    expect(s.turns).toBe(4);
    expect(s.compactions).toBe(1);
    expect(s.unfinished).toBe(true);
    expect(s.title).toBe('u1');
  });

  it('marks the last exchange finished only after an end line', () => {
    const base =
      serialiseLine(header()) +
      msg({ role: 'user', content: 'q' }) +
      msg({ role: 'assistant', content: 'a' });
    expect(replaySession(base)!.unfinished).toBe(true);
    const ended = base + serialiseLine({ type: 'end', t: 'x', stopReason: 'answer', turns: 1, toolCalls: 0 });
    expect(replaySession(ended)!.unfinished).toBe(false);
  });
});

describe('repairToolCalls', () => {
  it('gives every unanswered tool call a placeholder result, right after its group', () => {
    const messages: Message[] = [
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'file_read', arguments: '{}' } },
          { id: 'c2', type: 'function', function: { name: 'file_read', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'r1' },
    ];
    expect(repairToolCalls(messages)).toBe(1);
    expect(messages[3]).toEqual({ role: 'tool', tool_call_id: 'c2', content: INTERRUPTED_TOOL_RESULT });
    expect(repairToolCalls(messages)).toBe(0);
  });
});

describe('titles', () => {
  it('cuts by characters, never inside a Chinese character or an emoji, and drops an attached document', () => {
    const long = '请把这份合同的第三章翻译成英文，并列出所有付款条款和违约责任'.repeat(4);
    const title = titleFrom(long);
    expect([...title].length).toBe(80);
    expect(title.endsWith('…')).toBe(true);
    expect(Buffer.from(title, 'utf8').toString('utf8')).toBe(title);
    expect(titleFrom('总结\n\n<document name="stdin">\n很长的文档\n</document>')).toBe('总结');
    expect(titleFrom(`${'👍🏽'.repeat(100)}`)).toBe(`${'👍🏽'.repeat(79)}…`);
  });
});

describe('recording a ChatSession', () => {
  it('round-trips a conversation with tool calls, usage and /undo', async () => {
    const { chat, usage, consumers } = chatWith([
      { calls: [{ name: 'file_read', args: { path: 'a.md' } }] },
      { text: '读完了。', usage: { promptTokens: 100, completionTokens: 20, totalTokens: 120 } },
      { text: 'second' },
      { text: 'third' },
    ]);
    const rec = openSession({
      kind: 'repl',
      sessionsDir: dir,
      ledgerFile: join(dir, 'usage.jsonl'),
      cwd: '/work/docs',
      model: 'glm-5',
      platform: PLATFORMS.bigmodel,
      systemPrompt: 'SYSTEM',
    });
    consumers.push(rec.consume);
    rec.attach(chat.messages);
    expect(rec.started).toBe(false);
    await drain(chat, '读一下 a.md');
    await drain(chat, 'two');
    chat.undo();
    await drain(chat, 'three');
    // A call made outside the loop (OCR of an attached file, say) is recorded from its usage event.
    const ocr = {
      promptTokens: 10,
      completionTokens: 5,
      totalTokens: 15,
      cachedTokens: 0,
      reasoningTokens: 0,
    };
    chat.consume({ type: 'usage', model: 'glm-ocr', usage: ocr, cost: usage.add('glm-ocr', ocr) });
    rec.close();
    usage.add('glm-5', {
      promptTokens: 1,
      completionTokens: 1,
      totalTokens: 2,
      cachedTokens: 0,
      reasoningTokens: 0,
    });

    const loaded = (await loadSession(rec.file))!;
    expect(loaded.messages).toEqual(chat.messages.slice(1));
    expect(loaded.title).toBe('读一下 a.md');
    expect(loaded.turns).toBe(3);
    expect(loaded.unfinished).toBe(false);
    expect(loaded.byModel.map(([m, u]) => [m, u.calls])).toEqual([
      ['glm-5', 4],
      ['glm-ocr', 1],
    ]);
    const ledger = readFileSync(join(dir, 'usage.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(ledger).toHaveLength(5);
    expect(ledger[4]).toMatchObject({ model: 'glm-ocr', total: 15 });
    expect(ledger[1]).toMatchObject({
      session: rec.id,
      kind: 'chat',
      model: 'glm-5',
      prompt: 100,
      completion: 20,
      total: 120,
    });
    // The listing's quick scan agrees with a full replay.
    const quick = summariseSession(readFileSync(rec.file, 'utf8'))!;
    expect([quick.turns, quick.title, quick.cost, quick.tokens]).toEqual([
      loaded.turns,
      loaded.title,
      loaded.cost,
      loaded.tokens,
    ]);
    const md = sessionMarkdown(loaded);
    expect(md).toContain('# 读一下 a.md');
    expect(md).toContain('`file_read`');
    expect(md).toContain('读完了。');
  });

  it('takes the title from what the person typed, never from text worded for the model (/run, !command)', async () => {
    const titleOf = async (first: (chat: ChatSession) => void): Promise<string | undefined> => {
      const { chat, consumers } = chatWith([]);
      const rec = openTestSession(dir);
      consumers.push(rec.consume);
      rec.attach(chat.messages);
      first(chat);
      rec.close();
      return (await loadSession(rec.file))!.title;
    };
    const ran = await titleOf((chat) => {
      const asked = {
        role: 'user' as const,
        content: '(I ran the skill "summarize": /run summarize notes.txt)',
      };
      chat.messages.push(asked);
      chat.consume({ type: 'user', message: asked, typed: '/run summarize notes.txt' });
    });
    expect(ran).toBe('/run summarize notes.txt');
    const bang = await titleOf((chat) =>
      chat.note({ role: 'user', content: 'I ran this command in my shell myself:\n$ ls\n\na.md' }, '!ls'),
    );
    expect(bang).toBe('!ls');
  });

  it('moves to a new session after /reset; the old one stays as it was', async () => {
    const { chat, consumers } = chatWith([{ text: 'a1' }, { text: 'a2' }]);
    const rec = openTestSession(dir);
    consumers.push(rec.consume);
    rec.attach(chat.messages);
    await drain(chat, 'first topic');
    const first = rec.id;
    chat.settings.model = 'glm-4.7';
    chat.reset();
    await drain(chat, 'second topic');
    rec.close();
    expect(rec.id).not.toBe(first);
    const old = (await findSession(dir, first)) as { found: { file: string } };
    expect((await loadSession(old.found.file))!.messages.map((m) => m.content)).toEqual([
      'first topic',
      'a1',
    ]);
    const now = (await loadSession(rec.file))!;
    expect(now).toMatchObject({ title: 'second topic', model: 'glm-4.7', turns: 1 });
    expect(now.messages.map((m) => m.content)).toEqual(['second topic', 'a2']);
  });

  it('continues a resumed session in the same file, starting a fresh line after a torn one', async () => {
    const file = join(dir, '20260314-153045-a1b2.jsonl');
    writeFileSync(file, serialiseLine(header()) + msg({ role: 'user', content: 'first' }) + '{"type":"mess');
    const loaded = (await loadSession(file))!;
    const { chat, llm, consumers } = chatWith([{ text: 'answer' }]);
    chat.messages.push(...loaded.messages);
    const rec = openSession({
      kind: 'oneshot',
      sessionsDir: dir,
      cwd: '/work/docs',
      model: 'glm-5',
      platform: PLATFORMS.bigmodel,
      resume: loaded,
    });
    consumers.push(rec.consume);
    rec.attach(chat.messages);
    await drain(chat, 'second');
    rec.close();
    expect(llm.requests[0]!.messages.map((m) => m.content)).toEqual(['SYSTEM', 'first', 'second']);
    const again = (await loadSession(file))!;
    expect(again.messages.map((m) => m.content)).toEqual(['first', 'second', 'answer']);
    expect(again.warnings).toEqual([{ line: 3, last: false }]);
    expect(rec.id).toBe('20260314-153045-a1b2');
  });

  it('keeps the file in step with the conversation after a resume that repaired a tool call', async () => {
    const file = join(dir, '20260314-153045-a1b2.jsonl');
    const tc: Message = {
      role: 'assistant',
      content: '',
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'file_read', arguments: '{"path":"a"}' } },
      ],
    };
    writeFileSync(file, serialiseLine(header()) + msg({ role: 'user', content: 'u1' }) + msg(tc));
    const loaded = (await loadSession(file))!;
    expect(loaded.repaired).toBe(1);
    const { chat, consumers } = chatWith([{ text: 'a2' }, { text: 'a3' }]);
    chat.messages.push(...loaded.messages);
    const rec = openTestSession(dir, { resume: loaded });
    consumers.push(rec.consume);
    rec.attach(chat.messages);
    await drain(chat, 'u2');
    chat.undo();
    await drain(chat, 'u3');
    rec.close();
    const again = (await loadSession(file))!;
    expect(again.messages).toEqual(chat.messages.slice(1));
    expect(again.messages.map((m) => m.content)).toEqual(['u1', '', INTERRUPTED_TOOL_RESULT, 'u3', 'a3']);
  });

  it('stops quietly and reports once when the folder cannot be written', async () => {
    const blocker = join(dir, 'not-a-dir');
    writeFileSync(blocker, 'x');
    const errors: unknown[] = [];
    const { chat, consumers } = chatWith([{ text: 'a' }, { text: 'b' }]);
    const rec = openTestSession(dir, {
      sessionsDir: join(blocker, 'sessions'),
      onError: (e) => errors.push(e),
    });
    consumers.push(rec.consume);
    await drain(chat, 'one');
    await drain(chat, 'two');
    expect(errors).toHaveLength(1);
    expect(chat.messages).toHaveLength(5);
  });

  it('spills a large tool result to the session folder and returns a pointer plus the head', async () => {
    const rec = openTestSession(dir);
    const big = `${'甲'.repeat(30_000)}END`;
    const out = (await rec.spill(
      { id: 'call_1', type: 'function', function: { name: 'file_read', arguments: '{}' } },
      big,
    ))!;
    const path = /saved to (\S+) /.exec(out)![1]!;
    expect(readFileSync(path, 'utf8')).toBe(big);
    expect(path.startsWith(join(dir, rec.id))).toBe(true);
    expect(Buffer.byteLength(out)).toBeLessThan(50 * 1024);
    expect(out).not.toContain('END');
  });
});

describe('finding sessions', () => {
  function write(id: string, cwd: string, text: string, kind: SessionHeader['kind'] = 'repl') {
    writeFileSync(
      join(dir, `${id}.jsonl`),
      serialiseLine(header({ id, cwd, kind })) + msg({ role: 'user', content: text }),
    );
  }

  it('finds by id, prefix or a unique part, and reports ambiguity', async () => {
    write('20260301-100000-aaaa', '/a', 'x');
    write('20260301-110000-bbbb', '/a', 'y');
    write('20260302-090000-cccc', '/b', 'z');
    expect(await findSession(dir, '20260301-110000-bbbb')).toMatchObject({
      found: { id: '20260301-110000-bbbb' },
    });
    expect(await findSession(dir, 'cccc')).toMatchObject({ found: { id: '20260302-090000-cccc' } });
    expect(await findSession(dir, '20260302')).toMatchObject({ found: { id: '20260302-090000-cccc' } });
    const amb = await findSession(dir, '20260301');
    expect('ambiguous' in amb && amb.ambiguous.map((s) => s.id).sort()).toEqual([
      '20260301-100000-aaaa',
      '20260301-110000-bbbb',
    ]);
    expect(await findSession(dir, 'zzzz')).toEqual({ none: true });
  });

  it('searches message text in Chinese and full-width forms, and picks the latest conversation of a folder', async () => {
    write('20260301-100000-aaaa', '/a', '合同审查：付款条款');
    write('20260301-110000-bbbb', '/a', 'ＡＢＣ report');
    write('20260302-090000-cccc', '/b', '翻译');
    write('20260303-090000-dddd', '/a', 'skill run', 'run');
    appendFileSync(
      join(dir, '20260301-110000-bbbb.jsonl'),
      msg({ role: 'assistant', content: '已完成付款计划' }),
    );
    expect((await listSessions(dir, { query: '付款' })).map((s) => s.id).sort()).toEqual([
      '20260301-100000-aaaa',
      '20260301-110000-bbbb',
    ]);
    expect((await listSessions(dir, { query: 'abc' })).map((s) => s.id)).toEqual(['20260301-110000-bbbb']);
    // bbbb was written last (appended to): it is the latest conversation in /a; the skill run is not one.
    expect((await latestSession(dir, '/a'))?.id).toBe('20260301-110000-bbbb');
    expect(await latestSession(dir, '/nowhere')).toBeUndefined();
  });
});

describe('a stopped run is saved just after, not before, the prompt comes back', () => {
  const recorder = () =>
    openSession({
      kind: 'repl',
      sessionsDir: dir,
      cwd: '/work/docs',
      model: 'glm-5',
      platform: PLATFORMS.bigmodel,
      systemPrompt: 'SYSTEM',
    });
  const types = (file: string) =>
    readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).type as string);
  const partial: Message = { role: 'assistant', content: '半个回答' };

  it('holds the lines until the next turn of the event loop, then writes them in order', async () => {
    const rec = recorder();
    rec.consume({ type: 'user', message: { role: 'user', content: '讲个故事' } });
    rec.deferWrites();
    rec.consume({ type: 'message', message: partial });
    rec.consume({ type: 'done', result: emptyResult('aborted') });
    expect(types(rec.file)).toEqual(['session', 'system', 'message', 'title']);
    await new Promise((r) => setImmediate(r));
    expect(types(rec.file)).toEqual(['session', 'system', 'message', 'title', 'message', 'end']);
    rec.close();
  });

  it('writes what it holds at once when the session closes first', () => {
    const rec = recorder();
    rec.consume({ type: 'user', message: { role: 'user', content: '讲个故事' } });
    rec.deferWrites();
    rec.consume({ type: 'message', message: partial });
    rec.close();
    expect(types(rec.file)).toEqual(['session', 'system', 'message', 'title', 'message']);
  });
});
