import { t } from '../../../support/i18n/index.js';
import { visible } from '../../../support/sanitize.js';
import type { ChatMcp } from '../../mcp/chat.js';
import { expandPrompt, promptUsage } from '../../mcp/prompts.js';
import { statusLines } from '../../mcp/render.js';
import type { SlashCommand, SlashContext } from './types.js';

/** `/mcp`: the configured MCP servers, their state and their tools. */
const mcp: SlashCommand = {
  name: 'mcp',
  description: 'repl.cmd.mcp',
  async run(_args, ctx) {
    const handle = ctx.mcp;
    if (!handle) {
      ctx.print(t('mcp.none'));
      return;
    }
    const manager = handle.manager();
    if (!manager) {
      const names = Object.keys(ctx.app.config.mcpServers).join(', ');
      ctx.print(`${names}: ${t('mcp.notStartedYet')}`);
      return;
    }
    ctx.print(statusLines(manager.status(), ctx.app.err).join('\n'));
  },
};

export const commands: SlashCommand[] = [mcp];

/**
 * The prompts of the chat's MCP servers that are up, as slash commands (`/mcp__<server>__<prompt>`):
 * what /help lists and Tab completes. A prompt named before its server is up is found anyway
 * (Repl.command waits for the servers through `expandPrompt`).
 */
export function mcpPromptCommands(handle: ChatMcp | undefined): SlashCommand[] {
  const manager = handle?.manager();
  if (!handle || !manager) return [];
  return manager.prompts().map((p) => ({
    name: p.command,
    description: 'mcp.prompt.cmd',
    summary: visible(p.description ?? t('mcp.prompt.cmd')).replace(/\s+/g, ' '),
    ...(p.arguments.length ? { usage: promptUsage(p) } : {}),
    mcpPrompt: true,
    run: (args, ctx) => runPrompt(handle, p.command, args, ctx),
  }));
}

/** Send the message an MCP prompt makes (the servers waited for, the arguments checked). */
export async function runPrompt(
  handle: ChatMcp,
  name: string,
  args: string,
  ctx: SlashContext,
): Promise<void> {
  const text = await expandPrompt(handle, name, args, (line) => ctx.print(ctx.app.err.dim(line)));
  await ctx.sendMessage(text);
}
