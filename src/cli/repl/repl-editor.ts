/**
 * The REPL's line editor: its history, prompt and status line, bracketed paste where the terminal
 * has it, reverse search in the person's language, and Tab completion of commands, their
 * arguments and paths (the conversation is made on the first Tab if it is not yet).
 */
import { homedir } from 'node:os';
import { t } from '../../support/i18n/index.js';
import type { AppContext } from '../context.js';
import type { SlashCommand, SlashContext } from './commands/types.js';
import { complete } from './complete.js';
import { type EditorStreams, LineEditor } from './editor.js';
import type { History } from './history.js';

/** What the editor asks the REPL for as it draws and completes. */
export interface ReplEditorHooks {
  prompt(): string;
  status(): string | undefined;
  externalEdit(text: string): Promise<string | undefined>;
  onTypeahead(text: string): void;
  onTyping(): void;
  slashContext(): Promise<SlashContext>;
  loadCommands(): Promise<SlashCommand[]>;
}

export function replEditor(
  io: EditorStreams,
  history: History,
  ctx: AppContext,
  hooks: ReplEditorHooks,
): LineEditor {
  return new LineEditor(io, {
    history,
    prompt: hooks.prompt,
    continuation: ctx.err.dim('… '),
    bracketedPaste: Boolean(io.output.isTTY) && ctx.env.TERM !== 'dumb',
    searchPrompt: (query, failed) => t(failed ? 'repl.searchFailed' : 'repl.search', { query }),
    status: hooks.status,
    externalEdit: hooks.externalEdit,
    onTypeahead: hooks.onTypeahead,
    onTyping: hooks.onTyping,
    completer: async (line) => {
      const slash = await hooks.slashContext();
      // `/mcp__` before the first message: the servers start now, their prompts complete once up.
      if (line.startsWith('/mcp__')) void slash.mcp?.ensure().catch(() => undefined);
      return complete(line, {
        commands: slash.commands ?? (await hooks.loadCommands()),
        ctx: slash,
        cwd: ctx.cwd,
        home: ctx.env.HOME || homedir(),
      });
    },
  });
}
