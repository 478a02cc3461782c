import { describe, expect, it, vi } from 'vitest';
import { connectPlatform } from '../../src/llm/connect.js';
import type { FetchLike } from '../../src/llm/http.js';
import { PlatformHttp, type RetryNotice } from '../../src/llm/platform-http.js';
import { ToolError } from '../../src/tools/types.js';
import { createWebSearchTool } from '../../src/tools/web/search.js';

/** A fetch that answers from a list, one entry per call, and records what it was sent. */
function scripted(answers: Array<Response | Error>) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url, init });
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    if (next instanceof Error) throw next;
    return next;
  };
  return { fetch, calls };
}

const busy = () =>
  new Response(JSON.stringify({ error: { code: '1305', message: '该模型当前访问量过大' } }), { status: 429 });
const ok = (json: unknown) => new Response(JSON.stringify(json), { status: 200 });
const refused = () =>
  Object.assign(new TypeError('fetch failed'), {
    cause: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' },
  });

function http(
  answers: Array<Response | Error>,
  extra: Partial<ConstructorParameters<typeof PlatformHttp>[0]> = {},
) {
  const s = scripted(answers);
  const sleeps: number[] = [];
  const client = new PlatformHttp({
    baseUrl: 'http://platform.test/api/paas/v4/',
    apiKey: 'id.secret',
    fetch: s.fetch,
    sleep: async (ms) => void sleeps.push(ms),
    random: () => 0.5,
    ...extra,
  });
  return { client, calls: s.calls, sleeps };
}

describe('PlatformHttp: the one authenticated request path', () => {
  it('sends the key, the language and a JSON body to the path under the base URL', async () => {
    const { client, calls } = http([ok({ a: 1 })], { acceptLanguage: 'zh-CN,zh', userAgent: 'zhi/test' });
    const answer = await client.json<{ a: number }>({ path: '/web_search', json: { q: '个税' } });
    expect(answer).toEqual({ ok: true, value: { a: 1 } });
    expect(calls[0]!.url).toBe('http://platform.test/api/paas/v4/web_search');
    const headers = calls[0]!.init.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer id.secret');
    expect(headers['Accept-Language']).toBe('zh-CN,zh');
    expect(headers['Content-Type']).toContain('application/json');
    expect(calls[0]!.init.method).toBe('POST');
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ q: '个税' });
  });

  it('waits out a busy platform with backoff and says so before each retry', async () => {
    const { client, calls, sleeps } = http([busy(), busy(), ok({ done: true })]);
    const notices: RetryNotice[] = [];
    const answer = await client.json({ path: '/models', onRetry: (n) => notices.push(n) });
    expect(answer.ok).toBe(true);
    expect(calls).toHaveLength(3);
    expect(notices.map((n) => [n.attempt, n.error.code])).toEqual([
      [1, '1305'],
      [2, '1305'],
    ]);
    expect(sleeps).toHaveLength(2);
    expect(sleeps[1]!).toBeGreaterThan(sleeps[0]!);
  });

  it('retries a refused connection, then gives up with the network cause as data', async () => {
    const { client, calls } = http([refused(), refused(), refused()], { maxRetries: 2 });
    const answer = await client.text({ path: '/files/f1/content' });
    expect(calls).toHaveLength(3);
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect([answer.error.kind, answer.error.network]).toEqual(['network', 'refused']);
  });

  it('does not repeat what must not be repeated, nor what cannot get better', async () => {
    const once = http([busy(), ok({})]);
    expect((await once.client.json({ path: '/batches', json: {}, retry: false })).ok).toBe(false);
    expect(once.calls).toHaveLength(1);
    const auth = http([
      new Response('{"error":{"code":"1000","message":"身份验证失败"}}', { status: 401 }),
      ok({}),
    ]);
    const answer = await auth.client.json({ path: '/models' });
    expect(auth.calls).toHaveLength(1);
    if (!answer.ok) expect(answer.error.kind).toBe('auth');
  });

  it('turns an answer that is not JSON into a server failure, not a crash', async () => {
    const { client } = http([new Response('<html>gateway</html>', { status: 200 })], { maxRetries: 0 });
    const answer = await client.json({ path: '/layout_parsing', json: {} });
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(answer.error.kind).toBe('server');
  });
});

describe('web_search through the seam', () => {
  it('is retried on a busy platform and explains an unusable key to the model', async () => {
    const results = { search_result: [{ title: 'T', link: 'https://e.com', content: 'c' }] };
    const s = scripted([
      busy(),
      ok(results),
      new Response('{"error":{"code":"1000","message":"bad key"}}', { status: 401 }),
    ]);
    const client = connectPlatform({
      baseUrl: 'http://p.test/v4',
      apiKey: 'k',
      fetch: s.fetch,
      sleep: async () => {},
    });
    const tool = createWebSearchTool({ client });
    const ctx = {
      signal: new AbortController().signal,
      usage: { platform: { pricing: 'bigmodel' } },
      reportUsage: () => {},
    } as unknown as Parameters<typeof tool.execute>[1];
    const found = (await tool.execute({ query: 'q' }, ctx)) as { content: string };
    expect(found.content).toContain('[1] T');
    const failed = tool.execute({ query: 'q' }, ctx);
    await expect(failed).rejects.toBeInstanceOf(ToolError);
    await expect(failed).rejects.toThrow(/API key was not accepted/);
  });
});

describe('PlatformHttp.preconnect', () => {
  const make = (fetch: FetchLike) =>
    new PlatformHttp({ baseUrl: 'https://api.example/v4/', apiKey: 'k.secret', fetch });

  it('sends an OPTIONS of the base address with no key, reads the short answer, and says it worked', async () => {
    const { fetch, calls } = scripted([new Response('{"error":"not found"}', { status: 404 })]);
    expect(await make(fetch).preconnect()).toBe(true);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('https://api.example/v4/');
    expect(calls[0]!.init.method).toBe('OPTIONS');
    expect(JSON.stringify(calls[0]!.init.headers)).not.toContain('secret');
  });

  it('says it failed, without throwing, when the API cannot be reached', async () => {
    const { fetch } = scripted([refused()]);
    expect(await make(fetch).preconnect()).toBe(false);
  });

  it('gives up after 5 s without an answer', async () => {
    vi.useFakeTimers();
    try {
      let signal: AbortSignal | undefined;
      const fetch: FetchLike = (_url, init) =>
        new Promise((_resolve, reject) => {
          signal = init.signal ?? undefined;
          signal?.addEventListener('abort', () => reject(new Error('aborted')));
        });
      const done = make(fetch).preconnect();
      await vi.advanceTimersByTimeAsync(5000);
      expect(signal?.aborted).toBe(true);
      expect(await done).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
