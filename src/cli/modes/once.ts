import { homedir } from 'node:os';
import type { ChatSession } from '../../agent/chat.js';
import type { AgentResult } from '../../agent/events.js';
import { grantTyped } from '../../agent/permissions.js';
import type { ContentPart } from '../../llm/types.js';
import { type ExitCodeValue, exitCodeOf } from '../../support/errors.js';
import type { OutputFormat } from '../args.js';
import { createChat } from '../chat.js';
import type { AppContext } from '../context.js';
import { withMentionedImages } from '../images.js';
import { pump } from '../interrupt.js';
import { nobodyPrompter, terminalPrompter } from '../prompter.js';
import { drawRun, runRenderer } from '../render/draw-run.js';
import { formatWarning } from '../render/error.js';
import { StreamPrinter } from '../render/printer.js';
import type { ReplRenderer } from '../render/repl-renderer.js';

/**
 * One question, one answer: `zhi -c "…"` and pipe mode. `typed` is what the person wrote
 * themselves (the `-c` text, not a document piped beside it): its URLs are pre-approved.
 */
export async function runOnce(ctx: AppContext, userText: string, typed = userText): Promise<ExitCodeValue> {
  const format = ctx.args.flags.outputFormat;
  // Drawn like the REPL: the renderer exists before the chat, so a question can stop its live
  // area (otherwise the spinner line is drawn over the question and the person never sees it).
  const renderer = format === 'text' && richTerminal(ctx) ? await oneShotRenderer(ctx) : undefined;
  const prompter = ctx.stdinIsTTY
    ? terminalPrompter(ctx.err, ctx.interrupt, undefined, renderer)
    : nobodyPrompter;
  const { chat } = await createChat(ctx, { kind: 'oneshot', prompter });
  if (chat.deps.webGrants) grantTyped(chat.deps.webGrants, typed);
  const content = await withMentionedImages(userText, {
    cwd: ctx.cwd,
    home: ctx.env.HOME || homedir(),
    note: (line) => process.stderr.write(`${ctx.err.dim(line)}\n`),
    warn: (line) => process.stderr.write(formatWarning(line, ctx.err)),
  });
  if (renderer) return exitCodeOf(await sendRendered(ctx, renderer, chat, content));
  return exitCodeOf(await sendPrinted(ctx, chat, content, format));
}

/** Both streams are a colour terminal that can move the cursor: draw as the REPL does. */
function richTerminal(ctx: AppContext): boolean {
  return ctx.stdoutIsTTY && ctx.stderrIsTTY && ctx.out.enabled && ctx.err.enabled && ctx.env.TERM !== 'dumb';
}

/**
 * `zhi -c` in a terminal: the answer rendered as Markdown (tables, bold, code) by the REPL's
 * renderer. Piped or redirected, the plain printer writes the answer as it is.
 */
function oneShotRenderer(ctx: AppContext): Promise<ReplRenderer> {
  return runRenderer(
    ctx,
    { stdout: process.stdout, stderr: (s) => process.stderr.write(s) },
    { verbose: () => ctx.args.flags.verbose > 0, oneShot: true },
  );
}

async function sendRendered(
  ctx: AppContext,
  renderer: ReplRenderer,
  chat: ChatSession,
  content: string | ContentPart[],
): Promise<AgentResult> {
  const started = Date.now();
  return ctx.interrupt.run((signal) =>
    drawRun(renderer, chat.send(content, signal), () => chat.deps.usage, started),
  );
}

/** Send one message on a chat, printing its events for a one-shot reader; Ctrl+C stops it. */
export async function sendPrinted(
  ctx: AppContext,
  chat: ChatSession,
  content: string | ContentPart[],
  format: OutputFormat = 'text',
): Promise<AgentResult> {
  const printer = StreamPrinter.forContext(ctx, format);
  const started = Date.now();
  const result = await ctx.interrupt.run((signal) =>
    pump(chat.send(content, signal), (ev) => printer.handle(ev)),
  );
  printer.finish(result, chat.deps.usage, chat.settings.model, Date.now() - started);
  return result;
}
