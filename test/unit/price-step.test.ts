import { afterEach, describe, expect, it } from 'vitest';
import { inputStep, PriceStepWatch, priceStepLine } from '../../src/agent/price-step.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import { setLanguage } from '../../src/support/i18n/index.js';

afterEach(() => setLanguage('en'));

describe('price steps by prompt size', () => {
  it('knows glm-5 on BigModel costs 6 instead of 4 per million input tokens past 32k', () => {
    expect(inputStep('glm-5', PLATFORMS.bigmodel, 10_000)).toEqual({
      input: 4,
      from: 0,
      next: { from: 32_000, input: 6 },
      currency: 'CNY',
    });
    expect(inputStep('glm-5', PLATFORMS.bigmodel, 40_000)).toMatchObject({ input: 6, from: 32_000 });
    expect(inputStep('glm-5', PLATFORMS.zai, 40_000)).toBeUndefined();
  });

  it('warns once per model and step, before the call that crosses it, in the person’s language', () => {
    let model = 'glm-5';
    const watch = new PriceStepWatch(PLATFORMS.bigmodel, () => model);
    expect(watch.check(31_000)).toBeUndefined();
    expect(watch.check(33_000)).toBe(
      'This request is about 33k tokens, past the 32k-token price step of glm-5: input now costs ¥6.00 per million tokens instead of ¥4.00. /compact shrinks the conversation; /reset starts a new one.',
    );
    expect(watch.check(40_000)).toBeUndefined();
    setLanguage('zh');
    model = 'glm-5.1';
    expect(watch.check(50_000)).toBe(
      '本次请求约 50k token，已超过 glm-5.1 的 32k token 计价档：输入价格由每百万 token ¥6.00 变为 ¥8.00。/compact 可压缩对话，/reset 可开始新对话。',
    );
  });

  it('/usage says the step the conversation is in', () => {
    expect(priceStepLine('glm-5', PLATFORMS.bigmodel, 12_300)).toBe(
      'Price step: glm-5 with this conversation (≈ 12.3k tokens): input ¥4.00 per million tokens, ¥6.00 once a request passes 32k tokens.',
    );
    // Written as /usage and the status line write a count (issue 44 point 13: one figure, not 0k).
    expect(priceStepLine('glm-5', PLATFORMS.bigmodel, 850)).toContain('(≈ 850 tokens)');
    expect(priceStepLine('glm-5', PLATFORMS.bigmodel, 40_000)).toBe(
      'Price step: glm-5 with this conversation (≈ 40k tokens): input ¥6.00 per million tokens, the price above 32k tokens.',
    );
    expect(priceStepLine('glm-5', PLATFORMS.zai, 40_000)).toBeUndefined();
  });
});
