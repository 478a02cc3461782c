import type { AgentResult } from '../../agent/events.js';
import { runAgent } from '../../agent/loop.js';
import { chatSystemPrompt } from '../../agent/prompt.js';
import type { Message } from '../../llm/types.js';
import { ExitCode, type ExitCodeValue } from '../../support/errors.js';
import { getLanguage } from '../../support/i18n/index.js';
import { loadTools } from '../../tools/index.js';
import { type AppContext, makeClient, newUsage } from '../context.js';
import { nobodyPrompter, terminalPrompter } from '../prompter.js';
import { StreamPrinter } from '../render/printer.js';

export function exitCodeFor(result: AgentResult): ExitCodeValue {
  switch (result.stopReason) {
    case 'answer':
      return ExitCode.ok;
    case 'turn_limit':
      return ExitCode.turnLimit;
    case 'aborted':
      return ExitCode.interrupted;
    default:
      return result.error?.exitCode ?? ExitCode.failure;
  }
}

/** One question, one answer: `zhi -c "…"` and pipe mode. */
export async function runOnce(ctx: AppContext, userText: string): Promise<ExitCodeValue> {
  const client = makeClient(ctx);
  const tools = await loadTools();
  const usage = newUsage(ctx);
  const model = ctx.config.defaultModel;
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
    { role: 'user', content: userText },
  ];
  const printer = new StreamPrinter({
    format: ctx.args.flags.outputFormat,
    out: ctx.out,
    err: ctx.err,
    stdoutIsTTY: ctx.stdoutIsTTY,
    stderrIsTTY: ctx.stderrIsTTY,
    verbose: ctx.args.flags.verbose,
    debug: ctx.args.flags.debug,
    cwd: ctx.cwd,
  });
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.on('SIGINT', onSigint);
  const started = Date.now();
  try {
    const run = runAgent(
      messages,
      {
        llm: client,
        client,
        tools,
        prompter: ctx.stdinIsTTY ? terminalPrompter(ctx.err) : nobodyPrompter,
        usage,
        cwd: ctx.cwd,
        outputDir: ctx.outputDir,
      },
      {
        model,
        thinking: true,
        maxTurns: ctx.config.maxTurns,
        mode: ctx.args.flags.auto ? 'auto' : 'approve',
        signal: abort.signal,
      },
    );
    let step = await run.next();
    while (!step.done) {
      printer.handle(step.value);
      step = await run.next();
    }
    const result = step.value;
    printer.finish(result, usage, model, Date.now() - started);
    return exitCodeFor(result);
  } finally {
    process.off('SIGINT', onSigint);
  }
}
