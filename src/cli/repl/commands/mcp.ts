import { t } from '../../../support/i18n/index.js';
import { statusLines } from '../../mcp/render.js';
import type { SlashCommand } from './types.js';

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
