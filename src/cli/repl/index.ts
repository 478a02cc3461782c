import { pushAll } from '../../support/arrays.js';
import type { ExitCodeValue } from '../../support/errors.js';
import type { AppContext } from '../context.js';
import type { Resumed } from '../sessions/attach.js';
import { loadSlashCommands } from './commands/index.js';
import { History } from './history.js';
import { Repl } from './repl.js';

/**
 * `zhi` in a terminal: the interactive conversation. The prompt comes first; the conversation
 * (tools, session file) and the slash commands load when first needed, or while the first message
 * is typed (lazy.ts TypingWork), so start-up stays fast and an idle prompt uses no CPU.
 * With --resume/--continue the saved conversation is found and announced before the prompt (one
 * session file read), and the chat is built behind the prompt.
 */
export async function runRepl(ctx: AppContext, o: { first?: string } = {}): Promise<ExitCodeValue> {
  const history = await History.load(ctx.paths.historyFile);
  let resumed: Resumed | undefined;
  const notes: string[] = [];
  const repl = new Repl({
    ctx,
    chat: async (prompter) =>
      (await import('../chat.js')).createChat(ctx, { kind: 'repl', prompter, resumed }),
    // Built-ins, then the command files of this folder and of the person (built-ins win).
    commands: async () => {
      const builtins = await loadSlashCommands();
      const { customSlashCommands } = await import('./commands/custom.js');
      const custom = await customSlashCommands(ctx, builtins);
      pushAll(notes, custom.notes);
      return [...builtins, ...custom.commands];
    },
    commandNotes: () => notes,
    history,
    io: { input: process.stdin, output: process.stderr, stdout: process.stdout },
  });
  // The terminal starts being read (its stream resumes on the next tick) and what start-up left
  // queued runs before the banner and prompt are drawn: once the prompt shows, zhi is idle.
  await new Promise((resolve) => setImmediate(resolve));
  repl.welcome();
  if (ctx.args.flags.resume !== undefined || ctx.args.flags.continue) {
    resumed = await (await import('../sessions/resume.js')).findResumed(ctx);
    repl.preload();
  }
  // A first message (the setup wizard's demo) is shown as if typed, answered, and the chat goes on.
  if (o.first) await repl.sendShown(o.first);
  return repl.run();
}
