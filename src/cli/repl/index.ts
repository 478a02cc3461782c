import { createInterface } from 'node:readline';
import { runAgent } from '../../agent/loop.js';
import { chatSystemPrompt } from '../../agent/prompt.js';
import type { Message } from '../../llm/types.js';
import { ExitCode, type ExitCodeValue } from '../../support/errors.js';
import { getLanguage } from '../../support/i18n/index.js';
import { loadTools } from '../../tools/index.js';
import { type AppContext, makeClient, newUsage } from '../context.js';
import { terminalPrompter } from '../prompter.js';
import { StreamPrinter } from '../render/printer.js';

/** The interactive conversation (first version: a readline loop over the agent). */
export async function runRepl(ctx: AppContext): Promise<ExitCodeValue> {
  const client = makeClient(ctx);
  const tools = await loadTools();
  const usage = newUsage(ctx);
  let mode: 'approve' | 'auto' = ctx.args.flags.auto ? 'auto' : 'approve';
  const messages: Message[] = [
    {
      role: 'system',
      content: chatSystemPrompt({
        cwd: ctx.cwd,
        outputDir: ctx.outputDir,
        toolNames: tools.names(),
        date: new Date().toISOString().slice(0, 10),
        uiLanguage: getLanguage(),
      }),
    },
  ];
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const ask = () => new Promise<string | null>((resolve) => {
    rl.once('close', () => resolve(null));
    rl.question(`zhi [${mode}]> `, resolve);
  });
  for (;;) {
    const line = await ask();
    if (line === null || line.trim() === '/exit') break;
    if (!line.trim()) continue;
    if (line.trim() === '/auto' || line.trim() === '/approve') {
      mode = line.trim() === '/auto' ? 'auto' : 'approve';
      continue;
    }
    messages.push({ role: 'user', content: line });
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
    const run = runAgent(
      messages,
      { llm: client, client, tools, prompter: terminalPrompter(ctx.err), usage, cwd: ctx.cwd, outputDir: ctx.outputDir },
      { model: ctx.config.defaultModel, thinking: true, maxTurns: ctx.config.maxTurns, mode, signal: abort.signal },
    );
    let step = await run.next();
    while (!step.done) {
      printer.handle(step.value);
      step = await run.next();
    }
    rl.off('SIGINT', onSigint);
    printer.finish(step.value, usage, ctx.config.defaultModel, Date.now() - started);
  }
  rl.close();
  return ExitCode.ok;
}
