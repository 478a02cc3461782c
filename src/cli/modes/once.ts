import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import type { ChatSession } from '../../agent/chat.js';
import type { AgentResult } from '../../agent/events.js';
import { grantTyped } from '../../agent/permissions.js';
import type { ContentPart } from '../../llm/types.js';
import { ExitCode, type ExitCodeValue, exitCodeOf } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import type { OutputFormat } from '../args.js';
import { terminalAsker } from '../ask.js';
import { createChat } from '../chat.js';
import type { AppContext } from '../context.js';
import { withMentionedImages } from '../images.js';
import { pump } from '../interrupt.js';
import type { ChatMcp } from '../mcp/chat.js';
import { nobodyPrompter, terminalPrompter } from '../prompter.js';
import { withMentionedRecordings } from '../recordings.js';
import { drawRun, richTerminal, runRenderer } from '../render/draw-run.js';
import { formatWarning } from '../render/error.js';
import { OUTPUT_FORMATS, runConsumer } from '../render/formats/index.js';
import type { ReplRenderer } from '../render/repl-renderer.js';
import { Spinner } from '../render/spinner.js';
import { findMistyped } from '../repl/attach/mistyped.js';

/**
 * One question, one answer: `zhi -c "…"` and pipe mode. `typed` is what the person wrote
 * themselves (the `-c` text, not a document piped beside it): its URLs are pre-approved.
 */
export async function runOnce(ctx: AppContext, userText: string, typed = userText): Promise<ExitCodeValue> {
  if (!(await typosChecked(ctx, typed))) return ExitCode.usage;
  const format = ctx.args.flags.outputFormat;
  // The first message loads the agent, the renderer and the tools: the same "thinking" line the
  // answer starts with turns meanwhile (a terminal only), so the wait is never a blank screen.
  const loading = new Spinner(process.stderr, ctx.stderrIsTTY && format === 'text', ctx.err.dim);
  loading.start(t('cli.thinking'));
  try {
    return await prepareAndSend(ctx, userText, typed, format, () => loading.stop());
  } finally {
    loading.stop();
  }
}

async function prepareAndSend(
  ctx: AppContext,
  userText: string,
  typed: string,
  format: OutputFormat,
  loaded: () => void,
): Promise<ExitCodeValue> {
  // Drawn like the REPL: the renderer exists before the chat, so a question can stop its live
  // area (otherwise the spinner line is drawn over the question and the person never sees it).
  const renderer =
    OUTPUT_FORMATS[format].drawnLikeChat && richTerminal(ctx) ? await oneShotRenderer(ctx) : undefined;
  const prompter = ctx.stdinIsTTY
    ? terminalPrompter(ctx.err, ctx.interrupt, undefined, renderer)
    : nobodyPrompter;
  const { chat, client, mcp } = await createChat(ctx, { kind: 'oneshot', prompter });
  if (chat.deps.grants) grantTyped(chat.deps.grants, typed);
  chat.deps.named?.addText(typed);
  // Loaded: what follows may write notes on stderr, and the answer draws its own line.
  loaded();
  const note = (line: string) => process.stderr.write(`${ctx.err.dim(line)}\n`);
  userText = await withPrompt(userText, typed, mcp, note);
  const home = ctx.env.HOME || homedir();
  const agreed = chat.settings.mode === 'auto' || ctx.args.flags.yes;
  // A recording named in the message is transcribed first (its price agreed), as in the REPL.
  const withTranscripts = await ctx.interrupt.run((signal) =>
    withMentionedRecordings(userText, {
      cwd: ctx.cwd,
      home,
      client,
      platform: ctx.platform,
      chat,
      consent: { prompter, write: note, signal, agreed },
      note,
    }),
  );
  const images = await withMentionedImages(withTranscripts, {
    cwd: ctx.cwd,
    home,
    note,
    warn: (line) => process.stderr.write(formatWarning(line, ctx.err)),
  });
  // `@server:uri` in the text the person typed: a resource of an MCP server.
  let content = images;
  if (mcp && typed.includes('@')) {
    const { attachResources, withBlocks } = await import('../mcp/resources.js');
    content = withBlocks(images, await attachResources(typed, mcp, note));
  }
  if (renderer) return exitCodeOf(await sendRendered(ctx, renderer, chat, content));
  return exitCodeOf(await sendPrinted(ctx, chat, content, format));
}

/** `zhi -c "/mcp__<server>__<prompt> args…"`: the prompt's message in place of the command. */
async function withPrompt(
  userText: string,
  typed: string,
  mcp: ChatMcp | undefined,
  note: (line: string) => void,
): Promise<string> {
  const word = /^\s*\/(mcp__\S+)(?:\s+([\s\S]*))?$/i.exec(typed);
  if (!word || !mcp) return userText;
  const { expandPrompt } = await import('../mcp/prompts.js');
  const text = await expandPrompt(mcp, word[1]!, (word[2] ?? '').trim(), note);
  // A document piped beside the command stays after it.
  return userText === typed ? text : `${text}${userText.slice(typed.length)}`;
}

/** Longer messages (a document piped in as the message) are not searched for mistyped names. */
const TYPO_CHECK_CHARS = 4000;

/**
 * A name in the message one typo away from a file that is here (`note.txt` beside `notes.txt`):
 * said before anything is sent. At a terminal the person decides whether to send it as it is
 * (no: exit 2, nothing sent); piped or scripted there is nobody to ask, so it is a warning on
 * stderr and the message goes.
 */
async function typosChecked(ctx: AppContext, typed: string): Promise<boolean> {
  if (typed.length > TYPO_CHECK_CHARS) return true;
  const home = ctx.env.HOME || homedir();
  const typo = findMistyped(typed, { cwd: ctx.cwd, home, isFile: (p) => statSync(p).isFile() });
  if (!typo) return true;
  const said = t('input.missing', { name: visible(typo.typed), suggestion: visible(typo.suggestion) });
  if (!ctx.stdinIsTTY) {
    process.stderr.write(formatWarning(`${said}\n  ${t('input.missingSent')}`, ctx.err));
    return true;
  }
  process.stderr.write(formatWarning(said, ctx.err));
  if (await terminalAsker(ctx.interrupt).yesNo(t('input.missingAsk'))) return true;
  process.stderr.write(`${t('input.missingNotSent')}\n`);
  return false;
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
  const printer = await runConsumer(ctx, format);
  const started = Date.now();
  const result = await ctx.interrupt.run((signal) =>
    pump(chat.send(content, signal), (ev) => printer.handle(ev)),
  );
  printer.finish(result, chat.deps.usage, chat.settings.model, Date.now() - started);
  return result;
}
