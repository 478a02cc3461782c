import type { ContentPart } from '../../../llm/types.js';
import { t } from '../../../support/i18n/index.js';
import type { SlashCommand } from './types.js';

function preview(content: string | ContentPart[]): string {
  const text =
    typeof content === 'string'
      ? content
      : content.map((p) => (p.type === 'text' ? p.text : '[image]')).join(' ');
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 60 ? `${one.slice(0, 59)}…` : one;
}

const reset: SlashCommand = {
  name: 'reset',
  description: 'repl.cmd.reset',
  async run(_args, ctx) {
    const n = ctx.chat.messages.length - 1;
    if (n <= 0) {
      ctx.print(t('repl.reset.empty'));
      return;
    }
    if (!(await ctx.confirm(t('repl.reset.confirm', { n })))) {
      ctx.print(t('repl.reset.kept'));
      return;
    }
    ctx.chat.reset();
    ctx.print(t('repl.reset.done'));
  },
};

const undo: SlashCommand = {
  name: 'undo',
  description: 'repl.cmd.undo',
  async run(_args, ctx) {
    const lastUser = [...ctx.chat.messages].reverse().find((m) => m.role === 'user');
    if (!lastUser || !ctx.chat.undo()) {
      ctx.print(t('repl.undo.none'));
      return;
    }
    const typed = ctx.chat.typedOf(lastUser);
    ctx.print(t('repl.undo.done', { text: preview(typed ?? (lastUser.content as string | ContentPart[])) }));
  },
};

export const commands: SlashCommand[] = [reset, undo];
