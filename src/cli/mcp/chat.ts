/**
 * MCP servers in a chat: nothing starts with the chat; the first message starts every configured
 * server (with its timeout), and their tools join the chat's tools from then on. `/mcp` reads the
 * state through `mcpOf(chat)`.
 */
import type { ChatSession } from '../../agent/chat.js';
import { t } from '../../support/i18n/index.js';
import type { McpManager } from '../../tools/mcp/manager.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { AppContext } from '../context.js';

export interface ChatMcp {
  /** Start the servers on the first call; returns warnings (servers that did not start). */
  prepare(): Promise<string[]>;
  manager(): McpManager | undefined;
  /** The chat these servers serve (its model decides who looks at images the tools return). */
  attach(chat: ChatSession): void;
}

const byChat = new WeakMap<ChatSession, ChatMcp>();

/** The MCP side of a chat, or undefined when no server is configured. */
export function chatMcp(ctx: AppContext, tools: ToolRegistry): ChatMcp | undefined {
  const servers = ctx.config.mcpServers;
  if (!Object.keys(servers).length) return undefined;
  let manager: McpManager | undefined;
  let started: Promise<string[]> | undefined;
  let chat: ChatSession | undefined;
  return {
    prepare() {
      started ??= (async () => {
        const { McpManager } = await import('../../tools/mcp/manager.js');
        manager = new McpManager(servers, ctx.cwd, tools, { chatModel: () => chat?.settings.model });
        const failed = await manager.start();
        return failed.map((line) => t('mcp.warn.notStarted', { problem: line }));
      })();
      // Warnings are given once, with the first message.
      const first = started;
      started = first.then(() => []);
      return first;
    },
    manager: () => manager,
    attach(c) {
      chat = c;
    },
  };
}

export function bindMcp(chat: ChatSession, mcp: ChatMcp | undefined): void {
  if (!mcp) return;
  mcp.attach(chat);
  byChat.set(chat, mcp);
}

export function mcpOf(chat: ChatSession): ChatMcp | undefined {
  return byChat.get(chat);
}
