/**
 * The one place a conversation is put together, for every mode that has one: the REPL, `zhi -c`
 * and pipe mode, and `zhi skill new`. Everything the chat depends on is built first and handed to
 * its constructor (client, tools, prompter, session wiring); nothing is reassigned afterwards.
 */

import { join } from 'node:path';
import { ChatSession } from '../agent/chat.js';
import { newConversation } from '../agent/conversation.js';
import { instructionsPrompt } from '../agent/instructions.js';
import type { Prompter } from '../agent/loop.js';
import { newSessionGrants } from '../agent/permissions.js';
import { chatSystemPrompt } from '../agent/prompt.js';
import type { SessionKind } from '../agent/sessions/format.js';
import type { PlatformClient } from '../llm/types.js';
import type { SkillLimits } from '../skills/skill-limits.js';
import { getLanguage } from '../support/i18n/index.js';
import { loadTools, offerOnDemand, SHELL_TOOL } from '../tools/index.js';
import type { ToolRegistry } from '../tools/registry.js';
import { NamedPaths } from '../tools/scope.js';
import { makeClient, newUsage } from './client.js';
import type { AppContext } from './context.js';
import { hookRunner, startSession } from './hooks.js';
import { houseRules } from './house-rules.js';
import { type ChatMcp, chatMcp } from './mcp/chat.js';
import { formatWarning } from './render/error.js';
import { type Resumed, resumeFromFlags, sessionWiring } from './sessions/attach.js';
import { chatModel } from './settings.js';
import { ALL_TOOL_NAMES, CLI_TOOLS, toolDeps } from './tools.js';

export interface ChatOrder {
  /** What the session file says the conversation was (`zhi sessions`). */
  kind: SessionKind;
  /** How the loop reaches the person (the REPL's, the terminal's, or nobody when piped). */
  prompter: Prompter;
  /** The client to talk through, when the caller needs it too; otherwise one is made. */
  client?: PlatformClient;
  /**
   * Only these tools, always offered, without skills or MCP servers (`zhi skill new`). Absent:
   * every tool, the rarely needed ones offered on demand, with the skills and MCP servers.
   */
  tools?: readonly string[];
  /** The saved conversation, found already (the REPL's --continue, before its prompt showed). */
  resumed?: Resumed | undefined;
}

/** A chat and what was built for it that its mode uses beside it. */
export interface BuiltChat {
  chat: ChatSession;
  /** The API client the chat talks through (attachments' OCR and `/run` use it too). */
  client?: PlatformClient;
  /** The chat's MCP servers, when any are configured (`/mcp`). */
  mcp?: ChatMcp | undefined;
}

/** The chat model at start-up (chooseModel over --model and config; always one: config checked it). */
export function startModel(ctx: AppContext): string {
  const choice = chatModel(ctx);
  return choice.ok ? choice.model : ctx.config.defaultModel;
}

/** Build a conversation; with --continue / --resume it starts from the saved one. */
export async function createChat(ctx: AppContext, order: ChatOrder): Promise<BuiltChat> {
  const client = order.client ?? makeClient(ctx);
  const tools = await loadTools(toolDeps(ctx.config, client), order.tools ?? ALL_TOOL_NAMES, CLI_TOOLS);
  const full = order.tools === undefined;
  // A conversation offers each tool as its `offer` trait says: ocr and the web tools wait for
  // tool_search (or a call by name), skill_create for the person to talk about skills.
  if (full) offerOnDemand(tools);
  const skills = full ? await chatSkills(ctx, tools) : undefined;
  // Images MCP tools return go to a vision model: the chat's own when it can see.
  const mcp: ChatMcp | undefined = full
    ? chatMcp(
        ctx,
        tools,
        {
          client,
          chatModel: () => chat.settings.model,
          defer: true,
          oauthFile: join(ctx.paths.configDir, 'mcp-oauth.json'),
        },
        order.prompter,
      )
    : undefined;
  const usage = newUsage(ctx);
  const prepare = beforeEachMessage(skills, mcp);
  // House rules: ZHI.md / AGENTS.md here and in the parents, and the person's own ZHI.md.
  const instructions = full ? await houseRules(ctx) : undefined;
  const settings = {
    model: startModel(ctx),
    thinking: true,
    ...(ctx.config.thinkingEffort ? { effort: ctx.config.thinkingEffort } : {}),
    mode: ctx.mode,
    maxTurns: ctx.config.maxTurns,
    systemPrompt: chatSystemPrompt({
      cwd: ctx.cwd,
      outputDir: ctx.outputDir,
      toolNames: full ? tools.alwaysOffered() : tools.names(),
      date: new Date().toISOString().slice(0, 10),
      uiLanguage: getLanguage(),
      ...(skills ? { skills: skills.listing } : {}),
      ...(instructions?.files.length ? { instructions: instructionsPrompt(instructions) } : {}),
    }),
    ...(instructions?.files.length ? { instructionFiles: instructions.files.map((f) => f.path) } : {}),
  };
  // Saved as it happens, kept inside the context window, budgeted.
  const conversation = newConversation(settings);
  const session = sessionWiring(ctx, { kind: order.kind, llm: client, usage, tools, conversation });
  // The person's hooks (config.yaml): their own commands, told about tool calls, turns and the session.
  const runHook = hookRunner(ctx.config.hooks, {
    cwd: ctx.cwd,
    sessionId: () => session.recorder.id,
    env: ctx.env,
  });
  const chat = new ChatSession(
    {
      llm: client,
      tools,
      prompter: order.prompter,
      usage,
      cwd: ctx.cwd,
      outputDir: ctx.outputDir,
      // A loaded skill's scripts run through the shell with its folder readable.
      ...(skills?.folders.length ? { extraReadable: skills.folders } : {}),
      // A loaded skill's allowed-tools: only those tools run until the next message.
      ...(skills ? { guard: (name: string, args: unknown) => skills.limits.check(name, args) } : {}),
      grants: newSessionGrants(ctx.config),
      // --yes agrees to the price of paid services in advance (--auto does too, by the mode).
      priceAgreed: ctx.args.flags.yes,
      // The paths the person types: hidden files among them may be read (tools/scope.ts).
      named: new NamedPaths(),
      ...(runHook ? { runHook } : {}),
    },
    conversation,
    { session, ...(prepare ? { prepare } : {}), ...(mcp ? { afterRun: mcp.failures } : {}) },
  );
  // --continue / --resume load the saved conversation first.
  await resumeFromFlags(ctx, chat, order.resumed);
  if (runHook) await startSession(runHook, (line) => process.stderr.write(formatWarning(line, ctx.err)));
  return { chat, client, mcp };
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
  const [{ loadCatalog }, { chatSkillTool, skillListing }, { SkillLimits }, { chatSkillsOf, TrustStore }] =
    await Promise.all([
      import('./skills/catalog.js'),
      import('../skills/chat-skill-tool.js'),
      import('../skills/skill-limits.js'),
      import('../skills/trust.js'),
    ]);
  const catalog = await loadCatalog(ctx, () => undefined);
  if (!catalog.skills.size) return undefined;
  // An untrusted project skill never stands in for a built-in or personal one of the same name.
  const skills = catalog.shadows.size
    ? await chatSkillsOf(await TrustStore.open(ctx.paths.trustFile), catalog)
    : catalog.skills;
  const limits = new SkillLimits();
  tools.register(chatSkillTool(skills, { shell: tools.has(SHELL_TOOL.name), limits }));
  const folders = [...skills.values()].flatMap((s) => (s.folder ? [s.folder] : []));
  return { listing: skillListing(skills.values(), getLanguage()), folders, limits };
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
