import type { ContentPart } from '../../../llm/types.js';
import { t } from '../../../support/i18n/index.js';
import { copyText } from '../../clipboard.js';
import { type SlashCommand, switchTo } from './types.js';

/** The text of the last answer (what /copy copies). */
export function lastAnswer(messages: readonly { role: string; content?: unknown }[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'assistant') continue;
    const c = m.content as string | ContentPart[] | null | undefined;
    const text = typeof c === 'string' ? c : (c ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('');
    if (text.trim()) return text.trim();
  }
  return undefined;
}

const copy: SlashCommand = {
  name: 'copy',
  description: 'input.cmd.copy',
  async run(_args, ctx) {
    const text = lastAnswer(ctx.chat.messages);
    if (!text) {
      ctx.print(t('input.copy.none'));
      return;
    }
    const how = copyText(text, {
      env: ctx.app.env,
      tty: Boolean(ctx.terminal?.isTTY),
      write: (s) => ctx.terminal?.write(s),
    });
    const chars = [...text].length;
    if (how === 'tool') ctx.print(t('input.copy.done', { chars }));
    else if (how === 'terminal') ctx.print(t('input.copy.osc', { chars }));
    else ctx.warn(t('input.copy.failed'));
  },
};

const editor: SlashCommand = {
  name: 'editor',
  aliases: ['edit'],
  description: 'input.cmd.editor',
  async run(args, ctx) {
    await ctx.composeInEditor?.(args);
  },
};

const paste: SlashCommand = {
  name: 'paste',
  description: 'input.cmd.paste',
  async run(_args, ctx) {
    await ctx.pasteImage?.();
  },
};

const statusline: SlashCommand = {
  name: 'statusline',
  usage: '[on|off]',
  description: 'input.cmd.statusline',
  complete: () => ['on', 'off'],
  async run(args, ctx) {
    const display = ctx.display;
    if (!display) return;
    display.statusLine = switchTo(args, display.statusLine);
    ctx.print(t(display.statusLine ? 'input.statusline.on' : 'input.statusline.off'));
  },
};

export const commands: SlashCommand[] = [copy, editor, paste, statusline];
