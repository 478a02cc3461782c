import { t } from '../../support/i18n/index.js';

/**
 * The permission mode as the person reads it, in their language ("approve"/"确认"): the one
 * place that decides it, so the prompt, the welcome line and the status line say the same word.
 */
export function modeName(mode: string): string {
  return t(mode === 'auto' ? 'mode.name.auto' : 'mode.name.approve');
}
