import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchApi, batchLine, jobCounts, parseResults } from '../../src/llm/batch.js';
import { PlatformHttp } from '../../src/llm/platform-http.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import { FakeZhipu, TEST_KEY } from '../fake-zhipu/server.js';

const fake = new FakeZhipu();
beforeAll(() => fake.start().then(() => undefined));
afterAll(() => fake.stop());

const api = (key = TEST_KEY) =>
  new BatchApi(
    new PlatformHttp({
      baseUrl: fake.baseUrl,
      apiKey: key,
      userAgent: 'zhi-test',
      retryBaseMs: 1,
      retryCapMs: 2,
    }),
    PLATFORMS.bigmodel,
  );

describe('Batch API client', () => {
  it('writes one request per line with custom_id, method, url and a body without stream', () => {
    const line = JSON.parse(batchLine('zhi-1-abc', { model: 'glm-4-flash', messages: [], stream: true }));
    expect(line).toEqual({
      custom_id: 'zhi-1-abc',
      method: 'POST',
      url: '/v4/chat/completions',
      body: { model: 'glm-4-flash', messages: [] },
    });
  });

  it('reads output and error files by custom_id, skipping damaged lines', () => {
    const ok = JSON.stringify({
      custom_id: 'a',
      response: { status_code: 200, body: { choices: [{ message: { content: 'hi' } }] } },
    });
    const bad = JSON.stringify({
      custom_id: 'b',
      response: { status_code: 400, body: { error: { message: 'nope' } } },
    });
    const r = parseResults(`${ok}\n{broken\n`, bad);
    expect(r.get('a')).toMatchObject({ ok: true });
    expect(r.get('b')).toEqual({ ok: false, error: 'nope' });
    expect(r.size).toBe(2);
  });

  it('round trip: upload (purpose batch), create, poll to completed, results', async () => {
    fake.reset();
    fake.batchPolls = 2;
    fake.fallback = () => ({ kind: 'text', text: 'batched answer' });
    const body = {
      model: 'glm-4-flash',
      messages: [{ role: 'user', content: 'hi' }],
      thinking: { type: 'disabled' },
    };
    const file = await api().upload(`${batchLine('one', body)}\n${batchLine('two', body)}\n`, 'x.jsonl');
    expect(file.id).toBeTruthy();
    const job = await api().create(file.id, { zhi_skill: 'summarize' });
    expect(job.status).toBe('validating');
    expect((await api().get(job.id)).status).toBe('in_progress');
    const done = await api().get(job.id);
    expect(done.status).toBe('completed');
    expect(jobCounts(done)).toEqual({ total: 2, completed: 2, failed: 0 });
    const results = await api().results(done);
    expect([...results.keys()].sort()).toEqual(['one', 'two']);
    const one = results.get('one');
    expect(one?.ok && one.body.choices?.[0]?.message?.content).toBe('batched answer');
    expect((await api().list()).map((j) => j.id)).toContain(job.id);
  });

  it('turns a bad key into the same error a chat call gives', async () => {
    await expect(api('wrong').list()).rejects.toMatchObject({ kind: 'auth' });
  });
});
