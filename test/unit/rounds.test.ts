/**
 * Combining results in rounds (agent/skills/rounds.ts), shared by long documents and composite
 * skills: groups stay within their size, every round covers every item once and in order, the
 * rounds stop as soon as everything fits, and nothing is called when nothing needs combining.
 */
import { describe, expect, it } from 'vitest';
import type { Piece } from '../../src/agent/skills/long-doc-parts.js';
import {
  combineInRounds,
  groupBySize,
  nextRound,
  type RoundItem,
  type RoundsPlan,
  roundKey,
} from '../../src/agent/skills/rounds.js';

const render = (x: RoundItem) => `## ${x.from}-${x.to}\n${x.text}`;
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

function plan(fit: number, group: number): RoundsPlan {
  return {
    fit,
    group,
    render,
    piece: (g, round, i) => ({
      key: roundKey(round, i),
      label: `${g[0]!.from}-${g.at(-1)!.to}`,
      text: g.map(render).join('\n\n'),
      instruction: 'combine',
    }),
  };
}

/** Runs every round with a "model" that answers a quarter of what it was given. */
async function drive(items: RoundItem[], p: RoundsPlan, ratio = 4) {
  const calls: { round: number; piece: Piece }[] = [];
  const gen = combineInRounds(items, p, async function* (pieces, round) {
    for (const piece of pieces) calls.push({ round, piece });
    return pieces.map((x) => 'y'.repeat(Math.ceil(bytes(x.text) / ratio)));
  });
  let step = await gen.next();
  while (!step.done) step = await gen.next();
  return { result: step.value, calls };
}

const items = (n: number, size: number): RoundItem[] =>
  Array.from({ length: n }, (_, i) => ({ from: i + 1, to: i + 1, text: 'x'.repeat(size) }));

describe('groupBySize', () => {
  it('packs consecutive items up to the size, an item bigger than that alone', () => {
    const groups = groupBySize([3, 3, 3, 9, 2, 2], (x) => x, 6);
    expect(groups).toEqual([[3, 3], [3], [9], [2, 2]]);
  });
});

describe('combineInRounds', () => {
  it('makes no call when the items already fit', async () => {
    const { result, calls } = await drive(items(10, 100), plan(10_000, 2_000));
    expect(calls).toHaveLength(0);
    expect(result).toHaveLength(10);
  });

  it('combines in rounds until everything fits, every group within its size', async () => {
    const p = plan(6_000, 8_000);
    const { result, calls } = await drive(items(200, 1_000), p);
    // 200 KB at a quarter per round: 50 KB, then 12.5 KB, then 3 KB.
    expect(Math.max(...calls.map((c) => c.round))).toBe(3);
    for (const c of calls) expect(bytes(c.piece.text)).toBeLessThanOrEqual(8_000);
    // Keys are unique (each round's results are kept under their own name).
    expect(new Set(calls.map((c) => c.piece.key)).size).toBe(calls.length);
    // Each round covers items 1–200 once, in order.
    for (const round of [1, 2, 3]) {
      const labels = calls.filter((c) => c.round === round).map((c) => c.piece.label.split('-').map(Number));
      expect(labels[0]![0]).toBe(1);
      expect(labels.at(-1)![1]).toBe(200);
      for (let i = 1; i < labels.length; i++) expect(labels[i]![0]).toBe(labels[i - 1]![1]! + 1);
    }
    const out = result!;
    expect(nextRound(out, p)).toBeUndefined();
    expect(out.reduce((n, x) => n + bytes(`${render(x)}\n\n`), 0)).toBeLessThanOrEqual(6_000);
    expect(out[0]!.from).toBe(1);
    expect(out.at(-1)!.to).toBe(200);
  });

  it('an item bigger than a group is combined alone', async () => {
    const list = items(7, 1_000);
    list[3]!.text = 'z'.repeat(20_000);
    const { calls } = await drive(list, plan(10_000, 4_000));
    const alone = calls.find((c) => c.piece.label === '4-4');
    expect(alone?.round).toBe(1);
  });

  it('stops when combining cannot shrink the items (every group would hold one)', async () => {
    const p = plan(5_000, 4_000);
    const big = items(4, 3_000);
    expect(nextRound(big, p)).toBeUndefined();
    const { result, calls } = await drive(big, p);
    expect(calls).toHaveLength(0);
    expect(result).toHaveLength(4);
  });

  it('a model that does not shrink its input still ends (the items get fewer every round)', async () => {
    const { result, calls } = await drive(items(30, 1_000), plan(2_000, 4_000), 1);
    expect(calls.length).toBeGreaterThan(0);
    expect(result!.length).toBeLessThan(30);
  });

  it('an interrupted round ends the rounds with nothing', async () => {
    const gen = combineInRounds(items(50, 1_000), plan(5_000, 8_000), async function* () {
      yield { type: 'warning', message: 'interrupted' };
      return undefined;
    });
    let step = await gen.next();
    while (!step.done) step = await gen.next();
    expect(step.value).toBeUndefined();
  });
});
