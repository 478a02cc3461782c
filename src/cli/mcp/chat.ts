/**
 * MCP servers in a chat: nothing starts with the chat; the first message starts every configured
 * server in the background (each with its timeout), and each one's tools join the chat's tools
 * as soon as it is up; tool_search and calls of its tools wait for a server still starting. `/mcp` reads the
 * state from the ChatMcp createChat built beside the chat.
 */
import type { Prompter } from '../../agent/loop.js';
import { t } from '../../support/i18n/index.js';
import type { McpManager, McpOptions } from '../../tools/mcp/manager.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { AppContext } from '../context.js';
import { allowedProjectServers, hasProjectServers } from './project.js';

export interface ChatMcp {
  /**
   * Before each message: the first starts the servers — in the background when their tools are
   * deferred (the message goes out at once), else waited for. Returns warnings (servers that
   * did not start and were not reported yet).
   */
  prepare(): Promise<string[]>;
  /** After each message: servers that failed meanwhile, not reported yet. */
  failures(): string[];
  /** The manager, made (and the servers started) if it was not yet: an `@server:uri` needs it. */
  ensure(): Promise<McpManager>;
  /** The configured servers' names. */
  servers(): string[];
  manager(): McpManager | undefined;
}

/**
 * The MCP side of a chat, or undefined when no server is configured. `options` reach the tools:
 * the client and the chat's model put images the tools return in front of a vision model.
 */
export function chatMcp(
  ctx: AppContext,
  tools: ToolRegistry,
  options: McpOptions = {},
  prompter?: Prompter,
): ChatMcp | undefined {
  const servers = { ...ctx.config.mcpServers };
  const project = hasProjectServers(ctx.cwd);
  if (!Object.keys(servers).length && !project) return undefined;
  let manager: McpManager | undefined;
  let created: Promise<McpManager> | undefined;
  let asked: Promise<string[]> | undefined;
  const warnings = (m: McpManager) =>
    m.newFailures().map((line) => t('mcp.warn.notStarted', { problem: line }));
  const ensure = () =>
    (created ??= (async () => {
      const { McpManager } = await import('../../tools/mcp/manager.js');
      const made = new McpManager(servers, ctx.cwd, tools, options);
      manager = made;
      // Deferred tools are not in the first request anyway: nothing waits for the servers.
      if (options.defer === true) made.startInBackground();
      else await made.start();
      return made;
    })());
  // The project's servers: asked about before the first message, added once allowed.
  const addProject = async (made: McpManager): Promise<string[]> => {
    const notes: string[] = [];
    const allowed = await allowedProjectServers(ctx.cwd, ctx.paths.dataDir, Object.keys(servers), {
      ...(prompter?.interactive
        ? {
            ask: (message: string, detail: string) =>
              prompter.ask({ message, detail }, new AbortController().signal),
          }
        : {}),
      warn: (line) => notes.push(line),
    });
    Object.assign(servers, allowed);
    const started = made.add(allowed);
    if (options.defer !== true) await started;
    return notes;
  };
  return {
    prepare: async () => {
      const made = await ensure();
      if (project && !asked) asked = addProject(made);
      const notes = (await asked) ?? [];
      // The project's notes are given once, with the first message.
      asked = asked?.then(() => []);
      return [...notes, ...warnings(made)];
    },
    failures: () => (manager ? warnings(manager) : []),
    ensure,
    servers: () => Object.keys(servers),
    manager: () => manager,
  };
}
