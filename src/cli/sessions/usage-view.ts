import { stripVTControlCharacters } from 'node:util';
import type { ContextStatus } from '../../agent/compact.js';
import { findModel, formatCost, priceFor } from '../../llm/models.js';
import type { Platform } from '../../llm/platforms.js';
import type { ModelUsage, UsageTracker } from '../../llm/usage.js';
import { maxBy } from '../../support/arrays.js';
import { t } from '../../support/i18n/index.js';
import { padToWidth, textWidth } from '../../support/width.js';
import type { Style } from '../render/style.js';
import { formatTokens } from '../render/summary.js';

export interface UsageViewOptions {
  style: Style;
  context?: ContextStatus | undefined;
  compactions?: number;
  sessionId?: string | undefined;
  /** Usage of this session's earlier runs (before it was resumed here), from its file. */
  earlier?: { tokens: number; cost: number } | undefined;
  /** Width of the bars. */
  barWidth?: number;
  /** The terminal's width: a model's token kinds go on a line of their own when its line would wrap. */
  columns?: number | undefined;
}

/** A bar of `width` cells, `share` (0..1) of them filled. */
export function bar(share: number, width: number, style: Style): string {
  const filled = Math.max(share > 0 ? 1 : 0, Math.round(Math.min(1, Math.max(0, share)) * width));
  const on = '█'.repeat(filled);
  const off = '░'.repeat(width - filled);
  return style.enabled
    ? style.cyan(on) + style.dim(off)
    : `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
}

/** The cost of one model's usage as a person should read it: plan, free, or an amount. */
export function costText(model: string, u: Pick<ModelUsage, 'cost'>, platform: Platform): string {
  if (platform.coveredByPlan) return t('render.covered');
  const price = priceFor(findModel(model), platform);
  if (price && price.input === 0 && price.output === 0) return t('sessions.usage.free');
  return formatCost({ amount: u.cost, currency: platform.currency });
}

/**
 * `/usage`: one line per model with a bar of its share of the tokens, the token kinds and the
 * cost; then the totals, and how full the context window is.
 */
export function formatUsage(usage: UsageTracker, o: UsageViewOptions): string[] {
  const s = o.style;
  const models = usage.models().sort((a, b) => b[1].totalTokens - a[1].totalTokens);
  const total = usage.total();
  const out: string[] = [s.bold(t('sessions.usage.title'))];
  if (!models.length) out.push(`  ${t('sessions.usage.none')}`);
  const nameWidth = maxBy(models, ([m]) => m.length, 8);
  const width = o.barWidth ?? 16;
  for (const [model, u] of models) {
    const detail = [
      t('sessions.usage.calls', { n: u.calls }),
      t('sessions.usage.in', { n: formatTokens(u.promptTokens) }),
    ];
    if (u.cachedTokens) detail.push(t('sessions.usage.cached', { n: formatTokens(u.cachedTokens) }));
    detail.push(t('sessions.usage.out', { n: formatTokens(u.completionTokens) }));
    if (u.reasoningTokens) detail.push(t('sessions.usage.reasoning', { n: formatTokens(u.reasoningTokens) }));
    const head =
      `  ${padToWidth(model, nameWidth)}  ${bar(total.totalTokens ? u.totalTokens / total.totalTokens : 0, width, s)}  ` +
      `${padToWidth(formatTokens(u.totalTokens), 6, 'right')}  ${padToWidth(costText(model, u, usage.platform), 9, 'right')}`;
    const kinds = detail.join(' · ');
    // On a narrow terminal the kinds would wrap mid-phrase under the bar: give them their own line.
    const fits = !o.columns || textWidth(stripVTControlCharacters(head)) + 2 + textWidth(kinds) <= o.columns;
    if (fits) out.push(`${head}  ${s.dim(kinds)}`);
    else out.push(head, s.dim(`    ${kinds}`));
  }
  const cost = usage.cost();
  out.push(
    `  ${t('sessions.usage.total', {
      tokens: formatTokens(total.totalTokens),
      cost: cost.covered ? t('render.covered') : formatCost(cost),
    })}`,
  );
  if (o.earlier && o.earlier.tokens !== 0) {
    out.push(
      s.dim(
        `  ${t('sessions.usage.earlier', {
          tokens: formatTokens(o.earlier.tokens + total.totalTokens),
          cost: cost.covered
            ? t('render.covered')
            : formatCost({ amount: o.earlier.cost + cost.amount, currency: cost.currency }),
        })}`,
      ),
    );
  }
  if (o.context) {
    const c = o.context;
    const parts = [
      t('sessions.usage.context', {
        tokens: formatTokens(c.tokens),
        window: c.window % 1000 === 0 ? `${c.window / 1000}k` : formatTokens(c.window),
        percent: Math.round(c.fraction * 100),
      }),
    ];
    if (o.compactions) parts.push(t('sessions.usage.compacted', { n: o.compactions }));
    out.push(`  ${bar(c.fraction, width, s)}  ${parts.join(' · ')}`);
  }
  if (o.sessionId) out.push(s.dim(`  ${t('sessions.usage.session', { id: o.sessionId })}`));
  return out;
}
