/**
 * Results too long for one message, combined a group at a time: consecutive results are packed
 * into groups of at most a part's size, each group is combined by one call, and the combined
 * results go round again until all of them fit in one message. Shared by long documents (their
 * parts' results) and composite skills (their per-file results); the calls run through
 * `runPieces`, so every round's results are kept on disk and a rerun does not pay for them again.
 */
import { findModel } from '../../llm/models.js';
import type { RunEvent } from '../events.js';
import type { Piece } from './long-doc-parts.js';

/** A part's size: well inside any model's window, leaving room for the prompt and the answer. */
export const PART_BYTES = 60 * 1024;

/** The part size for a model: 60 KB, less for a model with a small window. */
export function partBytes(model: string): number {
  return Math.min(PART_BYTES, Math.floor((findModel(model)?.contextWindow ?? 128_000) * 1.2));
}

/** A result and the range of originals (parts, files; numbered from 1) it stands for. */
export interface RoundItem {
  from: number;
  to: number;
  text: string;
}

export interface RoundsPlan {
  /** Bytes the combined results may take together: the rounds go on until they fit. */
  fit: number;
  /** Bytes of one group (one combining call's input). */
  group: number;
  /** An item as it is written in a message (a heading or a tag around its text). */
  render(x: RoundItem): string;
  /** The call that combines one group of round `round` (its key must be unique in the store). */
  piece(g: RoundItem[], round: number, index: number): Piece;
}

/** Runs one round's pieces: their results in order, or undefined when interrupted. */
export type RunRound = (pieces: Piece[], round: number) => AsyncGenerator<RunEvent, string[] | undefined>;

const SEP = '\n\n';

/** The bytes the items take in a message, written one after another. */
export function renderedBytes(items: RoundItem[], render: (x: RoundItem) => string): number {
  return items.reduce((n, x) => n + Buffer.byteLength(render(x) + SEP, 'utf8'), 0);
}

/**
 * The groups of the next round, or undefined when none is needed (the items fit) or none would
 * help (every group would hold one item: combining cannot shrink them further).
 */
export function nextRound(items: RoundItem[], plan: Omit<RoundsPlan, 'piece'>): RoundItem[][] | undefined {
  if (renderedBytes(items, plan.render) <= plan.fit) return undefined;
  const groups = groupBySize(items, (x) => Buffer.byteLength(plan.render(x) + SEP, 'utf8'), plan.group);
  return groups.length < items.length ? groups : undefined;
}

/**
 * Combine the items in rounds until they fit `plan.fit` (or cannot shrink further: the caller
 * decides what then). Every call's input is one group: at most `plan.group` bytes, or one item.
 */
export async function* combineInRounds(
  items: RoundItem[],
  plan: RoundsPlan,
  run: RunRound,
): AsyncGenerator<RunEvent, RoundItem[] | undefined> {
  let now = items.map((x) => ({ ...x, text: x.text.trim() }));
  for (let round = 1; ; round++) {
    const groups = nextRound(now, plan);
    if (!groups) return now;
    const got = yield* run(
      groups.map((g, i) => plan.piece(g, round, i)),
      round,
    );
    if (!got) return undefined;
    now = groups.map((g, i) => ({ from: g[0]!.from, to: g.at(-1)!.to, text: got[i]!.trim() }));
  }
}

/** Consecutive items packed into groups of at most `max` bytes (an item bigger than that alone). */
export function groupBySize<T>(items: T[], size: (x: T) => number, max: number): T[][] {
  const groups: T[][] = [];
  let used = 0;
  for (const x of items) {
    const n = size(x);
    const last = groups.at(-1);
    if (last && used + n <= max) {
      last.push(x);
      used += n;
    } else {
      groups.push([x]);
      used = n;
    }
  }
  return groups;
}

/** A piece's key in the store: `r2-0003` (round 2, group 3), after an optional prefix. */
export function roundKey(round: number, index: number, prefix = ''): string {
  return `${prefix}r${round}-${String(index + 1).padStart(4, '0')}`;
}
