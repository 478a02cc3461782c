/**
 * Combining results in rounds (agent/skills/combine-rounds.ts), shared by long documents and composite
 * skills: groups stay within their size, every round covers every item once and in order, the
 * rounds stop as soon as everything fits, and nothing is called when nothing needs combining.
 */
import { describe, expect, it } from 'vitest';
import {
  combineInRounds,
  groupBySize,
  joinedBytes,
  joinedText,
  measured,
  nextRound,
  type RoundItem,
  type RoundsPlan,
} from '../../src/agent/skills/combine-rounds.js';

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** Results kept by key, as a PartStore keeps them. */
type Kept = Map<string, string>;
type Span = Omit<RoundItem, 'bytes'>;

function plan(kept: Kept, fit: number, group: number): RoundsPlan {
  const block = async (x: Span) => `## ${x.from}-${x.to}\n${kept.get(x.key) ?? ''}`;
  return {
    fit,
    group,
    block,
    piece: (g, key) => ({
      key,
      label: `${g[0]!.from}-${g.at(-1)!.to}`,
      text: () => joinedText(g, block),
      instruction: 'combine',
    }),
  };
}

/** Runs every round with a "model" that answers a fraction of what it was given. */
async function drive(kept: Kept, items: RoundItem[], p: RoundsPlan, ratio = 4) {
  const calls: { round: number; key: string; label: string; text: string }[] = [];
  const gen = combineInRounds(items, p, async function* (pieces, round) {
    for (const piece of pieces) {
      const text = await piece.text();
      calls.push({ round, key: piece.key, label: piece.label, text });
      kept.set(piece.key, 'y'.repeat(Math.ceil(bytes(text) / ratio)));
    }
    yield { type: 'warning', message: `round ${round}` };
    return true;
  });
  let step = await gen.next();
  while (!step.done) step = await gen.next();
  return { result: step.value, calls };
}

/** n results of `size` bytes, kept as `f1`…, measured. */
async function items(kept: Kept, n: number, size: number, p: RoundsPlan): Promise<RoundItem[]> {
  const out: RoundItem[] = [];
  for (let i = 1; i <= n; i++) {
    kept.set(`f${i}`, 'x'.repeat(size));
    out.push(await measured({ from: i, to: i, key: `f${i}` }, p.block));
  }
  return out;
}

describe('groupBySize', () => {
  it('packs consecutive items up to the size, an item bigger than that alone', () => {
    const groups = groupBySize([3, 3, 3, 9, 2, 2], (x) => x, 6);
    expect(groups).toEqual([[3, 3], [3], [9], [2, 2]]);
  });
});

describe('combineInRounds', () => {
  it('makes no call when the items already fit', async () => {
    const kept: Kept = new Map();
    const p = plan(kept, 10_000, 2_000);
    const { result, calls } = await drive(kept, await items(kept, 10, 100, p), p);
    expect(calls).toHaveLength(0);
    expect(result).toHaveLength(10);
  });

  it('combines in rounds until everything fits, every group within its size', async () => {
    const kept: Kept = new Map();
    const p = plan(kept, 6_000, 8_000);
    const { result, calls } = await drive(kept, await items(kept, 200, 1_000, p), p);
    // 200 KB at a quarter per round: 50 KB, then 12.5 KB, then 3 KB.
    expect(Math.max(...calls.map((c) => c.round))).toBe(3);
    for (const c of calls) expect(bytes(c.text)).toBeLessThanOrEqual(8_000);
    // Keys are unique (each round's results are kept under their own name).
    expect(new Set(calls.map((c) => c.key)).size).toBe(calls.length);
    // Each round covers items 1–200 once, in order.
    for (const round of [1, 2, 3]) {
      const ranges = calls.filter((c) => c.round === round).map((c) => c.label.split('-').map(Number));
      expect(ranges[0]![0]).toBe(1);
      expect(ranges.at(-1)![1]).toBe(200);
      for (let i = 1; i < ranges.length; i++) expect(ranges[i]![0]).toBe(ranges[i - 1]![1]! + 1);
    }
    const out = result!;
    expect(nextRound(out, p)).toBeUndefined();
    expect(joinedBytes(out)).toBeLessThanOrEqual(6_000);
    expect(bytes(await joinedText(out, p.block))).toBe(joinedBytes(out));
    expect(out[0]!.from).toBe(1);
    expect(out.at(-1)!.to).toBe(200);
  });

  it('an item bigger than a group is combined alone', async () => {
    const kept: Kept = new Map();
    const p = plan(kept, 10_000, 4_000);
    const list = await items(kept, 7, 1_000, p);
    kept.set('f4', 'z'.repeat(20_000));
    list[3] = await measured({ from: 4, to: 4, key: 'f4' }, p.block);
    const { calls } = await drive(kept, list, p);
    expect(calls.find((c) => c.label === '4-4')?.round).toBe(1);
  });

  it('stops when combining cannot shrink the items (every group would hold one)', async () => {
    const kept: Kept = new Map();
    const p = plan(kept, 5_000, 4_000);
    const big = await items(kept, 4, 3_000, p);
    expect(nextRound(big, p)).toBeUndefined();
    const { result, calls } = await drive(kept, big, p);
    expect(calls).toHaveLength(0);
    expect(result).toHaveLength(4);
  });

  it('a model that does not shrink its input still ends (the items get fewer every round)', async () => {
    const kept: Kept = new Map();
    const p = plan(kept, 2_000, 4_000);
    const { result, calls } = await drive(kept, await items(kept, 30, 1_000, p), p, 1);
    expect(calls.length).toBeGreaterThan(0);
    expect(result!.length).toBeLessThan(30);
  });

  it('an interrupted round ends the rounds with nothing', async () => {
    const kept: Kept = new Map();
    const p = plan(kept, 5_000, 8_000);
    const gen = combineInRounds(await items(kept, 50, 1_000, p), p, async function* () {
      yield { type: 'warning', message: 'interrupted' };
      return undefined;
    });
    let step = await gen.next();
    while (!step.done) step = await gen.next();
    expect(step.value).toBeUndefined();
  });
});
