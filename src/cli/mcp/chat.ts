/**
 * MCP servers in a chat: nothing starts with the chat; the first message starts every configured
 * server in the background (each with its timeout), and each one's tools join the chat's tools
 * as soon as it is up; tool_search and calls of its tools wait for a server still starting. `/mcp` reads the
 * state from the ChatMcp createChat built beside the chat.
 */
import { t } from '../../support/i18n/index.js';
import type { McpManager, McpOptions } from '../../tools/mcp/manager.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { AppContext } from '../context.js';

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
export function chatMcp(ctx: AppContext, tools: ToolRegistry, options: McpOptions = {}): ChatMcp | undefined {
  const servers = ctx.config.mcpServers;
  if (!Object.keys(servers).length) return undefined;
  let manager: McpManager | undefined;
  let created: Promise<McpManager> | undefined;
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
  return {
    prepare: async () => warnings(await ensure()),
    failures: () => (manager ? warnings(manager) : []),
    ensure,
    servers: () => Object.keys(servers),
    manager: () => manager,
  };
}
