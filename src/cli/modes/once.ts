import { homedir } from 'node:os';
import { ChatSession } from '../../agent/chat.js';
import type { AgentResult } from '../../agent/events.js';
import { grantTyped, newWebGrants } from '../../agent/permissions.js';
import { chatSystemPrompt } from '../../agent/prompt.js';
import type { SessionKind } from '../../agent/sessions/format.js';
import type { ContentPart } from '../../llm/types.js';
import { ExitCode, type ExitCodeValue } from '../../support/errors.js';
import { getLanguage } from '../../support/i18n/index.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { OutputFormat } from '../args.js';
import { type AppContext, makeClient, newUsage } from '../context.js';
import { withMentionedImages } from '../images.js';
import { pump, withInterrupt } from '../interrupt.js';
import { nobodyPrompter, terminalPrompter } from '../prompter.js';
import { formatWarning } from '../render/error.js';
import { StreamPrinter } from '../render/printer.js';
import { resumeFromFlags, sessionWiring } from '../sessions/attach.js';
import { chatModel } from '../settings.js';
import { loadTools } from '../tools.js';
import { bindMcp, type ChatMcp, chatMcp } from '../mcp/chat.js';
import type { SkillLimits } from '../../skills/skill-limits.js';

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

/** The chat model at start-up (chooseModel over --model and config; always one: config checked it). */
function startModel(ctx: AppContext): string {
  const choice = chatModel(ctx);
  return choice.ok ? choice.model : ctx.config.defaultModel;
}

/** Build the chat conversation every chat mode starts from. */
export async function createChat(
  ctx: AppContext,
  interactive: boolean,
  kind: SessionKind = 'repl',
): Promise<ChatSession> {
  const client = makeClient(ctx);
  const tools = await loadTools();
  // skill_create is sent only once the person talks about skills (see its offerWhen).
  tools.onDemand = true;
  const skills = await chatSkills(ctx, tools);
  const mcp = chatMcp(ctx, tools);
  const usage = newUsage(ctx);
  const prepare = beforeEachMessage(skills, mcp);
  const settings = {
    model: startModel(ctx),
    thinking: true,
    ...(ctx.config.thinkingEffort ? { effort: ctx.config.thinkingEffort } : {}),
    mode: ctx.mode,
    maxTurns: ctx.config.maxTurns,
    systemPrompt: chatSystemPrompt({
      cwd: ctx.cwd,
      outputDir: ctx.outputDir,
      toolNames: tools.alwaysOffered(),
      date: new Date().toISOString().slice(0, 10),
      uiLanguage: getLanguage(),
      ...(skills ? { skills: skills.listing } : {}),
    }),
  };
  // Saved as it happens, kept inside the context window, budgeted.
  const session = sessionWiring(ctx, { kind, llm: client, usage, tools, ...settings });
  const chat = new ChatSession(
    {
      llm: client,
      client,
      tools,
      prompter: interactive ? terminalPrompter(ctx.err) : nobodyPrompter,
      usage,
      cwd: ctx.cwd,
      outputDir: ctx.outputDir,
      // A loaded skill's scripts run through the shell with its folder readable.
      ...(skills?.folders.length ? { extraReadable: skills.folders } : {}),
      // A loaded skill's allowed-tools: only those tools run until the next message.
      ...(skills ? { guard: (name: string, args: unknown) => skills.limits.check(name, args) } : {}),
      webGrants: newWebGrants(),
    },
    settings,
    { session, ...(prepare ? { prepare } : {}) },
  );
  bindMcp(chat, mcp);
  // --continue / --resume load the saved conversation first.
  await resumeFromFlags(ctx, chat);
  return chat;
}

/**
 * Agent Skills in chat: the `skill` tool joins the chat's tools, and the system prompt gets the
 * list of skills (names and descriptions only). Broken skill files are skipped quietly here:
 * `zhi skill list` is where they are reported.
 */
async function chatSkills(
  ctx: AppContext,
  tools: ToolRegistry,
): Promise<{ listing: string; folders: string[]; limits: SkillLimits } | undefined> {
  const [{ loadCatalog }, { chatSkillTool, skillListing }, { SkillLimits }] = await Promise.all([
    import('../skills/runtime.js'),
    import('../../skills/chat-skill-tool.js'),
    import('../../skills/skill-limits.js'),
  ]);
  const catalog = await loadCatalog(ctx, () => undefined);
  if (!catalog.skills.size) return undefined;
  const limits = new SkillLimits();
  tools.register(chatSkillTool(catalog.skills, { shell: tools.has('shell'), limits }));
  const folders = [...catalog.skills.values()].flatMap((s) => (s.folder ? [s.folder] : []));
  return { listing: skillListing(catalog.skills.values(), getLanguage()), folders, limits };
}

/** Before each message: the limits of skills loaded for the last one end; MCP servers start. */
function beforeEachMessage(
  skills: { limits: SkillLimits } | undefined,
  mcp: ChatMcp | undefined,
): (() => Promise<string[]>) | undefined {
  if (!skills && !mcp) return undefined;
  return async () => {
    skills?.limits.clear();
    return (await mcp?.prepare()) ?? [];
  };
}

/**
 * One question, one answer: `zhi -c "…"` and pipe mode. `typed` is what the person wrote
 * themselves (the `-c` text, not a document piped beside it): its URLs are pre-approved.
 */
export async function runOnce(ctx: AppContext, userText: string, typed = userText): Promise<ExitCodeValue> {
  const chat = await createChat(ctx, ctx.stdinIsTTY, 'oneshot');
  if (chat.deps.webGrants) grantTyped(chat.deps.webGrants, typed);
  const content = await withMentionedImages(userText, {
    cwd: ctx.cwd,
    home: ctx.env.HOME || homedir(),
    note: (line) => process.stderr.write(`${ctx.err.dim(line)}\n`),
    warn: (line) => process.stderr.write(formatWarning(line, ctx.err)),
  });
  const format = ctx.args.flags.outputFormat;
  if (format === 'text' && richTerminal(ctx)) return exitCodeFor(await sendRendered(ctx, chat, content));
  return exitCodeFor(await sendPrinted(ctx, chat, content, format));
}

/** Both streams are a colour terminal that can move the cursor: draw as the REPL does. */
function richTerminal(ctx: AppContext): boolean {
  return ctx.stdoutIsTTY && ctx.stderrIsTTY && ctx.out.enabled && ctx.err.enabled && ctx.env.TERM !== 'dumb';
}

/**
 * `zhi -c` in a terminal: the answer rendered as Markdown (tables, bold, code) by the REPL's
 * renderer. Piped or redirected, the plain printer writes the answer as it is.
 */
async function sendRendered(
  ctx: AppContext,
  chat: ChatSession,
  content: string | ContentPart[],
): Promise<AgentResult> {
  const { ReplRenderer } = await import('../render/repl-renderer.js');
  const renderer = new ReplRenderer({
    mode: 'rich',
    term: {
      write: (s) => process.stdout.write(s),
      columns: () => process.stdout.columns || 80,
      rows: () => process.stdout.rows || 24,
    },
    out: ctx.out,
    err: ctx.err,
    stderr: (s) => process.stderr.write(s),
    verbose: () => ctx.args.flags.verbose > 0,
    debug: ctx.args.flags.debug,
    cwd: ctx.cwd,
  });
  const started = Date.now();
  try {
    const result = await withInterrupt((signal) =>
      pump(chat.send(content, signal), (ev) => renderer.handle(ev)),
    );
    renderer.finish(result, chat.deps.usage, Date.now() - started);
    return result;
  } catch (err) {
    renderer.dispose();
    throw err;
  }
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
  const result = await withInterrupt((signal) =>
    pump(chat.send(content, signal), (ev) => printer.handle(ev)),
  );
  printer.finish(result, chat.deps.usage, chat.settings.model, Date.now() - started);
  return result;
}
