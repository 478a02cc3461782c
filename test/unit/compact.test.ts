import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RunBudget } from '../../src/agent/budget.js';
import { ChatSession } from '../../src/agent/chat.js';
import { Compactor } from '../../src/agent/compact.js';
import {
  filesTouched,
  findCut,
  isSummary,
  SUMMARY_ACK,
  shortenToolResults,
  summaryMessages,
} from '../../src/agent/compact-split.js';
import { newConversation } from '../../src/agent/conversation.js';
import type { RunEvent } from '../../src/agent/events.js';
import type { AgentDeps } from '../../src/agent/loop.js';
import { estimateMessageTokens, estimateTextTokens, TextTally } from '../../src/agent/tokens.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import type { ChatRequest, Message, ToolCall } from '../../src/llm/types.js';
import { UsageTracker } from '../../src/llm/usage.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { AnyTool } from '../../src/tools/types.js';
import { ScriptedLlm, type Turn } from '../helpers/fake-llm.js';

const call = (id: string, name = 'file_read', args: unknown = { path: `${id}.md` }): ToolCall => ({
  id,
  type: 'function',
  function: { name, arguments: JSON.stringify(args) },
});

/** system, then `turns` turns of: user, assistant(tool call), tool, assistant answer. */
function conversation(turns: number, size = 100): Message[] {
  const m: Message[] = [{ role: 'system', content: 'sys' }];
  for (let i = 1; i <= turns; i++) {
    m.push({ role: 'user', content: `question ${i} ${'x'.repeat(size)}` });
    m.push({ role: 'assistant', content: '', tool_calls: [call(`c${i}`)] });
    m.push({ role: 'tool', tool_call_id: `c${i}`, content: `result ${i} ${'y'.repeat(size)}` });
    m.push({ role: 'assistant', content: `answer ${i}` });
  }
  return m;
}

/** Every tool result in `tail` has its call in `tail`, and every call its results. */
function pairedInTail(messages: Message[], cut: number): boolean {
  const tail = messages.slice(cut);
  const calls = new Set(
    tail.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : [])),
  );
  const results = new Set(tail.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : [])));
  return [...results].every((r) => calls.has(r)) && [...calls].every((c) => results.has(c));
}

describe('token estimate', () => {
  it('counts CJK about one per character and Latin about four characters per token', () => {
    expect(estimateTextTokens('')).toBe(0);
    expect(estimateTextTokens('abcd'.repeat(25))).toBe(25);
    expect(estimateTextTokens('合同审查'.repeat(25))).toBe(100);
    expect(estimateTextTokens('ＡＢＣ、。')).toBe(5);
    expect(estimateTextTokens('héllo wörld')).toBe(Math.ceil(9 / 4 + 2 / 2));
    // A mixed sentence lands between the two.
    const mixed = estimateTextTokens('Please 翻译 this 合同 into English');
    expect(mixed).toBeGreaterThan(7);
    expect(mixed).toBeLessThan(15);
  });

  it('counts a character beyond the BMP once (extension B Han as CJK, an emoji as other)', () => {
    expect(estimateTextTokens('𠀀𠀁')).toBe(2);
    expect(estimateTextTokens('😀😀')).toBe(1);
    // A lone surrogate is one other character, as before.
    expect(estimateTextTokens('\ud83d\ud83d')).toBe(1);
  });

  it('weighs a text that arrives in pieces as it would the whole text', () => {
    const text = 'Please 翻译 this 合同 into English, héllo 😀 𠀀 ＡＢＣ。'.repeat(40);
    const tally = new TextTally();
    for (let i = 0; i < text.length; i += 7) tally.add(text.slice(i, i + 7));
    expect(tally.length).toBe(text.length);
    // A character split between two pieces counts a little high, never low.
    expect(tally.tokens).toBeGreaterThanOrEqual(estimateTextTokens(text));
    expect(tally.tokens).toBeLessThanOrEqual(estimateTextTokens(text) + 40);
    const whole = new TextTally();
    whole.add(text);
    expect(whole.tokens).toBe(estimateTextTokens(text));
  });

  it('counts tool calls, reasoning and images', () => {
    const plain = estimateMessageTokens({ role: 'assistant', content: 'ok' });
    const withCall = estimateMessageTokens({ role: 'assistant', content: 'ok', tool_calls: [call('c1')] });
    expect(withCall).toBeGreaterThan(plain + 8);
    expect(
      estimateMessageTokens({ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:x' } }] }),
    ).toBeGreaterThanOrEqual(1500);
  });
});

describe('findCut', () => {
  it('never separates a tool call from its result, whatever the budget', () => {
    const m = conversation(6);
    for (let keep = 0; keep < 2000; keep += 7) {
      const cut = findCut(m, keep)!;
      expect(m[cut]!.role).not.toBe('tool');
      expect(pairedInTail(m, cut)).toBe(true);
      expect(cut).toBeGreaterThanOrEqual(2);
    }
  });

  it('keeps as many whole recent turns as fit', () => {
    const m = conversation(6);
    const perTurn = m.slice(1, 5).reduce((n, x) => n + estimateMessageTokens(x), 0);
    const cut = findCut(m, perTurn * 2 + 5)!;
    expect(m[cut]).toMatchObject({ role: 'user', content: expect.stringContaining('question 5') });
  });

  it('cuts inside the last turn at an assistant step when the turn alone is too big', () => {
    const m = conversation(1, 10);
    m.push({ role: 'assistant', content: '', tool_calls: [call('d1'), call('d2')] });
    m.push({ role: 'tool', tool_call_id: 'd1', content: 'z'.repeat(4000) });
    m.push({ role: 'tool', tool_call_id: 'd2', content: 'z'.repeat(4000) });
    const cut = findCut(m, 10)!;
    expect(m[cut]!.role).toBe('assistant');
    expect(cut).toBe(m.length - 3);
  });

  it('keeps only the last turn for /compact, and has nothing to do with one exchange', () => {
    const m = conversation(3);
    expect(findCut(m, 1e9, 'manual')).toBe(9);
    expect(
      findCut(
        [
          { role: 'system', content: 's' },
          { role: 'user', content: 'hi' },
        ],
        0,
        'manual',
      ),
    ).toBeUndefined();
  });

  it('does not re-summarise a lone earlier summary', () => {
    const m: Message[] = [
      { role: 'system', content: 's' },
      { role: 'user', content: '[Summary of the earlier part of this conversation (3 messages)…] S' },
      { role: 'assistant', content: SUMMARY_ACK },
      { role: 'user', content: 'now' },
    ];
    expect(findCut(m, 0)).toBeUndefined();
  });
});

describe('summary messages', () => {
  it('adds an acknowledgement before a tail that starts with a user message', () => {
    const m = conversation(2);
    const out = summaryMessages({
      summary: '## Goal\nG',
      replaced: 4,
      head: m.slice(1, 5),
      tail: m.slice(5),
    });
    expect(out).toHaveLength(2);
    expect(isSummary(out[0])).toBe(true);
    expect(out[0]!.content).toContain('Read: c1.md');
    expect(out[1]).toEqual({ role: 'assistant', content: SUMMARY_ACK });
  });

  it('carries the current request word for word when the cut falls inside it', () => {
    const m = conversation(1);
    const out = summaryMessages({ summary: 'S', replaced: 1, head: m.slice(1, 2), tail: m.slice(2) });
    expect(out).toHaveLength(1);
    expect(out[0]!.content).toContain(`question 1 ${'x'.repeat(100)}`);
  });

  it('lists files read and written from the tool calls', () => {
    const m: Message[] = [
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          call('a', 'file_read', { path: '合同.docx' }),
          call('b', 'file_write', { path: 'out.xlsx' }),
        ],
      },
    ];
    expect(filesTouched(m)).toEqual({ read: ['合同.docx'], written: ['out.xlsx'] });
  });

  it('shortens the oldest long tool results first, only as far as needed', () => {
    const m: Message[] = [
      { role: 'tool', tool_call_id: 'a', content: 'a'.repeat(40_000) },
      { role: 'tool', tool_call_id: 'b', content: 'b'.repeat(40_000) },
    ];
    const r = shortenToolResults(m, 12_000);
    expect(r.shortened).toBe(1);
    expect(r.messages[0]!.content).toContain('[shortened later to fit the context window]');
    expect(r.messages[1]).toBe(m[1]);
  });
});

const noop: AnyTool = {
  name: 'file_read',
  description: 'r',
  kind: 'read',
  schema: z.object({ path: z.string() }),
  execute: async () => 'r',
};

/** A chat with a compactor (and, given a limit, a run budget that replaces its check before calls). */
function chatWith(turns: Turn[], threshold = 0.85, model = 'glm-4-flash', budgetLimit?: number) {
  const llm = new ScriptedLlm(turns);
  const usage = new UsageTracker(PLATFORMS.bigmodel);
  let chat: ChatSession | undefined;
  const chatModel = () => chat?.settings.model ?? model;
  const compactions: unknown[] = [];
  const compactor = new Compactor({
    llm,
    usage,
    model: chatModel,
    summaryModel: () => 'glm-4-flash',
    threshold,
    recorder: { recordCompaction: (c) => compactions.push(c) },
  });
  const budget = budgetLimit === undefined ? undefined : new RunBudget(budgetLimit, usage, chatModel);
  const beforeCall: AgentDeps['beforeCall'] = budget
    ? async (m) => {
        const stop = budget.check(m, 100_000);
        return stop ? { stop } : {};
      }
    : compactor.beforeCall;
  chat = new ChatSession(
    {
      llm,
      tools: new ToolRegistry([noop]),
      prompter: { interactive: false, confirmTool: async () => false, ask: async () => false },
      usage,
      cwd: '/tmp',
      outputDir: '/tmp/out',
      beforeCall,
      onContextOverflow: compactor.onContextOverflow,
    },
    newConversation({ model, thinking: true, mode: 'approve', maxTurns: 10, systemPrompt: 'SYSTEM' }),
    { consumers: [compactor.consume, ...(budget ? [budget.consume] : [])] },
  );
  return { chat, llm, usage, compactor, compactions };
}

async function drain(chat: ChatSession, text: string) {
  const events: RunEvent[] = [];
  const gen = chat.send(text);
  let step = await gen.next();
  while (!step.done) {
    events.push(step.value);
    step = await gen.next();
  }
  return { result: step.value, events };
}

const isSummaryRequest = (r: ChatRequest) => r.messages[0]?.content.toString().startsWith('You compress');

/** A first message long enough that a summary of it is smaller (a compaction never grows a chat). */
const LONG = '这份报告很长，要仔细看。'.repeat(200);
const U1 = `u1 ${LONG}`;

describe('Compactor', () => {
  it('compacts before a call when the server says the context is near the window, then continues', async () => {
    const { chat, llm, usage, compactor } = chatWith([
      { text: 'a1' },
      { text: 'a2', usage: { promptTokens: 120_000, completionTokens: 10, totalTokens: 120_010 } },
      {
        text: '## Goal\nTranslate the contract',
        usage: { promptTokens: 500, completionTokens: 50, totalTokens: 550 },
      },
      { text: 'a3' },
    ]);
    await drain(chat, U1);
    await drain(chat, 'u2');
    expect(compactor.status(chat.messages)).toMatchObject({ measured: true, window: 128_000 });
    const { events, result } = await drain(chat, 'u3');
    expect(result.text).toBe('a3');
    const summaryReq = llm.requests[2]!;
    expect(isSummaryRequest(summaryReq)).toBe(true);
    expect(summaryReq.model).toBe('glm-4-flash');
    expect(summaryReq.tools).toBeUndefined();
    expect(summaryReq.thinking).toBe(false);
    expect(summaryReq.messages[1]!.content).toContain('u1');
    const sent = llm.requests[3]!.messages;
    expect(sent[0]!.content).toBe('SYSTEM');
    expect(sent[1]!.content).toContain('Translate the contract');
    expect(sent.at(-1)).toEqual({ role: 'user', content: 'u3' });
    expect(sent.map((m) => m.content)).not.toContain(U1);
    expect(events.some((e) => e.type === 'warning' && e.message.includes('summarised'))).toBe(true);
    // The summary call is paid for and counted.
    expect(usage.total().calls).toBe(4);
    expect(compactor.count).toBe(1);
  });

  it('Ctrl+C during the summary call stops the run at once and leaves the conversation whole', async () => {
    const ac = new AbortController();
    const { chat, llm } = chatWith([
      { text: 'a1' },
      { text: 'a2', usage: { promptTokens: 120_000, completionTokens: 10, totalTokens: 120_010 } },
      // The summary call hangs until it is aborted, like a slow model.
      async function* (req) {
        setTimeout(() => ac.abort(), 20);
        await new Promise<void>((resolve) => req.signal?.addEventListener('abort', () => resolve()));
        yield {
          type: 'error',
          error: { kind: 'aborted', message: 'aborted', retryable: false },
          partial: { role: 'assistant', content: '' },
        };
      },
    ]);
    await drain(chat, U1);
    await drain(chat, 'u2');
    const before = structuredClone(chat.messages);
    const gen = chat.send('u3', ac.signal);
    let step = await gen.next();
    while (!step.done) step = await gen.next();
    expect(step.value.stopReason).toBe('aborted');
    expect(isSummaryRequest(llm.requests[2]!)).toBe(true);
    expect(llm.requests).toHaveLength(3); // nothing was sent after the interrupt
    expect(chat.messages).toEqual([...before, { role: 'user', content: 'u3' }]);
  });

  it('does nothing below the threshold', async () => {
    const { chat, llm } = chatWith([{ text: 'a1' }, { text: 'a2' }]);
    await drain(chat, U1);
    await drain(chat, 'u2');
    expect(llm.requests.some(isSummaryRequest)).toBe(false);
  });

  it('on a context overflow compacts once and retries the call', async () => {
    const overflow: Turn = {
      error: {
        type: 'error',
        error: {
          kind: 'context_overflow',
          code: '1261',
          message: 'Prompt exceeds max length',
          retryable: false,
        },
        partial: { role: 'assistant', content: '' },
      },
    };
    const { chat, llm } = chatWith([{ text: 'a1' }, { text: 'a2' }, overflow, { text: 'S' }, { text: 'a3' }]);
    await drain(chat, U1);
    await drain(chat, 'u2');
    const { result, events } = await drain(chat, 'u3');
    expect(result.stopReason).toBe('answer');
    expect(result.text).toBe('a3');
    expect(isSummaryRequest(llm.requests[3]!)).toBe(true);
    expect(llm.requests[4]!.messages.map((m) => m.content)).not.toContain(U1);
    expect(events.filter((e) => e.type === 'warning')).toHaveLength(1);
  });

  it('asks again for an answer the window cut off (model_context_window_exceeded mid-answer)', async () => {
    const cutOff: Turn = async function* () {
      yield { type: 'text_delta', text: 'half an ans' };
      yield {
        type: 'error',
        error: {
          kind: 'context_overflow',
          code: 'model_context_window_exceeded',
          message: 'context window exceeded',
          retryable: false,
        },
        partial: { role: 'assistant', content: 'half an ans' },
      };
    };
    const { chat, llm } = chatWith([
      { text: 'a1' },
      { text: 'a2' },
      cutOff,
      { text: 'S' },
      { text: 'a whole answer' },
    ]);
    await drain(chat, U1);
    await drain(chat, 'u2');
    const { result } = await drain(chat, 'u3');
    expect(result).toMatchObject({ stopReason: 'answer', text: 'a whole answer' });
    const retried = llm.requests[4]!.messages;
    expect(retried.at(-1)).toEqual({ role: 'user', content: 'u3' });
    expect(chat.messages.map((m) => m.content)).not.toContain('half an ans');
  });

  it('fails cleanly (no endless retry) when a second overflow follows', async () => {
    const overflow: Turn = {
      error: {
        type: 'error',
        error: {
          kind: 'context_overflow',
          code: '1261',
          message: 'Prompt exceeds max length',
          retryable: false,
        },
        partial: { role: 'assistant', content: '' },
      },
    };
    const { chat } = chatWith([{ text: 'a1' }, overflow, { text: 'S' }, overflow]);
    await drain(chat, U1);
    const { result } = await drain(chat, 'u2');
    expect(result.stopReason).toBe('error');
    expect(result.error?.kind).toBe('context_overflow');
  });

  it('falls back to an outline when the summary model fails', async () => {
    const down: Turn = {
      error: {
        type: 'error',
        error: { kind: 'server', status: 500, message: 'down', retryable: true },
        partial: { role: 'assistant', content: '' },
      },
    };
    const { chat, compactor } = chatWith([
      { calls: [{ name: 'file_read', args: { path: '报告.pdf' } }] },
      { text: 'a1' },
      { text: 'a2' },
      down,
    ]);
    await drain(chat, `总结报告 ${LONG}`);
    await drain(chat, 'u2');
    const r = await compactor.compact(chat.messages, { reason: 'manual' });
    expect(r.ok).toBe(true);
    expect(r.outline).toBe(true);
    expect(chat.messages[1]!.content).toContain('总结报告');
    expect(chat.messages[1]!.content).toContain('报告.pdf');
    expect(chat.messages.at(-1)).toEqual({ role: 'assistant', content: 'a2' });
  });

  it('passes the /compact focus to the summary model', async () => {
    const { chat, llm, compactor } = chatWith([{ text: 'a1' }, { text: 'a2' }, { text: 'S' }]);
    await drain(chat, 'u1');
    await drain(chat, 'u2');
    await compactor.compact(chat.messages, { reason: 'manual', focus: '付款条款' });
    expect(llm.requests[2]!.messages[0]!.content).toContain('付款条款');
  });
});

describe('a compaction never makes the conversation larger (issues 27, 30)', () => {
  it('/compact on a short chat keeps the original when the summary is not smaller', async () => {
    const long = '这是一段很长的概括。'.repeat(40);
    const { chat, compactor, compactions } = chatWith([{ text: 'a1' }, { text: 'a2' }, { text: long }]);
    await drain(chat, 'u1');
    await drain(chat, 'u2');
    const before = structuredClone(chat.messages);
    const r = await compactor.compact(chat.messages, { reason: 'manual' });
    expect(r.ok).toBe(false);
    expect(r.tokensAfter).toBe(r.tokensBefore);
    expect(r.notice).toMatch(/kept as it is/);
    expect(chat.messages).toEqual(before);
    expect(compactions).toHaveLength(0);
  });

  it('a summary that is smaller replaces the older part, and the figures shrink', async () => {
    const { chat, compactor } = chatWith([{ text: 'a1' }, { text: 'a2' }, { text: 'S' }]);
    await drain(chat, `u1 ${'long question '.repeat(200)}`);
    await drain(chat, 'u2');
    const r = await compactor.compact(chat.messages, { reason: 'manual' });
    expect(r.ok).toBe(true);
    expect(r.tokensAfter).toBeLessThan(r.tokensBefore);
  });
});

describe('RunBudget', () => {
  it('stops before a call that would pass the limit, counted from the start of the run', async () => {
    const big = {
      promptTokens: 100_000,
      completionTokens: 0,
      totalTokens: 100_000,
      cachedTokens: 0,
      reasoningTokens: 0,
    };
    const toolTurn: Turn = async function* () {
      yield {
        type: 'done',
        message: { role: 'assistant', content: '', tool_calls: [call('b1')] },
        finishReason: 'tool_calls',
        usage: big,
        model: 'glm-5',
      };
    };
    // glm-5 on BigModel: a 100K prompt is in the ≥32K tier, ¥6 per million, so each call costs ¥0.60.
    const { chat, usage } = chatWith(
      [{ text: 'a1', usage: big }, toolTurn, { text: 'never' }],
      0.98,
      'glm-5',
      0.7,
    );
    const first = await drain(chat, 'u1');
    expect(first.result.stopReason).toBe('answer'); // ¥0.60 of ¥0.70
    // A new run starts from zero: its first call fits (¥0.60), the second would make ¥1.20.
    const second = await drain(chat, 'u2');
    expect(second.result.stopReason).toBe('budget');
    expect(second.result.error?.kind).toBe('budget');
    expect(second.result.error?.exitCode).toBe(1);
    expect(second.result.error?.whatText()).toContain('¥0.70');
    expect(second.events.some((e) => e.type === 'error')).toBe(true);
    expect(usage.total().calls).toBe(2);
  });

  it('never stops on a coding plan', () => {
    const usage = new UsageTracker(PLATFORMS['bigmodel-coding']);
    const b = new RunBudget(0, usage, () => 'glm-5');
    expect(b.check([{ role: 'user', content: 'x'.repeat(100_000) }])).toBeUndefined();
  });
});
