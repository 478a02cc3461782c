/** What the REPL shows around the input: the prompt, the status line under it, the welcome line. */
import type { ChatSession } from '../../agent/chat.js';
import { t } from '../../support/i18n/index.js';
import type { AppContext } from '../context.js';
import type { Style } from '../render/style.js';
import { chatModel } from '../settings.js';
import { modeName } from './mode-name.js';
import { statusText } from './status.js';

/** `zhi [approve]> `: yellow in auto mode, where tools run unasked. */
export function promptText(mode: string, style: Style): string {
  const text = `zhi [${modeName(mode)}]> `;
  if (!style.enabled) return text;
  return mode === 'auto' ? style.yellow(style.bold(text)) : style.cyan(style.bold(text));
}

/** The dim line under the prompt: model, mode, context and spending (before the chat: the settings). */
export function statusLineText(ctx: AppContext, chat: ChatSession | undefined, mode: string): string {
  const fallback = { model: chatModel(ctx).model, mode, currency: ctx.platform.currency };
  return ctx.err.dim(statusText(chat, fallback));
}

/** The first line of a REPL: the version, the model and the mode. */
export function welcomeText(ctx: AppContext, chat: ChatSession | undefined, mode: string): string {
  const line = t('repl.welcome', {
    version: __ZHI_VERSION__,
    model: chat?.settings.model ?? chatModel(ctx).model,
    mode: modeName(mode),
  });
  return ctx.err.dim(line);
}
