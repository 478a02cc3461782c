import { ExitCode, type ExitCodeValue } from '../../support/errors.js';
import type { AppContext } from '../context.js';
import { createChat } from '../modes/once.js';
import { loadSlashCommands } from './commands/index.js';
import { History } from './history.js';
import { Repl } from './repl.js';

/** `zhi` in a terminal: the interactive conversation. */
export async function runRepl(ctx: AppContext): Promise<ExitCodeValue> {
  const [history, commands, chat] = await Promise.all([
    History.load(ctx.paths.historyFile),
    loadSlashCommands(),
    createChat(ctx, true),
  ]);
  const repl = new Repl({
    ctx,
    chat,
    commands,
    history,
    io: { input: process.stdin, output: process.stderr, stdout: process.stdout },
  });
  repl.welcome();
  const code = await repl.run();
  return code ?? ExitCode.ok;
}
