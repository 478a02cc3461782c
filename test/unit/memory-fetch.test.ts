import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { chunkedResponse, memoryFetch } from '../../src/llm/memory-fetch.js';

afterEach(() => vi.unstubAllEnvs());

// Node's fetch makes its dispatcher on its first call (zhi's first is the connection kept ready).
beforeAll(async () => {
  await fetch('data:,x');
});

function noProxy(): void {
  for (const name of ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy']) vi.stubEnv(name, '');
}

describe('a fetch answered from memory through Node’s HTTP client (issue 44)', () => {
  it('answers a POST with the response it was given, chunk by chunk, without looking up the address', async () => {
    noProxy();
    const events = ['data: {"a":1}\n\n', 'data: 你好\n\n', 'data: [DONE]\n\n'];
    const fetchSample = memoryFetch(chunkedResponse('text/event-stream', events));
    expect(fetchSample).toBeDefined();
    // zhi.invalid cannot resolve: an answer proves nothing went to the network.
    const res = await fetchSample!('http://zhi.invalid/api/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: '中文'.repeat(50_000) }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(await res.text()).toBe(events.join(''));
  });

  it('answers every request on a connection of its own', async () => {
    noProxy();
    const fetchSample = memoryFetch(chunkedResponse('text/plain', ['ok']))!;
    const texts = await Promise.all(
      [1, 2, 3].map(async (n) =>
        (await fetchSample(`http://zhi.invalid/${n}`, { method: 'POST', body: 'x' })).text(),
      ),
    );
    expect(texts).toEqual(['ok', 'ok', 'ok']);
  });

  it('is not made behind a proxy, where the API is reached through another copy of the HTTP client', () => {
    noProxy();
    vi.stubEnv('HTTPS_PROXY', 'http://proxy.example:8080');
    expect(memoryFetch(chunkedResponse('text/plain', ['ok']))).toBeUndefined();
  });

  it('is not made from a dispatcher someone else set in place of Node’s', () => {
    noProxy();
    const slot = Symbol.for('undici.globalDispatcher.1');
    const global = globalThis as unknown as Record<symbol, unknown>;
    const nodes = global[slot];
    class ProxyAgent {}
    global[slot] = new ProxyAgent();
    try {
      expect(memoryFetch(chunkedResponse('text/plain', ['ok']))).toBeUndefined();
    } finally {
      global[slot] = nodes;
    }
    expect(memoryFetch(chunkedResponse('text/plain', ['ok']))).toBeDefined();
  });
});
