import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ZhipuClient } from '../../src/llm/client.js';
import type { ChatRequest, StreamEvent } from '../../src/llm/types.js';
import { FakeZhipu, TEST_KEY } from '../fake-zhipu/server.js';

let fake: FakeZhipu;
beforeAll(async () => {
  fake = new FakeZhipu();
  await fake.start();
});
afterAll(() => fake.stop());
beforeEach(() => fake.reset());

function client(opts: Partial<ConstructorParameters<typeof ZhipuClient>[0]> = {}) {
  return new ZhipuClient({ baseUrl: fake.baseUrl, apiKey: TEST_KEY, retryBaseMs: 1, retryCapMs: 2, ...opts });
}

const req = (over: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'glm-5',
  messages: [{ role: 'user', content: 'hi' }],
  thinking: true,
  ...over,
});

async function collect(it: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const ev of it) out.push(ev);
  return out;
}
const last = (evs: StreamEvent[]) => evs[evs.length - 1]!;

describe('ZhipuClient streaming', () => {
  it('streams reasoning then text, and ends with usage from the last chunk', async () => {
    fake.script({
      kind: 'text',
      text: 'Hello there, friend.',
      reasoning: 'The user greets me.',
      usage: { prompt_tokens: 11, completion_tokens: 7, cached_tokens: 3, reasoning_tokens: 4 },
    });
    const evs = await collect(client().stream(req()));
    const text = evs
      .filter((e) => e.type === 'text_delta')
      .map((e) => (e as { text: string }).text)
      .join('');
    const thinking = evs
      .filter((e) => e.type === 'thinking_delta')
      .map((e) => (e as { text: string }).text)
      .join('');
    expect(text).toBe('Hello there, friend.');
    expect(thinking).toBe('The user greets me.');
    expect(evs.findIndex((e) => e.type === 'thinking_delta')).toBeLessThan(
      evs.findIndex((e) => e.type === 'text_delta'),
    );
    const done = last(evs);
    expect(done.type).toBe('done');
    if (done.type !== 'done') return;
    expect(done.finishReason).toBe('stop');
    expect(done.usage).toEqual({
      promptTokens: 11,
      completionTokens: 7,
      totalTokens: 18,
      cachedTokens: 3,
      reasoningTokens: 4,
    });
    expect(done.message).toEqual({
      role: 'assistant',
      content: 'Hello there, friend.',
      reasoning_content: 'The user greets me.',
    });
  });

  it('sends thinking explicitly, tool_stream for models that support it, and a request_id', async () => {
    fake.script({ kind: 'text', text: 'a' }, { kind: 'text', text: 'b' }, { kind: 'text', text: 'c' });
    const tools = [
      {
        type: 'function' as const,
        function: { name: 'x', description: 'd', parameters: { type: 'object' } },
      },
    ];
    await collect(client().stream(req({ thinking: false, tools })));
    await collect(client().stream(req({ model: 'glm-4-flash', thinking: true, tools })));
    await collect(client().stream(req({ model: 'glm-5.3', thinking: false })));
    const [a, b, c] = fake.chatBodies();
    expect(a.thinking).toEqual({ type: 'disabled' });
    expect(a.tool_stream).toBe(true);
    expect(a.request_id).toMatch(/^zhi-/);
    expect(b.thinking).toEqual({ type: 'disabled' }); // glm-4-flash cannot think
    expect(b.max_tokens).toBe(4096); // explicit: GLM-4 models stop at 1,024 tokens without it
    expect(a.max_tokens).toBe(131_072);
    expect(b.tool_stream).toBeUndefined();
    expect(c.thinking).toEqual({ type: 'enabled' }); // glm-5.3 always thinks
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
  });

  it('keeps Chinese intact when a multi-byte character is split across network reads', async () => {
    const text = '你好，世界！这是一个测试：表格、数字 123 和标点。';
    fake.script({ kind: 'text', text, splitBytes: true, chunk: 3 });
    const evs = await collect(client().stream(req()));
    const done = last(evs);
    expect(done.type === 'done' && done.message.content).toBe(text);
    expect(evs.map((e) => (e.type === 'text_delta' ? e.text : '')).join('')).not.toContain('\uFFFD');
  });

  it('accumulates a whole tool call from one chunk', async () => {
    fake.script({
      kind: 'tools',
      calls: [{ name: 'file_read', arguments: { path: 'a.md' }, id: 'call_1' }],
      fragment: false,
    });
    const evs = await collect(client().stream(req()));
    const done = last(evs);
    expect(done.type).toBe('done');
    if (done.type !== 'done') return;
    expect(done.finishReason).toBe('tool_calls');
    expect(done.message.tool_calls).toEqual([
      { id: 'call_1', type: 'function', function: { name: 'file_read', arguments: '{"path":"a.md"}' } },
    ]);
    expect(evs.some((e) => e.type === 'tool_call_start')).toBe(true);
  });

  it('accumulates fragmented arguments, repeated id/name, and a fragment in the finishing chunk', async () => {
    const args = { path: '报告/季度.md', note: 'x'.repeat(40) };
    for (const variant of [{}, { repeatIdName: true }, { lastFragmentInFinish: true }]) {
      fake.script({
        kind: 'tools',
        calls: [
          { name: 'file_read', arguments: args, id: 'call_a' },
          { name: 'file_list', arguments: { path: '.' }, id: 'call_b' },
        ],
        fragment: true,
        content: 'Let me look.',
        ...variant,
      });
      const done = last(await collect(client().stream(req())));
      expect(done.type).toBe('done');
      if (done.type !== 'done') return;
      expect(done.message.content).toBe('Let me look.');
      expect(
        done.message.tool_calls?.map((c) => [c.id, c.function.name, JSON.parse(c.function.arguments)]),
      ).toEqual([
        ['call_a', 'file_read', args],
        ['call_b', 'file_list', { path: '.' }],
      ]);
    }
  });

  it('tolerates the 2025 shape without `object`', async () => {
    fake.objectField = false;
    try {
      fake.script({ kind: 'text', text: 'old shape' });
      const done = last(await collect(client().stream(req())));
      expect(done.type === 'done' && done.message.content).toBe('old shape');
    } finally {
      fake.objectField = true;
    }
  });

  it('maps finish reasons: length is an answer, sensitive and network_error are errors', async () => {
    fake.script(
      { kind: 'text', text: 'cut', finish: 'length' },
      { kind: 'text', text: 'bad', finish: 'sensitive' },
      { kind: 'text', text: 'net', finish: 'network_error' },
      { kind: 'text', text: '', finish: 'model_context_window_exceeded' },
    );
    const c = client({ maxRetries: 0 });
    const a = last(await collect(c.stream(req())));
    expect(a.type === 'done' && a.finishReason).toBe('length');
    const b = last(await collect(c.stream(req())));
    expect(b.type === 'error' && b.error.kind).toBe('content_filter');
    expect(b.type === 'error' && b.partial.content).toBe('bad');
    const n = last(await collect(c.stream(req())));
    expect(n.type === 'error' && n.error.kind).toBe('network');
    const o = last(await collect(c.stream(req())));
    expect(o.type === 'error' && o.error.kind).toBe('context_overflow');
  });
});

describe('ZhipuClient errors and retries', () => {
  it('retries 1302 with an announced retry, then succeeds', async () => {
    fake.script(
      { kind: 'error', status: 429, code: '1302', message: '您当前使用该API的并发数过高' },
      { kind: 'text', text: 'ok' },
    );
    const evs = await collect(client().stream(req()));
    const retries = evs.filter((e) => e.type === 'retry');
    expect(retries).toHaveLength(1);
    expect(retries[0]!.type === 'retry' && retries[0]!.error.code).toBe('1302');
    expect(last(evs).type).toBe('done');
    expect(fake.chatBodies()).toHaveLength(2);
  });

  it('never retries 1113 (balance), 1301 (filter), 1261 (too long), 1211 or 401', async () => {
    const cases = [
      { status: 429, code: '1113', kind: 'balance' },
      { status: 400, code: '1301', kind: 'content_filter' },
      { status: 400, code: '1261', kind: 'context_overflow' },
      { status: 400, code: '1214', kind: 'bad_request' },
      { status: 401, code: '401', kind: 'auth' },
    ];
    for (const c of cases) {
      fake.reset();
      fake.script({ kind: 'error', status: c.status, code: c.code, message: 'm' });
      const evs = await collect(client().stream(req()));
      expect(evs.filter((e) => e.type === 'retry')).toHaveLength(0);
      const e = last(evs);
      expect(e.type === 'error' && e.error.kind, c.code).toBe(c.kind);
      expect(fake.chatBodies()).toHaveLength(1);
    }
  });

  it('gives up on 500s after 3 retries', async () => {
    for (let i = 0; i < 4; i++)
      fake.script({ kind: 'error', status: 500, code: '500', message: 'Internal Error' });
    const evs = await collect(client().stream(req()));
    expect(evs.filter((e) => e.type === 'retry')).toHaveLength(3);
    const e = last(evs);
    expect(e.type === 'error' && e.error.kind).toBe('server');
    expect(fake.chatBodies()).toHaveLength(4);
  });

  it('reports a bad key from the server body (code "401")', async () => {
    const evs = await collect(new ZhipuClient({ baseUrl: fake.baseUrl, apiKey: 'wrong.key' }).stream(req()));
    const e = last(evs);
    expect(e.type).toBe('error');
    if (e.type !== 'error') return;
    expect(e.error).toMatchObject({ kind: 'auth', status: 401, code: '401', retryable: false });
    expect(e.error.message).toBe('令牌已过期或验证不正确！');
  });

  it('ends with a network error, not a hang, when the stream is cut mid-answer, keeping the partial text', async () => {
    fake.script({ kind: 'cut', text: 'The first part of the ans' });
    const evs = await collect(client({ maxRetries: 3 }).stream(req()));
    const e = last(evs);
    expect(e.type).toBe('error');
    if (e.type !== 'error') return;
    expect(e.error.kind).toBe('network');
    expect(e.partial.content).toBe('The first part of the ans');
    expect(evs.filter((x) => x.type === 'retry')).toHaveLength(0); // output was shown: no silent retry
  });

  it('times out a stream that stops sending bytes (idle timeout)', async () => {
    fake.script({ kind: 'hang', text: 'waiting' });
    const evs = await collect(client({ idleTimeoutMs: 200, maxRetries: 0 }).stream(req()));
    const e = last(evs);
    expect(e.type === 'error' && e.error.kind).toBe('timeout');
  });

  it('stops at once when aborted, reporting aborted', async () => {
    fake.script({ kind: 'hang', text: 'partial' });
    const ac = new AbortController();
    const evs: StreamEvent[] = [];
    for await (const ev of client().stream(req({ signal: ac.signal }))) {
      evs.push(ev);
      if (ev.type === 'text_delta') ac.abort();
    }
    const e = last(evs);
    expect(e.type === 'error' && e.error.kind).toBe('aborted');
    expect(e.type === 'error' && e.partial.content).toBe('partial');
  });

  it('turns an error object inside the stream into a typed error', async () => {
    fake.script({ kind: 'stream-error', code: '1305', message: '该模型当前访问量过大，请您稍后再试' });
    const e = last(await collect(client({ maxRetries: 0 }).stream(req())));
    expect(e.type === 'error' && e.error.kind).toBe('overloaded');
  });

  it('reports an unreachable server as a network error after retries', async () => {
    // A port we opened and closed (port 9 is one fetch refuses outright, without trying).
    const server = createServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as { port: number };
    await new Promise((done) => server.close(done));
    const evs = await collect(
      new ZhipuClient({
        baseUrl: `http://127.0.0.1:${port}/api/paas/v4`,
        apiKey: TEST_KEY,
        retryBaseMs: 1,
        retryCapMs: 1,
      }).stream(req()),
    );
    expect(evs.filter((e) => e.type === 'retry')).toHaveLength(3);
    const e = last(evs);
    expect(e.type === 'error' && e.error.kind).toBe('network');
    expect(e.type === 'error' && e.error.network).toBe('refused');
  });

  it('complete() does a non-streaming call', async () => {
    fake.script({ kind: 'text', text: 'pong' });
    const r = await client().complete(req({ maxTokens: 1 }));
    expect(r.type === 'done' && r.message.content).toBe('pong');
    expect(fake.chatBodies()[0]).toMatchObject({ stream: false, max_tokens: 1 });
  });
});
