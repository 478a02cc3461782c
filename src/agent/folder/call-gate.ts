/**
 * One concurrency budget per run: every model call of a folder run — each file's own calls, the
 * parts of its long documents, the per-file steps of a composite skill — passes through one gate
 * of `limit` calls at once. Work items may wait in greater numbers (a long document's parts are
 * queued), but calls in flight never exceed what the pool decided (which follows the API's cap).
 * A call holds its place only while it runs, never while it waits for another, so the gate cannot
 * deadlock.
 *
 * The gate sees every call and how it ended, so it is where the API's cap is learned (see
 * cap-estimate.ts); the pools that share it listen and settle there.
 */
import type { ChatRequest, LlmClient, StreamEvent } from '../../llm/types.js';
import { CapEstimate, type SpanEnd } from './cap-estimate.js';

/** Where a pool hears the API's cap as the calls teach it. */
export interface CapSource {
  /** `learn` is called with each new upper bound on the cap; the returned function stops it. */
  onCap(learn: (cap: number) => void): () => void;
}

/**
 * How a call's last event says it ended, for the cap. Anything but a 1302 counts as taken: a call
 * counted that the API never held only makes the bound looser, one left out could make it low.
 */
function ending(ev: StreamEvent | undefined): SpanEnd {
  return (ev?.type === 'error' || ev?.type === 'retry') && ev.error.kind === 'rate_limit'
    ? 'refused'
    : 'accepted';
}

/**
 * A learned cap ages: after this long with no call refused, the pools may try twice as many at
 * once. A refusal may have come from another client on the same key (a chat, a colleague's run)
 * whose burst has passed; a cap kept for good would pin the rest of the run there. A probe that is
 * refused costs a call tried again, its bound is taken at once, and the wait before the next probe
 * doubles (up to a minute): after a passing burst the run is back at full speed within seconds,
 * while at the API's real cap probes soon become rare.
 */
export const CAP_AGE_MS = 500;
const MAX_AGE_MS = 60_000;

export class CallGate implements CapSource {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly listeners = new Set<(cap: number) => void>();
  private cap = Number.POSITIVE_INFINITY;
  /** When the cap was last lowered, raised or confirmed by a refusal. */
  private capSince = 0;
  /** How long without a refusal before the next probe; doubles after each probe refused. */
  private ageMs: number;
  /** The cap a probe started from, while its answer is awaited. */
  private probedFrom: number | undefined;
  private readonly estimate = new CapEstimate((n) => {
    this.capSince = this.now();
    if (this.probedFrom !== undefined && n <= this.probedFrom)
      this.ageMs = Math.min(MAX_AGE_MS, this.ageMs * 2);
    this.probedFrom = undefined;
    if (n >= this.cap) return;
    this.tell(n);
  });

  constructor(
    private limit: number,
    signal: AbortSignal,
    private readonly baseAgeMs = CAP_AGE_MS,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.ageMs = baseAgeMs;
    // Ctrl+C: the waiting calls go on at once (they end as interrupted).
    signal.addEventListener('abort', () => this.flush(), { once: true });
  }

  /** The pool's limit changed (a 1302, growing back): the gate follows it. */
  setLimit(n: number): void {
    this.limit = Math.max(1, n);
    this.pump();
  }

  private tell(cap: number): void {
    this.cap = cap;
    for (const l of this.listeners) l(cap);
  }

  /** No refusal for `ageMs` since the cap was learned: twice as many at once may be tried. */
  private age(): void {
    if (!Number.isFinite(this.cap) || this.now() - this.capSince < this.ageMs) return;
    this.capSince = this.now();
    // A probe nobody refused (the burst had passed): the next one comes as soon.
    if (this.probedFrom !== undefined) this.ageMs = Math.max(this.baseAgeMs, this.ageMs / 2);
    this.probedFrom = this.cap;
    this.tell(this.cap * 2);
  }

  onCap(learn: (cap: number) => void): () => void {
    this.listeners.add(learn);
    if (Number.isFinite(this.cap)) learn(this.cap);
    return () => this.listeners.delete(learn);
  }

  private aborted = false;

  private flush(): void {
    this.aborted = true;
    while (this.waiting.length) this.waiting.shift()!();
  }

  private pump(): void {
    while (this.active < this.limit && this.waiting.length) {
      this.active += 1;
      this.waiting.shift()!();
    }
  }

  private acquire(): Promise<void> {
    if (this.aborted) return Promise.resolve();
    if (this.active < this.limit) {
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    this.active = Math.max(0, this.active - 1);
    this.age();
    this.pump();
  }

  /** The model client whose calls pass through this gate. */
  wrap(inner: LlmClient): LlmClient {
    const gate = this;
    return {
      async *stream(req: ChatRequest): AsyncGenerator<StreamEvent> {
        await gate.acquire();
        let span = gate.estimate.begin();
        let last: StreamEvent | undefined;
        try {
          for await (const ev of inner.stream(req)) {
            last = ev;
            // The client tries again after `delayMs`: this call ended, the next is sent then.
            if (ev.type === 'retry') {
              if (ending(ev) === 'refused') gate.capSince = gate.now();
              gate.estimate.end(span, ending(ev));
              span = gate.estimate.begin(performance.now() + ev.delayMs);
            }
            yield ev;
          }
        } finally {
          // A retry announced last means the call was stopped during its backoff: never sent.
          gate.estimate.end(span, last?.type === 'retry' ? 'turned-away' : ending(last));
          gate.release();
        }
      },
    };
  }
}

/**
 * The run's gate, or a new one of `jobs` calls when the runtime has none yet (a run that is not
 * inside a folder run): the runtime whose calls pass through it, and whether it is this caller's
 * own (then the caller's pool sets its limit).
 */
export function gated<R extends { calls?: CallGate | undefined; llm: LlmClient; signal: AbortSignal }>(
  rt: R,
  jobs: number,
): { rt: R; gate: CallGate; own: boolean } {
  if (rt.calls) return { rt, gate: rt.calls, own: false };
  const gate = new CallGate(jobs, rt.signal);
  return { rt: { ...rt, calls: gate, llm: gate.wrap(rt.llm) }, gate, own: true };
}
