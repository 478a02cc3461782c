/**
 * The API's concurrency cap, learned from the calls themselves. A 1302 says the API already had
 * its cap of calls in flight at the moment it refused this one. Each of those calls was in flight,
 * as zhi saw it, over a span that contains that moment, and that moment lies within the refused
 * call's own span (from when it was sent to when its refusal was read). So, once every call that
 * overlapped the refused one has ended, the most accepted calls whose spans share one moment of
 * it is at least the cap: an upper bound, whatever order the calls reached the API in and however
 * late the event loop read the answers. A busy loop only makes the bound looser (a call answered
 * but not yet read still counts), never lower than the cap; the lowest bound seen wins.
 *
 * Times are read when zhi sees an event, so a call's span here contains its real one: sent no
 * earlier than its span starts (after a backoff, the retry is sent no earlier than the delay),
 * answered no later than its span ends. That is what makes the bound sound.
 */

/** One call, from when it is (or will be, after a backoff) sent to when its end was read. */
export interface Span {
  from: number;
  to?: number;
  /** The API took it (answered, or failed for another reason than too many at once). */
  accepted?: boolean;
}

/** A refused call waiting for the calls that overlapped it to end. */
interface Refusal {
  from: number;
  to: number;
  waiting: Set<Span>;
  /** The accepted calls that overlapped it. */
  accepted: Span[];
}

/** How a call ended: accepted, refused as one too many (1302), or turned away otherwise. */
export type SpanEnd = 'accepted' | 'refused' | 'turned-away';

export class CapEstimate {
  private readonly open = new Set<Span>();
  /** Ended calls a later refusal may still overlap. */
  private ended: Span[] = [];
  private readonly refusals = new Set<Refusal>();

  constructor(
    private readonly learn: (cap: number) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A call is sent now, or at `from` (a retry after its backoff). */
  begin(from = this.now()): Span {
    const span: Span = { from };
    this.open.add(span);
    return span;
  }

  end(span: Span, how: SpanEnd): void {
    if (!this.open.delete(span)) return;
    span.to = this.now();
    span.accepted = how === 'accepted';
    if (how === 'refused') this.refused(span);
    for (const r of this.refusals) {
      if (!r.waiting.delete(span)) continue;
      if (span.accepted) r.accepted.push(span);
      if (r.waiting.size === 0) this.settle(r);
    }
    this.ended.push(span);
    this.prune();
  }

  /** Keep the accepted calls that overlapped the refused one; wait for those still running. */
  private refused(span: Span): void {
    const r: Refusal = { from: span.from, to: span.to!, waiting: new Set(), accepted: [] };
    for (const s of this.ended) if (s.accepted && s.to! >= r.from) r.accepted.push(s);
    for (const s of this.open) if (s.from <= r.to) r.waiting.add(s);
    if (r.waiting.size === 0) this.settle(r);
    else this.refusals.add(r);
  }

  private settle(r: Refusal): void {
    this.refusals.delete(r);
    // Refused with nothing else of ours in flight: another client shares the key. One at a time.
    this.learn(Math.max(1, mostAtOnce(r.accepted)));
  }

  /** A later refusal starts no earlier than the oldest call still open: older ends cannot matter. */
  private prune(): void {
    let oldest = Number.POSITIVE_INFINITY;
    for (const s of this.open) oldest = Math.min(oldest, s.from);
    if (this.ended.length > 64 || this.open.size === 0)
      this.ended = this.ended.filter((s) => s.to! >= oldest);
  }
}

/**
 * The most spans that share one moment. Every span overlaps the refused call's, so a moment
 * outside it is shared by no more of them than its nearest end is. A call read as ended at the
 * very moment another is sent did not overlap it (zhi starts the next one after reading the
 * last), so ends come first at equal times.
 */
function mostAtOnce(spans: Span[]): number {
  const edges: [number, number][] = [];
  for (const s of spans) edges.push([s.from, 1], [s.to!, -1]);
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let most = 0;
  for (const [, step] of edges) {
    now += step;
    most = Math.max(most, now);
  }
  return most;
}
