/**
 * Every current GLM model and the protocol's edges, end to end with the built zhi and the fake
 * API: new and unknown models, thinking and its effort, a glued SSE frame, box markers, the
 * errors that need their own words, the platform's web search, and the per-platform skill model.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';

const e = useE2E();
const { fake } = e;

const zhi = (args: string[], env: Record<string, string | undefined> = {}) => e.zhi(args, { env });

describe('models', () => {
  it('runs glm-5.3-flash on BigModel and on Z.ai, with no unknown-model warning', async () => {
    fake.script({ kind: 'text', text: '你好' }, { kind: 'text', text: 'hello' });
    const a = await zhi(['-c', 'hi', '-m', 'glm-5.3-flash']);
    expect(a.code).toBe(0);
    expect(a.stdout).toContain('你好');
    writeFileSync(join(e.home, 'config.yaml'), 'platform: zai\n');
    const b = await zhi(['-c', 'hi', '-m', 'glm-5.3-flash']);
    expect(b.code).toBe(0);
    expect(b.stdout).toContain('hello');
    expect(b.stderr).toMatch(/\$0\.\d+/); // Z.ai bills in USD
    for (const r of [a, b]) expect(r.stderr).not.toContain("not in zhi's model list");
    const bodies = fake.chatBodies();
    expect(bodies.map((x) => x.model)).toEqual(['glm-5.3-flash', 'glm-5.3-flash']);
    expect(bodies[0].thinking).toEqual({ type: 'enabled' });
  });

  it('uses a model it does not know with a warning, and learns once that it always thinks', async () => {
    fake.extraModels.set('glm-5.9-preview', { alwaysThinks: true });
    writeFileSync(join(e.cwd, 'notes.txt'), 'Budget: 1.2 million. Deadline: March.');
    fake.script({ kind: 'text', text: 'Budget 1.2M, due March.' });
    const env = { ZHI_SKILL_MODEL: 'glm-5.9-preview' };
    const first = await zhi(['run', 'summarize', 'notes.txt'], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Budget 1.2M');
    expect(first.stderr).toContain("glm-5.9-preview is not in zhi's model list");
    expect(first.stderr).toContain('glm-5.9-preview always thinks: asked again with thinking on');
    const [off, on] = fake.chatBodies();
    expect(off.thinking).toEqual({ type: 'disabled' });
    expect(on.thinking).toEqual({ type: 'enabled' });
    expect(existsSync(join(e.home, 'model-capabilities.json'))).toBe(true);

    // Remembered: the next run asks with thinking on straight away.
    fake.reset();
    fake.script({ kind: 'text', text: 'Again.' });
    const second = await zhi(['run', 'summarize', 'notes.txt'], env);
    expect(second.code).toBe(0);
    expect(second.stderr).not.toContain('always thinks');
    expect(fake.chatBodies()).toHaveLength(1);
    expect(fake.chatBodies()[0].thinking).toEqual({ type: 'enabled' });
  });

  it('sends reasoning_effort where the model takes it: the configured level in chat, low for skills', async () => {
    writeFileSync(join(e.home, 'config.yaml'), 'thinking_effort: high\n');
    fake.script({ kind: 'text', text: 'a' }, { kind: 'text', text: 'b' }, { kind: 'text', text: 'c' });
    expect((await zhi(['-c', 'hi', '-m', 'glm-5.3'])).code).toBe(0);
    expect((await zhi(['-c', 'hi', '-m', 'glm-5'])).code).toBe(0);
    writeFileSync(join(e.cwd, 'n.txt'), 'text');
    expect((await zhi(['run', 'summarize', 'n.txt'], { ZHI_SKILL_MODEL: 'glm-5.3' })).code).toBe(0);
    const [fiveThree, five, skill] = fake.chatBodies();
    expect(fiveThree.reasoning_effort).toBe('high');
    expect(five.reasoning_effort).toBeUndefined(); // GLM-5 has no effort levels
    expect(skill.reasoning_effort).toBe('low');
    expect(skill.thinking).toEqual({ type: 'enabled' }); // 5.3 cannot turn thinking off
  });

  it('the skill model defaults to a free model the platform serves (Z.ai: glm-4.7-flash)', async () => {
    writeFileSync(join(e.home, 'config.yaml'), 'platform: zai\n');
    writeFileSync(join(e.cwd, 'n.txt'), 'text');
    fake.script({ kind: 'text', text: 'summary' });
    const r = await zhi(['run', 'summarize', 'n.txt']);
    expect(r.code).toBe(0);
    expect(fake.chatBodies()[0].model).toBe('glm-4.7-flash');
    expect(fake.chatBodies()[0].thinking).toEqual({ type: 'disabled' });
  });
});

describe('protocol edges', () => {
  it('a frame cut short with the next one glued on: the full text, and a warning', async () => {
    fake.script({ kind: 'text', text: '**Olá!** Tudo bem?', chunk: 4, glueAfter: 1 });
    const r = await zhi(['-c', 'oi']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('**Olá!** Tudo bem?');
    expect(r.stderr).toContain('damaged piece of the stream');
  });

  it('replays a recorded glued line whose first frame broke before its text', async () => {
    const frame = (content: string) =>
      JSON.stringify({
        id: '2026043020420635c6abc56a2741ac',
        created: 1777552926,
        object: 'chat.completion.chunk',
        model: 'glm-5.1',
        choices: [{ index: 0, delta: { role: 'assistant', content } }],
      });
    const broken = '{"id":"20260430204055297b97348c8e426c","created":1777552855,"object":"chat.c';
    const last = JSON.stringify({
      id: 'x',
      created: 1,
      object: 'chat.completion.chunk',
      model: 'glm-5.1',
      choices: [{ index: 0, finish_reason: 'stop', delta: { role: 'assistant', content: '' } }],
      usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
    });
    fake.script({
      kind: 'raw',
      body: `data: ${frame('Answer: ')}\n\ndata: ${broken}data: ${frame('11')}\n\ndata: ${last}\n\ndata: [DONE]\n\n`,
    });
    const r = await zhi(['-c', '5+6?']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Answer: 11');
    expect(r.stderr).toContain('damaged piece of the stream');
  });

  it('removes the vision box markers, even split across chunks', async () => {
    fake.script({ kind: 'text', text: '<|begin_of_box|>总计 42 元<|end_of_box|>', chunk: 3 });
    const r = await zhi(['-c', 'sum?']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('总计 42 元');
  });

  it('a wrong base URL is explained as such, in English and Chinese (exit 3)', async () => {
    const wrong = fake.baseUrl.replace('/api/paas/v4', '/v4');
    const en = await e.zhi(['-c', 'hi'], { baseUrl: wrong });
    expect(en.code).toBe(3);
    expect(en.stderr).toContain('There is no Zhipu API at the configured address');
    expect(en.stderr).toContain(wrong);
    expect(en.stderr).not.toContain('model name');
    const zh = await e.zhi(['-c', 'hi'], { baseUrl: wrong, env: { ZHI_LANGUAGE: 'zh' } });
    expect(zh.stderr).toContain('配置的地址上没有智谱 API');
  });

  it('1308 names the reset time from the body; in Chinese too; it is not retried', async () => {
    const body = 'Usage limit reached for 5 hour. Your limit will reset at 2026-11-23 18:30:00';
    fake.script({ kind: 'error', status: 429, code: '1308', message: body });
    const en = await zhi(['-c', 'hi']);
    expect(en.code).toBe(1);
    expect(en.stderr).toContain("coding plan's usage window is used up");
    expect(en.stderr).toContain('It resets at 2026-11-23 18:30:00');
    expect(fake.chatBodies()).toHaveLength(1);
    fake.script({ kind: 'error', status: 429, code: '1308', message: body });
    const zh = await zhi(['-c', 'hi'], { ZHI_LANGUAGE: 'zh' });
    expect(zh.stderr).toContain('额度将在 2026-11-23 18:30:00');
  });

  it('finish_reason network_error is a server-side stop: retried when nothing was said yet', async () => {
    fake.script({ kind: 'text', text: '', finish: 'network_error' }, { kind: 'text', text: 'second try' });
    const retried = await zhi(['-c', 'hi']);
    expect(retried.code).toBe(0);
    expect(retried.stdout).toContain('second try');
    fake.script({ kind: 'text', text: 'half an answer', finish: 'network_error' });
    const stopped = await zhi(['-c', 'hi']);
    expect(stopped.code).toBe(1);
    expect(stopped.stdout).toContain('half an answer');
    expect(stopped.stderr).toContain('The Zhipu server stopped generating the answer');
    expect(stopped.stderr).not.toContain('Could not reach');
    fake.script({ kind: 'text', text: '一半', finish: 'network_error' });
    const zh = await zhi(['-c', 'hi'], { ZHI_LANGUAGE: 'zh' });
    expect(zh.stderr).toContain('智谱服务器中途停止生成回答');
  });
});

describe('web_search', () => {
  it('searches with the platform engine, lists the sources to the person, and counts the cost', async () => {
    fake.scriptSearch([
      {
        title: '个税新规解读',
        content: '2026 年起专项附加扣除提高。',
        link: 'https://example.gov.cn/tax',
        publish_date: '2026-10-01',
      },
      { title: 'Tax rules 2026', content: 'Deductions rise.', link: 'https://example.com/tax' },
    ]);
    fake.script(
      {
        kind: 'tools',
        calls: [{ name: 'web_search', arguments: { query: '个税 新规 2026', recency: 'oneYear' } }],
      },
      { kind: 'text', text: '根据 [1] https://example.gov.cn/tax ，扣除提高了。' },
    );
    // A search sends the model's words out: it asks each time, in every mode (issue 37), unless
    // the person's config says web_search: allow.
    writeFileSync(join(e.home, 'config.yaml'), 'web_search: allow\n');
    const r = await zhi(['-c', '个税新规有什么变化？']);
    expect(r.code).toBe(0);
    const search = fake.requests.find((q) => q.path.endsWith('/web_search'))!;
    expect(search.body).toMatchObject({
      search_query: '个税 新规 2026',
      search_engine: 'search_std',
      search_recency_filter: 'oneYear',
    });
    expect(r.stderr).toContain('[1] 个税新规解读 — https://example.gov.cn/tax');
    expect(r.stderr).toContain('[2] Tax rules 2026 — https://example.com/tax');
    const toolResult = fake.chatBodies()[1].messages.find((m: { role: string }) => m.role === 'tool').content;
    expect(toolResult).toContain('https://example.gov.cn/tax');
    expect(toolResult).toContain('Cite only these sources');
    // web_search waits for tool_search (or a call by name), then goes with every request.
    const sent = (i: number) =>
      fake.chatBodies()[i].tools.map((t: { function: { name: string } }) => t.function.name);
    expect(sent(0)).not.toContain('web_search');
    expect(sent(0)).toContain('tool_search');
    expect(sent(1)).toContain('web_search');
    const usage = await zhi(['usage', '--by', 'model']);
    expect(usage.stdout).toMatch(/web-search\s+1\s.*¥0\.01/);
  });

  it('is not sent without a person to ask, --auto or not, and the person is told what it would have sent', async () => {
    fake.script(
      { kind: 'tools', calls: [{ name: 'web_search', arguments: { query: 'GLM-5.3 release' } }] },
      { kind: 'text', text: 'ok' },
      { kind: 'tools', calls: [{ name: 'web_search', arguments: { query: 'GLM-5.3 release' } }] },
      { kind: 'text', text: 'ok' },
    );
    expect((await zhi(['-c', 'news?'])).code).toBe(0);
    const auto = await zhi(['-c', 'news?', '--auto']);
    expect(auto.code).toBe(0);
    expect(auto.stderr).toContain('to web search: GLM-5.3 release');
    expect(fake.requests.some((q) => q.path.endsWith('/web_search'))).toBe(false);
  });

  it('uses search-prime on Z.ai', async () => {
    writeFileSync(join(e.home, 'config.yaml'), 'platform: zai\nweb_search: allow\n');
    fake.script(
      { kind: 'tools', calls: [{ name: 'web_search', arguments: { query: 'GLM-5.3 release' } }] },
      { kind: 'text', text: 'ok' },
    );
    expect((await zhi(['-c', 'news?'])).code).toBe(0);
    expect(fake.requests.find((q) => q.path.endsWith('/web_search'))!.body.search_engine).toBe(
      'search-prime',
    );
  });
});

describe('zhi models', () => {
  it('lists the registry with prices, free and unconfirmed marked, and what the account offers', async () => {
    const r = await zhi(['models']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/glm-4-flash\s+free/);
    expect(r.stdout).toMatch(/glm-5\s+≈¥4\.00\/¥18\.00\+/);
    expect(r.stdout).toContain('glm-5.3-flash');
    expect(r.stdout).toContain('glm-4v-plus'); // served by the account, unknown to the registry
    const zh = await zhi(['models'], { ZHI_LANGUAGE: 'zh' });
    expect(zh.stdout).toContain('免费');
  });
});
