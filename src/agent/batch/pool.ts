/**
 * A bounded, adaptive worker pool for folder runs. Items start in order and results come back in
 * that order whatever finishes first. The pool listens to the API: a rate limit (1302/1303)
 * halves how many run at once and puts the item back; an overload (1305) pauses new starts for a
 * growing while and puts the item back; a stop (1113 balance, bad key) starts nothing more and
 * lets what runs finish. After a run of successes the pool grows back by one, up to `jobs`.
 */

/** Files at once when nothing else is said. */
export const DEFAULT_JOBS = 4;

export type Attempt<R> =
  | { kind: 'done'; value: R }
  /** Failed for good: kept as the item's result, the pool goes on. */
  | { kind: 'failed'; value: R }
  /** The API pushed back: try the item again later, with less pressure. */
  | { kind: 'retry'; reason: 'rate_limit' | 'overloaded'; value: R }
  /** Nothing more should start (no balance, bad key): the item keeps this result. */
  | { kind: 'stop'; value: R };

export type PoolOutcome<R> =
  | { status: 'done' | 'failed'; value: R; attempts: number }
  /** Never finished: the pool stopped, or the run was interrupted, before it. */
  | { status: 'skipped'; value?: R | undefined; attempts: number };

export interface PoolControl {
  /** The API complained while the item ran (a retried 1302): slow down without failing it. */
  pressure(reason: 'rate_limit' | 'overloaded'): void;
  /** How many may run at once right now. */
  readonly limit: number;
}

export interface PoolOptions<R> {
  jobs: number;
  signal: AbortSignal;
  /** Times an item is put back after rate limits or overloads before it counts as failed. */
  maxRetries?: number;
  /** First pause after an overload; doubles on each one in a row, up to `maxPauseMs`. */
  pauseMs?: number;
  maxPauseMs?: number;
  /** Successes in a row before the pool grows back by one. */
  growAfter?: number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Each item as it ends (in the order they end). */
  onSettled?(index: number, outcome: PoolOutcome<R>): void;
  /** Each item as it starts (again). */
  onStart?(index: number, attempt: number): void;
  /** Why the pool stopped starting items, when it did. */
  onStop?(index: number): void;
}

export interface PoolStats {
  /** The most items that ran at once. */
  peak: number;
  /** The limit the pool ended with. */
  limit: number;
  /** Items put back after the API pushed back. */
  retries: number;
  stopped: boolean;
}

const wait = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/** Run `work` on every item, at most `jobs` at once, adapting to the API; results in item order. */
export async function runPool<T, R>(
  items: readonly T[],
  work: (item: T, index: number, ctl: PoolControl) => Promise<Attempt<R>>,
  o: PoolOptions<R>,
): Promise<{ outcomes: PoolOutcome<R>[]; stats: PoolStats }> {
  const jobs = Math.max(1, Math.floor(o.jobs));
  const maxRetries = o.maxRetries ?? 6;
  const sleep = o.sleep ?? wait;
  const outcomes: PoolOutcome<R>[] = items.map(() => ({ status: 'skipped', attempts: 0 }));
  const queue = items.map((_, i) => i);
  const stats: PoolStats = { peak: 0, limit: jobs, retries: 0, stopped: false };
  let running = 0;
  let streak = 0;
  let pauseUntil = 0;
  let overloads = 0;
  let wake: (() => void) | undefined;
  const nudge = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };

  const slow = (reason: 'rate_limit' | 'overloaded') => {
    streak = 0;
    stats.limit = Math.max(1, Math.floor(stats.limit / 2));
    if (reason === 'overloaded') {
      const pause = Math.min(o.maxPauseMs ?? 60_000, (o.pauseMs ?? 2000) * 2 ** overloads);
      overloads += 1;
      pauseUntil = Math.max(pauseUntil, Date.now() + pause);
    }
  };
  const ctl: PoolControl = {
    pressure: slow,
    get limit() {
      return stats.limit;
    },
  };

  const settle = (index: number, attempt: Attempt<R>) => {
    const prev = outcomes[index]!;
    const attempts = prev.attempts;
    if (attempt.kind === 'retry' && attempts <= maxRetries && !stats.stopped && !o.signal.aborted) {
      stats.retries += 1;
      slow(attempt.reason);
      outcomes[index] = { status: 'skipped', value: attempt.value, attempts };
      queue.unshift(index);
      return;
    }
    if (attempt.kind === 'done') {
      streak += 1;
      overloads = 0;
      if (streak >= (o.growAfter ?? 4) && stats.limit < jobs) {
        stats.limit += 1;
        streak = 0;
      }
    }
    if (attempt.kind === 'stop' && !stats.stopped) {
      stats.stopped = true;
      o.onStop?.(index);
    }
    const status = attempt.kind === 'done' ? 'done' : 'failed';
    outcomes[index] = { status, value: attempt.value, attempts };
    o.onSettled?.(index, outcomes[index]!);
  };

  const start = (index: number) => {
    running += 1;
    stats.peak = Math.max(stats.peak, running);
    const attempts = outcomes[index]!.attempts + 1;
    outcomes[index] = { ...outcomes[index]!, attempts } as PoolOutcome<R>;
    o.onStart?.(index, attempts);
    work(items[index]!, index, ctl)
      .then(
        (attempt) => settle(index, attempt),
        (err: unknown) => {
          // A bug or an unexpected throw: the pool stops starting, the error reaches the caller.
          stats.stopped = true;
          failure ??= err;
        },
      )
      .finally(() => {
        running -= 1;
        nudge();
      });
  };

  let failure: unknown;
  while (true) {
    const canStart = !stats.stopped && !o.signal.aborted && queue.length > 0;
    if (!canStart && running === 0) break;
    if (canStart && running < stats.limit) {
      const now = Date.now();
      if (pauseUntil > now) {
        if (running === 0) {
          await sleep(pauseUntil - now, o.signal);
          pauseUntil = 0;
        } else await new Promise<void>((r) => (wake = r));
        continue;
      }
      start(queue.shift()!);
      continue;
    }
    await new Promise<void>((r) => {
      wake = r;
    });
  }
  if (failure) throw failure;
  return { outcomes, stats };
}
