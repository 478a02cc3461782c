/**
 * A bounded, adaptive worker pool for folder runs. Items start in order and results come back in
 * that order whatever finishes first. The pool listens to the API: a rate limit (1302/1303)
 * halves how many run at once and puts the item back; an overload (1305) pauses new starts for a
 * growing while and puts the item back; a stop (1113 balance, bad key) starts nothing more and
 * lets what runs finish. After a run of successes the pool grows back by one, up to `jobs`, and
 * never above the API's cap once the calls have taught it (`caps`, the run's call gate).
 */

import { AsyncQueue } from '../queue.js';
import type { CapSource } from './call-gate.js';

/** Files at once when nothing else is said. */
export const DEFAULT_JOBS = 4;

export type Attempt<R> =
  | { kind: 'done'; value: R }
  /** Failed for good: kept as the item's result, the pool goes on. */
  | { kind: 'failed'; value: R }
  /** The API pushed back, or could not be reached: try the item again later, with less pressure. */
  | { kind: 'retry'; reason: PushBack; value: R }
  /** Nothing more should start (no balance, bad key): the item keeps this result. */
  | { kind: 'stop'; value: R };

export type PoolOutcome<R> =
  | { status: 'done' | 'failed'; value: R; attempts: number }
  /** Never finished: the pool stopped, or the run was interrupted, before it. */
  | { status: 'skipped'; value?: R | undefined; attempts: number };

/**
 * Why an item is put back: too many at once (1302/1303), the API overloaded (1305), the API not
 * reachable (connection refused or dropped mid-answer, a timeout), or a server error (a 5xx).
 */
export type PushBack = 'rate_limit' | 'overloaded' | 'network' | 'server';

/** Network or server failures in a row, with no success between, that make an outage. */
export const OUTAGE_AFTER = 3;

export interface PoolControl {
  /** The API complained while the item ran (a retried 1302): slow down without failing it. */
  pressure(reason: PushBack): void;
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
  /** Where the API's cap is learned (the run's call gate): the pool settles there. */
  caps?: CapSource | undefined;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Each item as it ends (in the order they end). */
  onSettled?(index: number, outcome: PoolOutcome<R>): void;
  /** Each item as it starts (again). */
  onStart?(index: number, attempt: number): void;
  /** Why the pool stopped starting items, when it did. */
  onStop?(index: number): void;
  /**
   * The API could not be reached, or answered only errors, several calls in a row: nothing
   * starts for `ms` (said once per outage). One failure alone is only tried again.
   */
  onPause?(ms: number, why: 'network' | 'server'): void;
  /** The API answered again after an outage. */
  onResume?(): void;
  /** How many may run at once changed (a run's shared call budget follows it). */
  onLimit?(limit: number): void;
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

/** Sleep `ms`, or less when the signal fires (folder runs and batch polling wait this way). */
export const wait = (ms: number, signal: AbortSignal): Promise<void> =>
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

type Work<T, R> = (item: T, index: number, ctl: PoolControl) => Promise<Attempt<R>>;

/** Run `work` on every item, at most `jobs` at once, adapting to the API; results in item order. */
export function runPool<T, R>(
  items: readonly T[],
  work: Work<T, R>,
  o: PoolOptions<R>,
): Promise<{ outcomes: PoolOutcome<R>[]; stats: PoolStats }> {
  return new AdaptivePool(items, work, o).run();
}

/**
 * runPool with the events the work emits yielded as they come (workers run concurrently, the
 * caller is one async generator): the way folder runs, `each` steps and long-document parts
 * report their files while they run.
 */
export async function* poolEvents<T, R, E>(
  items: readonly T[],
  make: (
    emit: (ev: E) => void,
  ) => { work: Work<T, R> } & Pick<PoolOptions<R>, 'onStart' | 'onPause' | 'onResume' | 'onLimit'>,
  o: Omit<PoolOptions<R>, 'onStart'>,
): AsyncGenerator<E, { outcomes: PoolOutcome<R>[]; stats: PoolStats }> {
  const events = new AsyncQueue<E>();
  const { work, ...hooks } = make((ev) => events.push(ev));
  const pool = runPool(items, work, { ...o, ...hooks }).finally(() => events.close());
  pool.catch(() => undefined);
  yield* events;
  return await pool;
}

class AdaptivePool<T, R> {
  private readonly jobs: number;
  private readonly outcomes: PoolOutcome<R>[];
  private readonly queue: number[];
  private readonly stats: PoolStats;
  private running = 0;
  private streak = 0;
  private pauseUntil = 0;
  private overloads = 0;
  /** Outages in a row (the pause grows with each), and whether one is going on. */
  private outages = 0;
  /** Network or server failures since the last success: an outage past OUTAGE_AFTER. */
  private failuresInRow = 0;
  private down = false;
  private succeeded = false;
  /** The API's cap as the calls taught it (`caps`): never probed above. */
  private ceiling = Number.POSITIVE_INFINITY;
  /** How many ran (this one included) when each item last started. */
  private readonly startedWith: number[];
  private wake: (() => void) | undefined;
  private failure: { err: unknown } | undefined;

  constructor(
    private readonly items: readonly T[],
    private readonly work: Work<T, R>,
    private readonly o: PoolOptions<R>,
  ) {
    this.jobs = Math.max(1, Math.floor(o.jobs));
    this.outcomes = items.map(() => ({ status: 'skipped', attempts: 0 }));
    this.queue = items.map((_, i) => i);
    this.stats = { peak: 0, limit: this.jobs, retries: 0, stopped: false };
    this.startedWith = items.map(() => 0);
  }

  private control(index: number): PoolControl {
    const stats = this.stats;
    return {
      pressure: (reason) => this.slow(reason, index),
      get limit() {
        return stats.limit;
      },
    };
  }

  async run(): Promise<{ outcomes: PoolOutcome<R>[]; stats: PoolStats }> {
    const stop = this.o.caps?.onCap((cap) => this.learn(cap));
    try {
      return await this.loop();
    } finally {
      stop?.();
    }
  }

  /**
   * The calls showed the API takes at most `cap` at once: settle there. This also undoes a cut
   * made on a refusal's first guess, when that guess was too low; and when the gate lets a learned
   * cap age (no refusal for a while: another client's burst has passed), the pool probes one above.
   */
  private learn(cap: number): void {
    this.ceiling = cap;
    this.setLimit(Math.min(this.jobs, this.ceiling));
    this.nudge();
  }

  private async loop(): Promise<{ outcomes: PoolOutcome<R>[]; stats: PoolStats }> {
    const sleep = this.o.sleep ?? wait;
    while (true) {
      const canStart = !this.stats.stopped && !this.o.signal.aborted && this.queue.length > 0;
      if (!canStart && this.running === 0) break;
      if (canStart && this.running < this.stats.limit) {
        const now = Date.now();
        if (this.pauseUntil <= now) this.start(this.queue.shift()!);
        else if (this.running === 0) {
          await sleep(this.pauseUntil - now, this.o.signal);
          this.pauseUntil = 0;
        } else await this.idle();
        continue;
      }
      await this.idle();
    }
    if (this.failure) throw this.failure.err;
    return { outcomes: this.outcomes, stats: this.stats };
  }

  /** Until an item ends. */
  private idle(): Promise<void> {
    return new Promise<void>((r) => {
      this.wake = r;
    });
  }

  private nudge(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  /**
   * The API pushed back: half as many at once, and after an overload a pause that grows with
   * each overload in a row. Overloads reported while a pause is on (the files that ran into the
   * same one) do not make it longer.
   */
  private slow(reason: PushBack, index: number): void {
    this.streak = 0;
    if (reason === 'network' || reason === 'server') {
      // One failure is tried again alone; several in a row, with no success between, are an outage.
      this.failuresInRow += 1;
      if (this.failuresInRow >= OUTAGE_AFTER) this.outage(reason);
      return;
    }
    const at = index >= 0 ? this.startedWith[index]! : 0;
    // Refused as the at-th at once: a first guess, below that. Only a guess: the first calls can
    // reach the API in another order than they started in. The call gate's bound corrects it.
    if (reason === 'rate_limit' && at > 1) this.setLimit(Math.min(this.stats.limit, at - 1));
    else this.setLimit(Math.floor(this.stats.limit / 2));
    if (reason === 'overloaded' && this.pauseUntil <= Date.now()) {
      const pause = Math.min(this.o.maxPauseMs ?? 60_000, (this.o.pauseMs ?? 2000) * 2 ** this.overloads);
      this.overloads += 1;
      this.pauseUntil = Math.max(this.pauseUntil, Date.now() + pause);
    }
  }

  private setLimit(n: number): void {
    const limit = Math.max(1, n);
    if (limit === this.stats.limit) return;
    this.stats.limit = limit;
    this.o.onLimit?.(limit);
  }

  /**
   * The API cannot be reached: nothing new starts for a pause that grows with each failure in a
   * row (up to `maxPauseMs`); the item is tried again. Said once per outage.
   */
  private outage(why: 'network' | 'server'): void {
    if (this.pauseUntil > Date.now()) return;
    const pause = Math.min(this.o.maxPauseMs ?? 60_000, (this.o.pauseMs ?? 2000) * 2 ** this.outages);
    this.outages += 1;
    this.pauseUntil = Date.now() + pause;
    this.down = true;
    this.o.onPause?.(pause, why);
  }

  private start(index: number): void {
    this.running += 1;
    this.startedWith[index] = this.running;
    this.stats.peak = Math.max(this.stats.peak, this.running);
    const attempts = this.outcomes[index]!.attempts + 1;
    this.outcomes[index] = { ...this.outcomes[index]!, attempts } as PoolOutcome<R>;
    this.o.onStart?.(index, attempts);
    this.work(this.items[index]!, index, this.control(index))
      .then(
        (attempt) => this.settle(index, attempt),
        (err: unknown) => {
          // A bug or an unexpected throw: the pool stops starting, the error reaches the caller.
          this.stats.stopped = true;
          this.failure ??= { err };
        },
      )
      .finally(() => {
        this.running -= 1;
        this.nudge();
      });
  }

  private settle(index: number, attempt: Attempt<R>): void {
    const { attempts } = this.outcomes[index]!;
    const stopping = this.stats.stopped || this.o.signal.aborted;
    // An outage once the API has answered is waited out, however long (only Ctrl+C stops it).
    const patient =
      attempt.kind === 'retry' &&
      (attempt.reason === 'network' || attempt.reason === 'server') &&
      this.succeeded;
    if (attempt.kind === 'retry' && (patient || attempts <= (this.o.maxRetries ?? 6)) && !stopping) {
      this.stats.retries += 1;
      this.slow(attempt.reason, index);
      this.outcomes[index] = { status: 'skipped', value: attempt.value, attempts };
      this.queue.unshift(index);
      return;
    }
    if (attempt.kind === 'done') this.grow();
    if (attempt.kind === 'stop' && !this.stats.stopped) {
      this.stats.stopped = true;
      this.o.onStop?.(index);
    }
    const status = attempt.kind === 'done' ? 'done' : 'failed';
    this.outcomes[index] = { status, value: attempt.value, attempts };
    this.o.onSettled?.(index, this.outcomes[index]!);
  }

  /** A success: after enough in a row, one more may run at once (up to `jobs`). */
  private grow(): void {
    this.streak += 1;
    this.overloads = 0;
    this.outages = 0;
    this.failuresInRow = 0;
    this.succeeded = true;
    if (this.down) {
      this.down = false;
      this.o.onResume?.();
    }
    if (this.streak >= (this.o.growAfter ?? 4) && this.stats.limit < Math.min(this.jobs, this.ceiling)) {
      this.setLimit(this.stats.limit + 1);
      this.streak = 0;
    }
  }
}
