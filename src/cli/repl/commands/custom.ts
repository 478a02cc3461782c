import type { CustomCommand } from '../../../skills/commands.js';
import { t } from '../../../support/i18n/index.js';
import { visible } from '../../../support/sanitize.js';
import type { AppContext } from '../../context.js';
import { findCustom, problemText, promptOf, trustedCommand } from '../../custom-commands.js';
import type { SlashCommand, SlashContext } from './types.js';

/** The custom commands of a REPL, and what /help says about files that were left out. */
export interface CustomCommands {
  commands: SlashCommand[];
  notes: string[];
}

/**
 * The command files as slash commands beside the built-ins. A built-in always wins over a file
 * of the same name (a cloned repository cannot replace /exit or /model): the file is left out
 * and /help says so.
 */
export async function customSlashCommands(
  ctx: AppContext,
  builtins: readonly SlashCommand[],
): Promise<CustomCommands> {
  const found = await findCustom(ctx);
  const taken = new Set(builtins.flatMap((c) => [c.name, ...(c.aliases ?? [])]));
  const out: CustomCommands = { commands: [], notes: found.problems.map(problemText) };
  for (const cmd of found.commands.values()) {
    if (taken.has(cmd.name)) out.notes.push(t('commands.shadowed', { file: cmd.file, name: cmd.name }));
    else out.commands.push(slashCommandOf(cmd));
  }
  return out;
}

function slashCommandOf(listed: CustomCommand): SlashCommand {
  return {
    name: listed.name,
    description: 'commands.fromFile',
    summary: visible(listed.description ?? t('commands.fromFileAt', { file: listed.file })),
    usage: '[…]',
    custom: true,
    async run(args, slash) {
      const cmd = await trustedCommand(slash.app, listed, {
        ask: (q) => slash.confirm(q),
        show: (text) => slash.print(text),
      });
      if (!cmd) {
        slash.warn(t('commands.declined', { name: listed.name }));
        return;
      }
      await sendWithModel(slash, promptOf(cmd, args), cmd.model);
    },
  };
}

/** A command's `model:` holds for its own message; the chat's model comes back after it. */
async function sendWithModel(slash: SlashContext, text: string, model: string | undefined): Promise<void> {
  const before = slash.chat.settings.model;
  if (model) slash.chat.settings.model = model;
  try {
    await slash.sendMessage(text);
  } finally {
    slash.chat.settings.model = before;
  }
}
