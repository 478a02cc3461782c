/**
 * MCP servers in a chat: nothing starts with the chat; the first message starts every configured
 * server (with its timeout), and their tools join the chat's tools from then on. `/mcp` reads the
 * state from the ChatMcp createChat built beside the chat.
 */
import { t } from '../../support/i18n/index.js';
import type { McpManager, McpOptions } from '../../tools/mcp/manager.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { AppContext } from '../context.js';

export interface ChatMcp {
  /** Start the servers on the first call; returns warnings (servers that did not start). */
  prepare(): Promise<string[]>;
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
  let started: Promise<string[]> | undefined;
  return {
    prepare() {
      started ??= (async () => {
        const { McpManager } = await import('../../tools/mcp/manager.js');
        manager = new McpManager(servers, ctx.cwd, tools, options);
        const failed = await manager.start();
        return failed.map((line) => t('mcp.warn.notStarted', { problem: line }));
      })();
      // Warnings are given once, with the first message.
      const first = started;
      started = first.then(() => []);
      return first;
    },
    manager: () => manager,
  };
}
