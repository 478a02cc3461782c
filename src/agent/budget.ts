import { costOf, formatCost } from '../llm/models.js';
import type { Message } from '../llm/types.js';
import type { UsageTracker } from '../llm/usage.js';
import { ZhiError } from '../support/errors.js';
import type { RunEvent } from './events.js';
import { estimateMessagesTokens } from './tokens.js';

/**
 * What a step that knows its cost up front (a long document's parts) asks of `max_cost_per_run`:
 * what is left of it in this run, and, once a person said yes, room for that much more.
 */
export interface CostGate {
  /** The limit and what is left of it; undefined when there is none (or a plan covers the calls). */
  limits(): { limit: number; left: number } | undefined;
  /** Let this run spend `amount` more than it has so far (the limit only grows). */
  allow(amount: number): void;
}

/**
 * `max_cost_per_run`: before every model call, the cost spent since the run began plus what the
 * next call's prompt will cost at least (its estimated tokens at the uncached input price) must
 * stay within the limit; otherwise the run stops with a clear error. A run is one user message
 * (one `send()`), or one `zhi -c`/`zhi run`. Coding-plan endpoints (covered by the plan) never stop.
 */
export class RunBudget implements CostGate {
  private baseline = 0;

  constructor(
    private limit: number | undefined,
    private readonly usage: UsageTracker,
    private readonly model: () => string,
  ) {}

  get active(): boolean {
    return this.limit !== undefined && !this.usage.platform.coveredByPlan;
  }

  /** Start counting a new run. */
  startRun(): void {
    this.baseline = this.usage.total().cost;
  }

  /** Resets the baseline at every user message. */
  readonly consume = (ev: RunEvent): void => {
    if (ev.type === 'user') this.startRun();
  };

  spent(): number {
    return this.usage.total().cost - this.baseline;
  }

  limits(): { limit: number; left: number } | undefined {
    if (!this.active) return undefined;
    return { limit: this.limit!, left: Math.max(0, this.limit! - this.spent()) };
  }

  allow(amount: number): void {
    if (this.active) this.limit = Math.max(this.limit!, this.spent() + amount);
  }

  /** The stop error, or undefined when the next call fits. */
  check(messages: readonly Message[], promptTokens = estimateMessagesTokens(messages)): ZhiError | undefined {
    if (!this.active) return undefined;
    const limit = this.limit!;
    const spent = this.spent();
    const next = costOf(
      this.model(),
      { promptTokens, completionTokens: 0, cachedTokens: 0 },
      this.usage.platform,
    ).amount;
    if (spent + next <= limit) return undefined;
    const currency = this.usage.platform.currency;
    return new ZhiError({
      kind: 'budget',
      what: { key: 'sessions.budget.what', params: { limit: formatCost({ amount: limit, currency }) } },
      why: {
        key: 'sessions.budget.why',
        params: {
          spent: formatCost({ amount: spent, currency }),
          next: formatCost({ amount: next, currency }),
        },
      },
      tries: [
        {
          key: 'sessions.budget.try1',
          params: { more: String(Math.max(limit * 2, limit + 0.1).toFixed(2)) },
        },
        { key: 'sessions.budget.try2' },
      ],
    });
  }
}
