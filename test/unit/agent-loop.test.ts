import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentResult, RunEvent } from '../../src/agent/events.js';
import { type AgentDeps, type AgentOptions, type Prompter, runAgent } from '../../src/agent/loop.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import type { Message, ToolMessage } from '../../src/llm/types.js';
import { UsageTracker } from '../../src/llm/usage.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { type AnyTool, ToolError } from '../../src/tools/types.js';
import { ScriptedLlm, type Turn } from '../helpers/fake-llm.js';

const echo: AnyTool = {
  name: 'echo',
  description: 'Echo text',
  kind: 'read',
  schema: z.object({ text: z.string() }),
  execute: async (a: { text: string }) => `echo: ${a.text}`,
};

function prompter(answer: boolean, interactive = true): Prompter & { asked: string[] } {
  const asked: string[] = [];
  return {
    interactive,
    asked,
    confirmTool: async (req) => {
      asked.push(req.name);
      return answer;
    },
    ask: async () => answer,
  };
}

async function run(
  turns: Turn[],
  tools: AnyTool[],
  over: Partial<AgentOptions> = {},
  deps: Partial<AgentDeps> = {},
) {
  const llm = new ScriptedLlm(turns);
  const messages: Message[] = [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'go' },
  ];
  const events: RunEvent[] = [];
  const gen = runAgent(
    messages,
    {
      llm,
      tools: new ToolRegistry(tools),
      prompter: prompter(true),
      usage: new UsageTracker(PLATFORMS.bigmodel),
      cwd: '/tmp',
      outputDir: '/tmp/out',
      ...deps,
    },
    { model: 'glm-5', thinking: true, maxTurns: 10, mode: 'approve', ...over },
  );
  let step = await gen.next();
  while (!step.done) {
    events.push(step.value);
    step = await gen.next();
  }
  return { result: step.value as AgentResult, events, messages, llm };
}

const toolMessages = (messages: Message[]) => messages.filter((m): m is ToolMessage => m.role === 'tool');

/** Every tool call in the conversation has exactly one result: the API rejects anything else. */
function expectValid(messages: Message[]) {
  const calls = messages.flatMap((m) =>
    m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : [],
  );
  expect(
    toolMessages(messages)
      .map((m) => m.tool_call_id)
      .sort(),
  ).toEqual([...calls].sort());
}

describe('agent loop', () => {
  it('runs no tool call of a reply cut at the output limit, and tells the model and the person why', async () => {
    let ran = 0;
    const write: AnyTool = { ...echo, name: 'write', execute: async () => `wrote ${++ran}` };
    // The arguments of a cut reply can still parse: a file's content cut mid-way is valid JSON.
    const cut: Turn = async function* (req) {
      const message = {
        role: 'assistant' as const,
        content: '',
        tool_calls: [
          {
            id: 'c1',
            type: 'function' as const,
            function: { name: 'write', arguments: '{"text":"half a fi"}' },
          },
        ],
      };
      yield {
        type: 'done',
        message,
        finishReason: 'length',
        usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2, cachedTokens: 0, reasoningTokens: 0 },
        model: req.model,
      };
    };
    const { result, events, messages, llm } = await run(
      [cut, { calls: [{ name: 'write', args: { text: 'whole' } }] }, { text: 'done' }],
      [write],
    );
    expect(ran).toBe(1); // only the call sent again in full
    expect(toolMessages(messages)[0]!.content).toMatch(/output limit/);
    expect(events.some((e) => e.type === 'warning' && /output limit/.test(e.message))).toBe(true);
    expect(events.filter((e) => e.type === 'tool_start')).toHaveLength(1);
    expect(llm.requests).toHaveLength(3);
    expect(result.stopReason).toBe('answer');
    expectValid(messages);
  });

  it('answers without tools in one turn', async () => {
    const { result, messages } = await run([{ text: 'Hello', reasoning: 'think' }], []);
    expect(result).toMatchObject({ text: 'Hello', stopReason: 'answer', turns: 1, toolCalls: 0 });
    expect(messages.at(-1)).toEqual({ role: 'assistant', content: 'Hello', reasoning_content: 'think' });
  });

  it('runs a tool, sends the result back, and keeps reasoning with the message it belongs to', async () => {
    const { result, messages, llm } = await run(
      [{ calls: [{ name: 'echo', args: { text: '你好' } }] }, { text: 'done' }],
      [echo],
    );
    expect(result.stopReason).toBe('answer');
    expect(result.toolCalls).toBe(1);
    expect(toolMessages(messages)[0]!.content).toBe('echo: 你好');
    expect(llm.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', content: 'echo: 你好' });
    expect(llm.requests[0]!.tools?.[0]?.function.name).toBe('echo');
    expectValid(messages);
  });

  it('turns invalid JSON and wrong types into error results the model can read, and continues', async () => {
    const { result, messages } = await run(
      [
        { calls: [{ name: 'echo', args: '{"text": "unterminated' }] },
        { calls: [{ name: 'echo', args: { text: 42 } }] },
        { text: 'recovered' },
      ],
      [echo],
    );
    const [bad, wrong] = toolMessages(messages);
    expect(bad!.content).toMatch(/^Error: The arguments for echo are not valid JSON/);
    expect(wrong!.content).toMatch(/^Error: The arguments for echo do not match its schema: text: /);
    expect(result.text).toBe('recovered');
  });

  it('answers an unknown tool with an error listing the available tools', async () => {
    const { messages } = await run(
      [{ calls: [{ name: 'rm_everything', args: {} }] }, { text: 'ok' }],
      [echo],
    );
    expect(toolMessages(messages)[0]!.content).toBe(
      'Error: There is no tool called "rm_everything". Available tools: echo.',
    );
  });

  it('turns a throwing tool into an error result (ToolError message verbatim, other errors wrapped)', async () => {
    const picky: AnyTool = {
      ...echo,
      name: 'picky',
      execute: async (a: { text: string }) => {
        if (a.text === 'tool') throw new ToolError('File not found: a.md. Use file_list to see the files.');
        throw new TypeError('boom');
      },
    };
    const { messages, result } = await run(
      [
        {
          calls: [
            { name: 'picky', args: { text: 'tool' } },
            { name: 'picky', args: { text: 'x' } },
          ],
        },
        { text: 'fine' },
      ],
      [picky],
    );
    const [a, b] = toolMessages(messages);
    expect(a!.content).toBe('Error: File not found: a.md. Use file_list to see the files.');
    expect(b!.content).toBe('Error: The tool picky failed: boom');
    expect(result.stopReason).toBe('answer');
  });

  it('stops at the turn limit with a clear error', async () => {
    const turns: Turn[] = Array.from({ length: 3 }, () => ({
      calls: [{ name: 'echo', args: { text: 'again' } }],
    }));
    const { result, messages } = await run(turns, [echo], { maxTurns: 3 });
    expect(result.stopReason).toBe('turn_limit');
    expect(result.turns).toBe(3);
    expect(result.error?.kind).toBe('turn_limit');
    expect(result.error?.exitCode).toBe(4);
    expectValid(messages);
  });

  it('runs read-only calls of one response in parallel and keeps the model order', async () => {
    let running = 0;
    let peak = 0;
    const slow: AnyTool = {
      ...echo,
      name: 'slow',
      execute: async (a: { text: string }) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, a.text === 'first' ? 60 : 5));
        running--;
        return a.text;
      },
    };
    const { messages, events } = await run(
      [
        { calls: ['first', 'second', 'third'].map((text) => ({ name: 'slow', args: { text } })) },
        { text: 'ok' },
      ],
      [slow],
    );
    expect(peak).toBe(3);
    expect(toolMessages(messages).map((m) => m.content)).toEqual(['first', 'second', 'third']);
    const ends = events.filter((e) => e.type === 'tool_end').map((e) => (e as { result: string }).result);
    expect(ends[ends.length - 1]).toBe('first'); // finished last, still first in the conversation
  });

  it('asks before a risky tool in approve mode, runs it in auto mode, denies without a terminal', async () => {
    const risky: AnyTool = { ...echo, name: 'make', kind: 'risky', execute: async () => 'made' };
    const turns = (): Turn[] => [{ calls: [{ name: 'make', args: { text: 'x' } }] }, { text: 'ok' }];

    const yes = prompter(true);
    const a = await run(turns(), [risky], {}, { prompter: yes });
    expect(yes.asked).toEqual(['make']);
    expect(toolMessages(a.messages)[0]!.content).toBe('made');

    const no = prompter(false);
    const b = await run(turns(), [risky], {}, { prompter: no });
    expect(toolMessages(b.messages)[0]!.content).toMatch(/^Error: The user declined/);

    const auto = prompter(false);
    const c = await run(turns(), [risky], { mode: 'auto' }, { prompter: auto });
    expect(auto.asked).toEqual([]);
    expect(toolMessages(c.messages)[0]!.content).toBe('made');

    const nobody = prompter(true, false);
    const d = await run(turns(), [risky], {}, { prompter: nobody });
    expect(nobody.asked).toEqual([]);
    expect(toolMessages(d.messages)[0]!.content).toMatch(/no one can be asked here/);
    expect(d.events.some((e) => e.type === 'permission' && e.decision === 'denied')).toBe(true);
  });

  it('shell asks even in auto mode; a refusal from assess() is never asked', async () => {
    let ran = 0;
    const shell: AnyTool = {
      name: 'shell',
      description: 'run',
      kind: 'shell',
      schema: z.object({ command: z.string() }),
      assess: (a: { command: string }) => (a.command.includes('rm -rf /') ? { refuse: 'catastrophic' } : {}),
      execute: async () => {
        ran++;
        return 'ran';
      },
    };
    const p = prompter(true);
    const { messages } = await run(
      [
        {
          calls: [
            { name: 'shell', args: { command: 'ls' } },
            { name: 'shell', args: { command: 'rm -rf /' } },
          ],
        },
        { text: 'ok' },
      ],
      [shell],
      { mode: 'auto' },
      { prompter: p },
    );
    expect(p.asked).toEqual(['shell']);
    expect(ran).toBe(1);
    expect(toolMessages(messages)[1]!.content).toMatch(/^Error: Refused: catastrophic/);
  });

  it('caps a huge tool result with a visible marker', async () => {
    const big: AnyTool = { ...echo, name: 'big', execute: async () => '字'.repeat(60_000) };
    const { messages } = await run([{ calls: [{ name: 'big', args: { text: '' } }] }, { text: 'ok' }], [big]);
    const content = toolMessages(messages)[0]!.content;
    expect(Buffer.byteLength(content)).toBeLessThan(52 * 1024);
    expect(content).toMatch(/\[truncated: showing the first 50 KB of 176 KB\]$/);
    expect(content).not.toContain('\uFFFD');
  });

  it('an interrupt during a tool leaves every call with a result and stops', async () => {
    const ac = new AbortController();
    const hang: AnyTool = {
      ...echo,
      name: 'hang',
      execute: (_a, ctx) =>
        new Promise((_r, reject) => {
          ctx.signal.addEventListener('abort', () => reject(new Error('aborted')));
          setTimeout(() => ac.abort(), 10);
        }),
    };
    const { result, messages } = await run(
      [
        {
          calls: [
            { name: 'hang', args: { text: '' } },
            { name: 'hang', args: { text: '' } },
          ],
        },
      ],
      [hang],
      { signal: ac.signal },
    );
    expect(result.stopReason).toBe('aborted');
    expectValid(messages);
    expect(toolMessages(messages).every((m) => m.content.includes('Interrupted'))).toBe(true);
  });

  it('an interrupt mid-stream keeps the text already said', async () => {
    const { result, messages } = await run(
      [
        async function* () {
          yield { type: 'text_delta', text: 'Half an ans' };
          yield {
            type: 'error',
            error: { kind: 'aborted', message: 'aborted', retryable: false },
            partial: { role: 'assistant', content: 'Half an ans' },
          };
        },
      ],
      [],
    );
    expect(result.stopReason).toBe('aborted');
    expect(messages.at(-1)).toEqual({ role: 'assistant', content: 'Half an ans' });
  });

  it('an answer stopped mid-stream keeps its (estimated) usage; one stopped before any output has none', async () => {
    const stopped = (content: string) =>
      async function* () {
        if (content) yield { type: 'text_delta' as const, text: content };
        yield {
          type: 'error' as const,
          error: { kind: 'aborted' as const, message: 'aborted', retryable: false },
          partial: { role: 'assistant' as const, content, reasoning_content: content ? '先想一想' : '' },
        };
      };
    const usage = new UsageTracker(PLATFORMS.bigmodel);
    const { events } = await run([stopped('Half an answer, cut off by Ctrl+C')], [], {}, { usage });
    const counted = events.filter((e) => e.type === 'usage');
    expect(counted).toHaveLength(1);
    const u = (counted[0] as Extract<RunEvent, { type: 'usage' }>).usage;
    expect(u.promptTokens).toBeGreaterThan(0);
    expect(u.completionTokens).toBeGreaterThan(u.reasoningTokens);
    expect(u.reasoningTokens).toBeGreaterThan(0);
    expect(u.totalTokens).toBe(u.promptTokens + u.completionTokens);
    expect(usage.total().totalTokens).toBe(u.totalTokens);

    const none = await run([stopped('')], []);
    expect(none.events.some((e) => e.type === 'usage')).toBe(false);
  });

  it('sums usage per model with a cost in the platform currency', async () => {
    const usage = new UsageTracker(PLATFORMS.bigmodel);
    await run(
      [
        {
          text: 'a',
          usage: { promptTokens: 1_000_000, completionTokens: 1_000_000, totalTokens: 2_000_000 },
        },
      ],
      [],
      {},
      { usage },
    );
    const [model, u] = usage.models()[0]!;
    expect(model).toBe('glm-5');
    expect(u.calls).toBe(1);
    expect(u.cost).toBeCloseTo(6 + 22); // glm-5 on BigModel, a prompt over 32K: ¥6 in, ¥22 out per million
    expect(usage.cost().currency).toBe('CNY');
  });

  it('an API error ends the run with a typed error', async () => {
    const { result } = await run(
      [
        {
          error: {
            type: 'error',
            error: { kind: 'balance', status: 429, code: '1113', message: '余额不足', retryable: false },
            partial: { role: 'assistant', content: '' },
          },
        },
      ],
      [],
    );
    expect(result.stopReason).toBe('error');
    expect(result.error?.kind).toBe('balance');
    expect(result.error?.exitCode).toBe(3);
  });
});
