import type { ChatMcp } from '../../mcp/chat.js';
import type { SlashCommand } from './types.js';

/** The slash commands of the MCP prompts of the servers that are up (none before they start). */
export async function mcpPrompts(mcp: ChatMcp | undefined): Promise<SlashCommand[]> {
  if (!mcp?.manager()) return [];
  const { mcpPromptCommands } = await import('./mcp.js');
  return mcpPromptCommands(mcp);
}
