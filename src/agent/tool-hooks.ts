import { t } from '../support/i18n/index.js';
import { visible } from '../support/sanitize.js';
import type { RunEvent } from './events.js';
import type { HookEvent, HookRunner, HookVerdict } from './hook-events.js';

/** Tell the person's hooks (if any) about an event; what they have for the person is shown. */
export async function tellHook(
  runHook: HookRunner | undefined,
  emit: (ev: RunEvent) => void,
  ev: HookEvent,
): Promise<HookVerdict | undefined> {
  if (!runHook) return undefined;
  const verdict = await runHook(ev);
  for (const message of verdict.notes) emit({ type: 'warning', message });
  return verdict;
}

/**
 * The person's before_tool hooks, before the policy or any question. When one blocks, the call
 * is refused: the reason returned is for the model (English); the person sees the hook's own
 * words, shown as the hook's and made safe for the terminal.
 */
export async function hookBlocked(
  runHook: HookRunner | undefined,
  slot: { call: { id: string }; emit: (ev: RunEvent) => void },
  call: { tool: string; arguments: unknown },
): Promise<string | undefined> {
  const said = await tellHook(runHook, slot.emit, { event: 'before_tool', ...call });
  if (said?.block === undefined) return undefined;
  const name = call.tool;
  const words = said.block.trim();
  const reason = `a before_tool hook in the person's config stopped this call${words ? `: ${words}` : ''}`;
  const notice = t('hooks.blocked', {
    event: 'before_tool',
    name,
    reason: words ? visible(words) : t('hooks.noReason'),
  });
  slot.emit({ type: 'permission', id: slot.call.id, name, decision: 'refused', reason, notice });
  return reason;
}
