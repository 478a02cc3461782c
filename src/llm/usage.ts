import { type Cost, costOf } from './models.js';
import type { Platform } from './platforms.js';
import { type Usage, ZERO_USAGE } from './types.js';

export interface ModelUsage extends Omit<Usage, 'batch'> {
  calls: number;
  cost: number;
}

/** Sums usage per model for a session (or a run), with a cost estimate in the platform's currency. */
export class UsageTracker {
  private readonly byModel = new Map<string, ModelUsage>();
  /** Some call was priced from an unconfirmed, converted or unknown price. */
  private approx = false;

  constructor(readonly platform: Platform) {}

  /**
   * Count one model call and return its cost. Recording it (session file, ledger) is the job of
   * the `usage` event the caller yields into the run's stream.
   */
  add(model: string, usage: Usage): Cost {
    const cost = costOf(model, usage, this.platform);
    if (cost.approx) this.approx = true;
    const cur = this.byModel.get(model) ?? { ...ZERO_USAGE, calls: 0, cost: 0 };
    cur.promptTokens += usage.promptTokens;
    cur.completionTokens += usage.completionTokens;
    cur.totalTokens += usage.totalTokens;
    cur.cachedTokens += usage.cachedTokens;
    cur.reasoningTokens += usage.reasoningTokens;
    cur.calls += 1;
    cur.cost += cost.amount;
    this.byModel.set(model, cur);
    return cost;
  }

  /** Count one call priced by something other than tokens (speech by the minute, files by the page). */
  addPriced(model: string, cost: Cost): Cost {
    if (cost.approx) this.approx = true;
    const cur = this.byModel.get(model) ?? { ...ZERO_USAGE, calls: 0, cost: 0 };
    cur.calls += 1;
    cur.cost += cost.amount;
    this.byModel.set(model, cur);
    return cost;
  }

  /** Fold another tracker in (a nested skill run's usage into its parent). */
  merge(other: UsageTracker): void {
    if (other.approx) this.approx = true;
    for (const [model, u] of other.models()) {
      const cur = this.byModel.get(model) ?? { ...ZERO_USAGE, calls: 0, cost: 0 };
      for (const k of [
        'promptTokens',
        'completionTokens',
        'totalTokens',
        'cachedTokens',
        'reasoningTokens',
        'calls',
        'cost',
      ] as const) {
        cur[k] += u[k];
      }
      this.byModel.set(model, cur);
    }
  }

  models(): [string, ModelUsage][] {
    return [...this.byModel.entries()];
  }

  total(): ModelUsage {
    const sum: ModelUsage = { ...ZERO_USAGE, calls: 0, cost: 0 };
    for (const u of this.byModel.values()) {
      for (const k of Object.keys(sum) as (keyof ModelUsage)[]) sum[k] += u[k];
    }
    return sum;
  }

  cost(): Cost {
    return {
      amount: this.total().cost,
      currency: this.platform.currency,
      covered: this.platform.coveredByPlan,
      ...(this.approx ? { approx: true } : {}),
    };
  }

  reset(): void {
    this.approx = false;
    this.byModel.clear();
  }
}
