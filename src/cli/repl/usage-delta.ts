import { UsageTracker } from '../../llm/usage.js';

/** Usage added since a snapshot, as a tracker of its own (for the per-message closing line). */
export function usageSince(before: UsageTracker, now: UsageTracker): UsageTracker {
  const delta = new UsageTracker(now.platform);
  const earlier = new Map(before.models());
  for (const [model, u] of now.models()) {
    const b = earlier.get(model);
    const d = {
      promptTokens: u.promptTokens - (b?.promptTokens ?? 0),
      completionTokens: u.completionTokens - (b?.completionTokens ?? 0),
      totalTokens: u.totalTokens - (b?.totalTokens ?? 0),
      cachedTokens: u.cachedTokens - (b?.cachedTokens ?? 0),
      reasoningTokens: u.reasoningTokens - (b?.reasoningTokens ?? 0),
    };
    if (u.calls !== (b?.calls ?? 0) || d.totalTokens) delta.add(model, d);
  }
  return delta;
}

/** A copy of the usage so far, to tell later what one message added. */
export function snapshot(usage: UsageTracker): UsageTracker {
  const copy = new UsageTracker(usage.platform);
  copy.merge(usage);
  return copy;
}
