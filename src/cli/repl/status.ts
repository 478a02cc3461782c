import type { ChatSession } from '../../agent/chat.js';
import type { ContextStatus } from '../../agent/compact.js';
import { estimateMessagesTokens, estimateToolsTokens } from '../../agent/tokens.js';
import { DEFAULT_WINDOW, findModel, formatCost } from '../../llm/models.js';
import { t } from '../../support/i18n/index.js';
import { modeName } from './mode-name.js';

/**
 * How full the conversation's context window is: the one figure the status line, /status and
 * /usage all show (they once gave three). The session's compactor measures it — the server's last
 * count plus an estimate of what came since, tools included — and an estimate stands in without one.
 */
export function contextNow(
  chat: Pick<ChatSession, 'deps' | 'messages' | 'settings' | 'session'>,
): ContextStatus {
  const compactor = chat.session?.compactor;
  if (compactor) return compactor.status(chat.messages);
  const window = findModel(chat.settings.model)?.contextWindow || DEFAULT_WINDOW;
  const tokens = estimateMessagesTokens(chat.messages) + estimateToolsTokens(chat.deps.tools.schemas());
  return { tokens, window, fraction: tokens / window, measured: false };
}

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
  const now = chat ? contextNow(chat) : undefined;
  const context = window ? Math.min(100, Math.round((now?.fraction ?? 0) * 100)) : undefined;
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
