import type { ChatSession } from '../../agent/chat.js';
import { priceStepLine } from '../../agent/price-step.js';
import { formatCost } from '../../llm/models.js';
import type { UsageTracker } from '../../llm/usage.js';
import { t } from '../../support/i18n/index.js';
import { formatTokens } from '../render/summary.js';
import { columns } from '../render/width.js';
import { thisStartCommand } from '../start-command.js';
import { contextNow } from './status.js';

/** `12.3k tokens (9.1k in, 3.2k out) · ¥0.04`, or undefined when nothing was used. */
export function usageSummary(usage: UsageTracker): string | undefined {
  const total = usage.total();
  if (!total.totalTokens) return undefined;
  const cost = usage.cost();
  return t('repl.usageSummary', {
    tokens: formatTokens(total.totalTokens),
    input: formatTokens(total.promptTokens),
    output: formatTokens(total.completionTokens),
    cost: cost.covered ? t('render.covered') : formatCost(cost),
  });
}

/** The line printed when the REPL ends: `Session: 12.3k tokens (9.1k in, 3.2k out) · ¥0.04`. */
export function sessionUsageLine(usage: UsageTracker): string {
  const summary = usageSummary(usage);
  return summary ? t('repl.sessionUsage', { summary }) : t('repl.sessionNoUsage');
}

/** The lines printed when the REPL ends: the session's usage, and how to come back to a saved one. */
export function goodbyeLines(chat: ChatSession | undefined): string[] {
  const lines = [chat ? sessionUsageLine(chat.deps.usage) : t('repl.sessionNoUsage')];
  const wiring = chat?.session;
  if (wiring && (wiring.recorder.started || wiring.earlier))
    lines.push(t('sessions.resumeHint', { command: resumeCommand(wiring.recorder.id) }));
  return lines;
}

/**
 * How to come back, as this zhi was started: `zhi --resume <id>` when a `zhi` on the PATH is this
 * one; `npm start -- --resume <id>` from the checkout (no `zhi` on the PATH there); the
 * executable's path; `node …/dist/zhi.js`.
 */
export function resumeCommand(id: string, start = thisStartCommand(process.env, process.cwd())): string {
  return start === 'npm start' ? `npm start -- --resume ${id}` : `${start} --resume ${id}`;
}

/** /usage: one row per model (calls, input, cached, output tokens, cost) and the total. */
export function usageTable(usage: UsageTracker): string[] {
  const models = usage.models();
  if (!models.length) return [t('repl.usage.none')];
  const cost = (amount: number) =>
    usage.platform.coveredByPlan
      ? t('render.covered')
      : formatCost({ amount, currency: usage.platform.currency });
  const rows = [
    [
      t('repl.usage.model'),
      t('repl.usage.calls'),
      t('repl.usage.input'),
      t('repl.usage.cached'),
      t('repl.usage.output'),
      t('repl.usage.cost'),
    ],
    ...models.map(([model, u]) => [
      model,
      String(u.calls),
      formatTokens(u.promptTokens),
      formatTokens(u.cachedTokens),
      formatTokens(u.completionTokens),
      cost(u.cost),
    ]),
  ];
  const total = usage.total();
  if (models.length > 1) {
    rows.push([
      t('repl.usage.total'),
      String(total.calls),
      formatTokens(total.promptTokens),
      formatTokens(total.cachedTokens),
      formatTokens(total.completionTokens),
      cost(total.cost),
    ]);
  }
  return columns(rows, new Set([1, 2, 3, 4, 5]));
}

/**
 * /usage's price-step line: the input price a request of this conversation's size pays now, and
 * where the next step starts (issue 31). Undefined when the model's price has no input steps.
 */
export function priceStepNow(
  chat: Pick<ChatSession, 'deps' | 'messages' | 'settings' | 'session'>,
): string | undefined {
  return priceStepLine(chat.settings.model, chat.deps.usage.platform, contextNow(chat).tokens);
}
