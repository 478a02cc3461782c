import { appendFileSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type Cost, costOf, DEFAULT_CHAT_MODEL } from '../llm/models.js';
import { type Currency, PLATFORMS, type PlatformId } from '../llm/platforms.js';
import type { Usage } from '../llm/types.js';
import type { UsagePurpose } from './sessions/format.js';

/**
 * The usage ledger: one JSON line per model call, across every session and skill run
 * (`<data dir>/usage.jsonl`). `zhi usage` reads it. Appends are single small writes, so several
 * zhi processes can share it; a damaged line is skipped when reading.
 */
export interface LedgerEntry {
  v: 1;
  time: string;
  session: string;
  kind: UsagePurpose;
  skill?: string;
  model: string;
  prompt: number;
  cached: number;
  completion: number;
  reasoning: number;
  total: number;
  cost: number;
  currency: Currency;
  platform: PlatformId;
  covered: boolean;
  /** Answered through the Batch API, at the batch price. */
  batch?: true;
}

export function ledgerEntry(o: {
  session: string;
  kind: UsagePurpose;
  skill?: string | undefined;
  model: string;
  usage: Usage;
  cost: Cost;
  platform: PlatformId;
  time?: Date;
}): LedgerEntry {
  return {
    v: 1,
    time: (o.time ?? new Date()).toISOString(),
    session: o.session,
    kind: o.kind,
    ...(o.skill ? { skill: o.skill } : {}),
    model: o.model,
    prompt: o.usage.promptTokens,
    cached: o.usage.cachedTokens,
    completion: o.usage.completionTokens,
    reasoning: o.usage.reasoningTokens,
    total: o.usage.totalTokens,
    cost: o.cost.amount,
    currency: o.cost.currency,
    platform: o.platform,
    covered: o.cost.covered,
    ...(o.usage.batch ? { batch: true as const } : {}),
  };
}

/**
 * Make the ledger (empty) if it is not there yet, ahead of its first entry: creating a file costs
 * several times an append. Best effort: the first entry makes it otherwise.
 */
export function prepareLedger(file: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    closeSync(openSync(file, 'a', 0o600));
  } catch {
    // appendLedger reports what fails
  }
}

/** Append one entry. Throws on I/O errors (the caller decides whether to warn). */
export function appendLedger(file: string, entry: LedgerEntry): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  appendFileSync(file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
}

export interface LedgerRead {
  entries: LedgerEntry[];
  skipped: number;
}

export function parseLedger(text: string, since?: Date): LedgerRead {
  const entries: LedgerEntry[] = [];
  let skipped = 0;
  const from = since?.toISOString();
  for (const raw of text.split('\n')) {
    if (!raw.trim()) continue;
    let e: LedgerEntry;
    try {
      e = JSON.parse(raw) as LedgerEntry;
    } catch {
      skipped += 1;
      continue;
    }
    if (!e || typeof e.time !== 'string' || typeof e.model !== 'string' || typeof e.total !== 'number') {
      skipped += 1;
      continue;
    }
    if (from && e.time < from) continue;
    entries.push(e);
  }
  return { entries, skipped };
}

export async function readLedger(file: string, since?: Date): Promise<LedgerRead> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], skipped: 0 };
    throw err;
  }
  return parseLedger(text, since);
}

export type GroupBy = 'model' | 'skill' | 'day' | 'kind';

export interface LedgerRow {
  key: string;
  calls: number;
  prompt: number;
  cached: number;
  completion: number;
  reasoning: number;
  total: number;
  /** Per currency: a ledger can hold calls made on both platforms. */
  cost: Partial<Record<Currency, number>>;
  /** Calls paid by a coding plan (cost 0, covered). */
  covered: number;
  /**
   * What the row's calls would have cost on GLM-5 (per currency), at the cached and batch prices
   * they got: calls that ran on GLM-5 or were paid by a plan count at what they cost.
   */
  onFlagship: Partial<Record<Currency, number>>;
  /** Calls whose GLM-5 price differs from what they paid; with none, the comparison says nothing. */
  compared: number;
}

function emptyRow(key: string): LedgerRow {
  return {
    key,
    calls: 0,
    prompt: 0,
    cached: 0,
    completion: 0,
    reasoning: 0,
    total: 0,
    cost: {},
    covered: 0,
    onFlagship: {},
    compared: 0,
  };
}

/** Local calendar day, as the user lives it. */
export function localDay(iso: string): string {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** The grouping key: `chat` and `compact` stand for themselves under --by skill. */
export function groupKey(e: LedgerEntry, by: GroupBy): string {
  switch (by) {
    case 'model':
      return e.model;
    case 'skill':
      return e.kind === 'skill' ? (e.skill ?? 'skill') : `(${e.kind})`;
    case 'day':
      return localDay(e.time);
    case 'kind':
      return e.kind;
  }
}

/** What an entry's tokens would cost on the flagship chat model, on the platform it ran on. */
export function flagshipCost(e: LedgerEntry): Cost {
  const platform = PLATFORMS[e.platform] ?? PLATFORMS.bigmodel;
  return costOf(
    DEFAULT_CHAT_MODEL,
    {
      promptTokens: e.prompt,
      completionTokens: e.completion,
      cachedTokens: e.cached,
      ...(e.batch ? { batch: true } : {}),
    },
    { ...platform, currency: e.currency, coveredByPlan: false },
  );
}

/**
 * An entry's part of a row's GLM-5 comparison. A call on GLM-5 already, or paid by a coding plan
 * (which would pay for GLM-5 too), counts at what it cost and compares nothing; any other call
 * counts at GLM-5's price. So a row's cost and its GLM-5 figure always sum the same calls.
 */
function onFlagship(e: LedgerEntry): { amount: number; compared: boolean } {
  if (e.covered || e.model === DEFAULT_CHAT_MODEL) return { amount: e.cost, compared: false };
  return { amount: flagshipCost(e).amount, compared: true };
}

/** Sum entries per group (in first-seen order for models and skills; by date for days) plus a total row. */
export function aggregate(entries: LedgerEntry[], by: GroupBy): { rows: LedgerRow[]; total: LedgerRow } {
  const rows = new Map<string, LedgerRow>();
  const total = emptyRow('total');
  for (const e of entries) {
    const key = groupKey(e, by);
    const row = rows.get(key) ?? emptyRow(key);
    rows.set(key, row);
    for (const r of [row, total]) {
      r.calls += 1;
      r.prompt += e.prompt;
      r.cached += e.cached;
      r.completion += e.completion;
      r.reasoning += e.reasoning;
      r.total += e.total;
      r.cost[e.currency] = (r.cost[e.currency] ?? 0) + e.cost;
      if (e.covered) r.covered += 1;
      const f = onFlagship(e);
      r.onFlagship[e.currency] = (r.onFlagship[e.currency] ?? 0) + f.amount;
      if (f.compared) r.compared += 1;
    }
  }
  const list = [...rows.values()];
  if (by === 'day') list.sort((a, b) => a.key.localeCompare(b.key));
  else list.sort((a, b) => b.total - a.total);
  return { rows: list, total };
}

/** `7d`, `24h`, `2w`, `3m` (months), or a date `2026-03-01`. Undefined when not understood. */
export function parseSince(text: string, now = new Date()): Date | undefined {
  const m = /^(\d+)\s*([hdwm])$/i.exec(text.trim());
  if (m) {
    const n = Number(m[1]);
    const unit = m[2]!.toLowerCase();
    const d = new Date(now);
    if (unit === 'h') d.setHours(d.getHours() - n);
    else if (unit === 'd') d.setDate(d.getDate() - n);
    else if (unit === 'w') d.setDate(d.getDate() - 7 * n);
    else d.setMonth(d.getMonth() - n);
    return d;
  }
  const day = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text.trim());
  if (day) {
    const d = new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
    return Number.isNaN(d.getTime()) ? undefined : d;
  }
  return undefined;
}
