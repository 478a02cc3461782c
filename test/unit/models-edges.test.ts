import { describe, expect, it } from 'vitest';
import { modelRows } from '../../src/cli/render/model-rows.js';
import { ZhipuClient } from '../../src/llm/client.js';
import { classifyHttpError } from '../../src/llm/errors.js';
import { costOf, formatCost, modelInfo, tierFor } from '../../src/llm/models.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import { BoxMarkerFilter, repairLine } from '../../src/llm/stream-repair.js';
import { setLanguage } from '../../src/support/i18n/index.js';

const tokens = (promptTokens: number, completionTokens: number) => ({
  promptTokens,
  completionTokens,
  cachedTokens: 0,
});

describe('stream repair', () => {
  it('recovers the whole frame glued behind a cut one, and salvages whole text from the cut one', () => {
    const cut = '{"id":"1","choices":[{"index":0,"delta":{"role":"assistant","content":"**Ol"}}';
    const whole = '{"id":"2","choices":[{"index":0,"delta":{"role":"assistant","content":"á!**"}}]}';
    const fixed = repairLine<{ id: string }>(`${cut}data: ${whole}`);
    expect(fixed.frames.map((f) => f.id)).toEqual(['2']);
    expect(fixed.damaged).toBe(1);
    expect(fixed.salvaged).toEqual([{ field: 'content', text: '**Ol' }]);
  });

  it('loses a half string rather than inventing text', () => {
    const fixed = repairLine('{"choices":[{"delta":{"content":"half of it');
    expect(fixed.frames).toEqual([]);
    expect(fixed.salvaged).toEqual([]);
    expect(fixed.damaged).toBe(1);
  });

  it('does not split a frame whose text contains "data: {"', () => {
    const frame = '{"id":"3","choices":[{"delta":{"content":"see data: {x}"}}]}';
    const fixed = repairLine<{ id: string }>(`{"id":"cut","obj${'data: '}${frame}`);
    expect(fixed.frames.map((f) => f.id)).toEqual(['3']);
  });

  it('box markers are removed even when split across deltas, other text untouched', () => {
    const f = new BoxMarkerFilter();
    const out =
      ['<|beg', 'in_of_box|>4', '2<|end_of', '_box|> a <b> <|x'].map((p) => f.push(p)).join('') + f.flush();
    expect(out).toBe('42 a <b> <|x');
  });
});

describe('prices', () => {
  const bigmodel = PLATFORMS.bigmodel;
  it('BigModel tiers GLM-5 by prompt length: ¥4/¥18 below 32K, ¥6/¥22 from 32K', () => {
    expect(costOf('glm-5', tokens(10_000, 1000), bigmodel).amount).toBeCloseTo(
      (10_000 * 4 + 1000 * 18) / 1e6,
    );
    expect(costOf('glm-5', tokens(40_000, 1000), bigmodel).amount).toBeCloseTo(
      (40_000 * 6 + 1000 * 22) / 1e6,
    );
  });
  it('GLM-4.7 on BigModel is dearer once the answer passes 200 tokens', () => {
    const price = modelInfo('glm-4.7').prices.bigmodel!;
    expect(tierFor(price, tokens(1000, 100)).output).toBe(8);
    expect(tierFor(price, tokens(1000, 300)).output).toBe(14);
  });
  it('marks unconfirmed and unknown prices with ≈, confirmed ones without', () => {
    expect(formatCost(costOf('glm-5', tokens(1000, 0), bigmodel))).toMatch(/^≈¥/);
    expect(formatCost(costOf('glm-5', tokens(1000, 0), PLATFORMS.zai))).toMatch(/^\$/);
    expect(costOf('glm-9-future', tokens(1000, 0), bigmodel).approx).toBe(true);
  });
  it('a web search costs its per-use price', () => {
    expect(costOf('web-search', tokens(0, 0), PLATFORMS.zai).amount).toBeCloseTo(0.01);
  });
});

describe('request body', () => {
  const client = new ZhipuClient({ baseUrl: 'http://x', apiKey: 'k' });
  const req = (model: string, thinking: boolean, effort?: 'low' | 'high') => ({
    model,
    messages: [{ role: 'user' as const, content: 'hi' }],
    thinking,
    ...(effort ? { effort } : {}),
  });
  it('an unknown model gets no thinking parameter unless it is turned off', () => {
    expect(client.body(req('glm-9-preview', true), true).thinking).toBeUndefined();
    expect(client.body(req('glm-9-preview', false), true).thinking).toEqual({ type: 'disabled' });
  });
  it("a platform's model prefix goes on the wire only, once", () => {
    const prefixed = new ZhipuClient({ baseUrl: 'http://x', apiKey: 'k', modelPrefix: 'z-ai/' });
    expect(prefixed.body(req('glm-4.6', true), true).model).toBe('z-ai/glm-4.6');
    expect(prefixed.body(req('z-ai/glm-4.6', true), true).model).toBe('z-ai/glm-4.6');
    // The registry's facts still apply: a known model gets its thinking parameter.
    expect(prefixed.body(req('glm-4.6', false), true).thinking).toEqual({ type: 'disabled' });
    expect(client.body(req('glm-4.6', true), true).model).toBe('glm-4.6');
  });
  it('/fast on GLM-4.7 sends disabled; GLM-5.3 stays enabled', () => {
    expect(client.body(req('glm-4.7', false), true).thinking).toEqual({ type: 'disabled' });
    expect(client.body(req('glm-5.3', false), true).thinking).toEqual({ type: 'enabled' });
  });
  it('reasoning_effort only where the model takes it and thinking is on', () => {
    expect(client.body(req('glm-5.3', true, 'high'), true).reasoning_effort).toBe('high');
    expect(client.body(req('glm-5.2', false, 'high'), true).reasoning_effort).toBeUndefined();
    expect(client.body(req('glm-5', true, 'high'), true).reasoning_effort).toBeUndefined();
  });
});

describe('errors', () => {
  it('a Spring 404 is a wrong base URL, not a wrong model', () => {
    const e = classifyHttpError(
      404,
      '{"timestamp":"2024-09-17T01:04:34.633+00:00","status":404,"error":"Not Found","path":"/v4/chat/completions"}',
    );
    expect(e.code).toBe('wrong_base_url');
  });
  it('1308 carries its reset time', () => {
    const e = classifyHttpError(
      429,
      JSON.stringify({
        error: {
          code: '1308',
          message: 'Usage limit reached for 5 hour. Your limit will reset at 2026-11-23 18:30:00',
        },
      }),
    );
    expect(e).toMatchObject({ kind: 'rate_limit', retryable: false, resetAt: '2026-11-23 18:30:00' });
  });
});

describe('/model and zhi models: each trait said once (issue 44 point 21)', () => {
  it('no description repeats a trait listed after it, in either language', () => {
    for (const lang of ['en', 'zh'] as const) {
      setLanguage(lang);
      for (const [id, , text] of modelRows(PLATFORMS.bigmodel)) {
        for (const trait of ['always thinks', 'sees images', 'no tools', '总是思考', '始终思考', '看图']) {
          expect(text!.split(trait).length - 1, `${id}: ${text}`).toBeLessThanOrEqual(1);
        }
      }
    }
    setLanguage('en');
  });
});
