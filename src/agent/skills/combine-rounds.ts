/**
 * Results too long for one message, combined a group at a time: consecutive results are packed
 * into groups of at most a part's size, each group is combined by one call, and the combined
 * results go round again until all of them fit in one message. Shared by long documents (their
 * parts' results) and composite skills (their per-file results); the calls run through
 * `runPieces`, so every round's results are kept on disk (and read from there when a call is
 * made) and a rerun does not pay for them again.
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

/** A result kept somewhere (under `key`), the range of originals (parts, files; from 1) it stands for, and its size. */
export interface RoundItem {
  from: number;
  to: number;
  key: string;
  /** Its block's bytes in a message, with the blank line after it. */
  bytes: number;
}

export interface RoundsPlan {
  /** Bytes the combined results may take together: the rounds go on until they fit. */
  fit: number;
  /** Bytes of one group (one combining call's input). */
  group: number;
  /** An item as it is written in a message (a heading or a tag around its text), read when needed. */
  block(x: Omit<RoundItem, 'bytes'>): Promise<string>;
  /** The call that combines one group of round `round`; its result is kept under `key`. */
  piece(g: RoundItem[], key: string, round: number): Piece;
}

/** Runs one round's pieces (their results kept in the store): true when all have one, undefined when interrupted. */
export type RunRound = (pieces: Piece[], round: number) => AsyncGenerator<RunEvent, true | undefined>;

const SEP = '\n\n';

/** An item with its size measured from its block. */
export async function measured(x: Omit<RoundItem, 'bytes'>, block: RoundsPlan['block']): Promise<RoundItem> {
  return { ...x, bytes: Buffer.byteLength((await block(x)) + SEP, 'utf8') };
}

/** The bytes the items take in a message, written one after another. */
export function joinedBytes(items: RoundItem[]): number {
  return Math.max(0, items.reduce((n, x) => n + x.bytes, 0) - SEP.length);
}

/**
 * The groups of the next round, or undefined when none is needed (the items fit) or none would
 * help (every group would hold one item: combining cannot shrink them further).
 */
export function nextRound(
  items: RoundItem[],
  plan: { fit: number; group: number },
): RoundItem[][] | undefined {
  if (joinedBytes(items) <= plan.fit) return undefined;
  const groups = groupBySize(items, (x) => x.bytes, plan.group);
  return groups.length < items.length ? groups : undefined;
}

/**
 * Combine the items in rounds until they fit `plan.fit` (or cannot shrink further: the caller
 * decides what then). Every call's input is one group: at most `plan.group` bytes, or one item.
 * Texts are read when a call is made, never held for a whole round.
 */
export async function* combineInRounds(
  items: RoundItem[],
  plan: RoundsPlan,
  run: RunRound,
): AsyncGenerator<RunEvent, RoundItem[] | undefined> {
  let now = items;
  for (let round = 1; ; round++) {
    const groups = nextRound(now, plan);
    if (!groups) return now;
    const keys = groups.map((_, i) => roundKey(round, i));
    const done = yield* run(
      groups.map((g, i) => plan.piece(g, keys[i]!, round)),
      round,
    );
    if (!done) return undefined;
    const next: RoundItem[] = [];
    for (const [i, g] of groups.entries())
      next.push(await measured({ from: g[0]!.from, to: g.at(-1)!.to, key: keys[i]! }, plan.block));
    now = next;
  }
}

/** The items' blocks joined as a message has them (one group's text, or the final results). */
export async function joinedText(
  items: Omit<RoundItem, 'bytes'>[],
  block: RoundsPlan['block'],
): Promise<string> {
  return (await Promise.all(items.map(block))).join(SEP);
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

/** A piece's key in the store: `r2-0003` (round 2, group 3). */
export function roundKey(round: number, index: number): string {
  return `r${round}-${String(index + 1).padStart(4, '0')}`;
}
