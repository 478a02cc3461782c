import type { ChatSession } from '../../agent/chat.js';
import { estimateMessagesTokens } from '../../agent/tokens.js';
import { findModel, formatCost } from '../../llm/models.js';
import { t } from '../../support/i18n/index.js';
import { modeName } from './mode-name.js';

/** What the status line shows before the conversation is made (first prompt). */
export interface StatusFallback {
  model: string;
  mode: string;
  currency: 'CNY' | 'USD';
}

/**
 * The one line under the prompt: model · mode · share of the context window in use · what the
 * session has cost so far. Cheap enough to compute on every key (a token estimate, no I/O).
 */
export function statusText(chat: ChatSession | undefined, fallback: StatusFallback): string {
  const model = chat?.settings.model ?? fallback.model;
  const mode = chat?.settings.mode ?? fallback.mode;
  const window = findModel(model)?.contextWindow;
  const used = chat ? estimateMessagesTokens(chat.messages) : 0;
  const context = window ? Math.min(100, Math.round((used / window) * 100)) : undefined;
  const cost = chat?.deps.usage.cost();
  const costText = cost?.covered
    ? t('render.covered')
    : formatCost({ amount: cost?.amount ?? 0, currency: cost?.currency ?? fallback.currency });
  return t(context === undefined ? 'input.statusNoWindow' : 'input.status', {
    model,
    mode: modeName(mode),
    context: context ?? 0,
    cost: costText,
  });
}
