import { createInterface } from 'node:readline';
import { ExitCode, type ExitCodeValue } from '../../support/errors.js';
import type { AppContext } from '../context.js';
import { createChat } from '../modes/once.js';
import { StreamPrinter } from '../render/printer.js';

/** The interactive conversation (first version: a readline loop over the chat session). */
export async function runRepl(ctx: AppContext): Promise<ExitCodeValue> {
  const chat = await createChat(ctx, true);
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const ask = () =>
    new Promise<string | null>((resolve) => {
      rl.once('close', () => resolve(null));
      rl.question(`zhi [${chat.settings.mode}]> `, resolve);
    });
  for (;;) {
    const line = await ask();
    if (line === null || line.trim() === '/exit') break;
    if (!line.trim()) continue;
    if (line.trim() === '/auto' || line.trim() === '/approve') {
      chat.settings.mode = line.trim() === '/auto' ? 'auto' : 'approve';
      continue;
    }
    const abort = new AbortController();
    const onSigint = () => abort.abort();
    rl.on('SIGINT', onSigint);
    const printer = new StreamPrinter({
      format: 'text',
      out: ctx.out,
      err: ctx.err,
      stdoutIsTTY: ctx.stdoutIsTTY,
      stderrIsTTY: ctx.stderrIsTTY,
      verbose: ctx.args.flags.verbose,
      debug: ctx.args.flags.debug,
      cwd: ctx.cwd,
    });
    const started = Date.now();
    const run = chat.send(line, abort.signal);
    let step = await run.next();
    while (!step.done) {
      printer.handle(step.value);
      step = await run.next();
    }
    rl.off('SIGINT', onSigint);
    printer.finish(step.value, chat.deps.usage, chat.settings.model, Date.now() - started);
  }
  rl.close();
  return ExitCode.ok;
}
