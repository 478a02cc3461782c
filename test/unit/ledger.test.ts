import { describe, expect, it } from 'vitest';
import {
  aggregate,
  flagshipCost,
  type LedgerEntry,
  ledgerEntry,
  parseLedger,
  parseSince,
} from '../../src/agent/ledger.js';
import { costOf } from '../../src/llm/models.js';
import { PLATFORMS } from '../../src/llm/platforms.js';

const entry = (over: Partial<LedgerEntry>): LedgerEntry => ({
  v: 1,
  time: '2026-03-14T08:00:00.000Z',
  session: 's1',
  kind: 'chat',
  model: 'glm-5',
  prompt: 1000,
  cached: 0,
  completion: 100,
  reasoning: 0,
  total: 1100,
  cost: 0.0058,
  currency: 'CNY',
  platform: 'bigmodel',
  covered: false,
  ...over,
});

describe('ledger', () => {
  it('builds an entry from a call', () => {
    const usage = {
      promptTokens: 2000,
      completionTokens: 300,
      totalTokens: 2300,
      cachedTokens: 500,
      reasoningTokens: 100,
    };
    const cost = costOf('glm-5', usage, PLATFORMS.zai);
    expect(
      ledgerEntry({
        session: 's',
        kind: 'skill',
        skill: 'translate',
        model: 'glm-5',
        usage,
        cost,
        platform: 'zai',
      }),
    ).toMatchObject({
      kind: 'skill',
      skill: 'translate',
      prompt: 2000,
      cached: 500,
      completion: 300,
      reasoning: 100,
      total: 2300,
      currency: 'USD',
      cost: cost.amount,
    });
  });

  it('skips damaged lines (a torn last line) and filters by time', () => {
    const text = [
      JSON.stringify(entry({ time: '2026-03-01T00:00:00.000Z' })),
      JSON.stringify(entry({ time: '2026-03-10T00:00:00.000Z' })),
      'not json',
      JSON.stringify({ hello: 1 }),
      '{"v":1,"time":"2026-03-1',
    ].join('\n');
    expect(parseLedger(text)).toMatchObject({ skipped: 3 });
    expect(parseLedger(text).entries).toHaveLength(2);
    expect(parseLedger(text, new Date('2026-03-05T00:00:00.000Z')).entries).toHaveLength(1);
  });

  it('sums per model, skill and day, with a total that equals the sum of the rows', () => {
    const entries = [
      entry({ model: 'glm-5', prompt: 1000, completion: 100, total: 1100, cost: 0.01 }),
      entry({ model: 'glm-5', prompt: 3000, cached: 1000, completion: 200, total: 3200, cost: 0.02 }),
      entry({
        kind: 'skill',
        skill: 'translate',
        model: 'glm-4-flash',
        prompt: 50_000,
        completion: 5000,
        total: 55_000,
        cost: 0,
      }),
      entry({
        kind: 'skill',
        skill: 'summarize',
        model: 'glm-4-flash',
        prompt: 10_000,
        completion: 1000,
        total: 11_000,
        cost: 0,
      }),
      entry({
        kind: 'compact',
        model: 'glm-4-flash',
        prompt: 8000,
        completion: 500,
        total: 8500,
        cost: 0,
        time: '2026-03-15T08:00:00.000Z',
      }),
    ];
    const byModel = aggregate(entries, 'model');
    expect(byModel.rows.map((r) => [r.key, r.calls, r.total])).toEqual([
      ['glm-4-flash', 3, 74_500],
      ['glm-5', 2, 4300],
    ]);
    expect(byModel.total).toMatchObject({
      calls: 5,
      prompt: 72_000,
      cached: 1000,
      completion: 6800,
      total: 78_800,
    });
    expect(byModel.total.cost.CNY).toBeCloseTo(0.03);
    const bySkill = aggregate(entries, 'skill');
    expect(bySkill.rows.map((r) => r.key)).toEqual(['translate', 'summarize', '(compact)', '(chat)']);
    const translate = bySkill.rows[0]!;
    // The two-model promise: free on glm-4-flash; on GLM-5 a 50K prompt is in the ≥32K tier (¥6/¥22).
    expect(translate.onFlagship.CNY).toBeCloseTo((50_000 * 6 + 5000 * 22) / 1e6);
    expect(bySkill.rows.find((r) => r.key === '(chat)')!.compared).toBe(0);
    const byDay = aggregate(entries, 'day');
    expect(byDay.rows.map((r) => r.calls)).toEqual([4, 1]);
  });

  it('compares a day with chat and skills on GLM-5 over the same calls as its cost', () => {
    const chat = entry({ model: 'glm-5', cost: 0.5 });
    const skill = entry({
      kind: 'skill',
      skill: 'summarize',
      model: 'glm-4-flash',
      prompt: 10_000,
      completion: 1000,
      total: 11_000,
      cost: 0,
    });
    const [day] = aggregate([chat, skill], 'day').rows;
    // The chat's ¥0.50 stays ¥0.50 on GLM-5; only the skill's tokens are priced anew (¥4 in, ¥18 out).
    expect(day!.cost.CNY).toBeCloseTo(0.5);
    expect(day!.onFlagship.CNY).toBeCloseTo(0.5 + (10_000 * 4 + 1000 * 18) / 1e6, 8);
    expect(day!.compared).toBe(1);
    // A day of chat alone has nothing to compare.
    expect(aggregate([chat], 'day').rows[0]!.compared).toBe(0);
  });

  it('prices a batch call at the batch price on GLM-5 too, and leaves plan-paid calls out', () => {
    const tokens = {
      kind: 'skill' as const,
      model: 'glm-4-flash',
      prompt: 10_000,
      completion: 1000,
      total: 11_000,
      cost: 0,
    };
    const online = flagshipCost(entry(tokens)).amount;
    expect(flagshipCost(entry({ ...tokens, batch: true })).amount).toBeCloseTo(online / 2, 10);
    const plan = aggregate([entry({ ...tokens, platform: 'bigmodel-coding', covered: true })], 'kind').total;
    expect(plan.compared).toBe(0);
    expect(plan.onFlagship.CNY).toBe(0);
  });

  it('keeps currencies apart and counts plan-covered calls', () => {
    const entries = [
      entry({ cost: 0.5, currency: 'CNY' }),
      entry({ cost: 0.1, currency: 'USD', platform: 'zai' }),
      entry({ cost: 0, covered: true, platform: 'zai-coding', currency: 'USD' }),
    ];
    const { total } = aggregate(entries, 'model');
    expect(total.cost).toEqual({ CNY: 0.5, USD: 0.1 });
    expect(total.covered).toBe(1);
  });

  it('prices the flagship comparison on the platform the call ran on, even on a plan', () => {
    const e = entry({
      kind: 'skill',
      platform: 'zai-coding',
      currency: 'USD',
      prompt: 1_000_000,
      completion: 0,
      total: 1_000_000,
    });
    expect(flagshipCost(e)).toMatchObject({ amount: 1, currency: 'USD', covered: false });
  });

  it('understands --since', () => {
    const now = new Date('2026-03-14T12:00:00');
    expect(parseSince('7d', now)).toEqual(new Date('2026-03-07T12:00:00'));
    expect(parseSince('24h', now)).toEqual(new Date('2026-03-13T12:00:00'));
    expect(parseSince('2w', now)).toEqual(new Date('2026-02-28T12:00:00'));
    expect(parseSince('1m', now)).toEqual(new Date('2026-02-14T12:00:00'));
    expect(parseSince('2026-03-01', now)).toEqual(new Date('2026-03-01T00:00:00'));
    expect(parseSince('yesterday', now)).toBeUndefined();
    expect(parseSince('7x', now)).toBeUndefined();
  });
});
