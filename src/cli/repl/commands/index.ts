import { pushAll } from '../../../support/arrays.js';
import type { SlashCommand } from './types.js';

/**
 * The slash-command registry: one small module per command (or per family), each exporting
 * `commands: SlashCommand[]`. Add a module here; the REPL loads them when it starts.
 */
const modules: (() => Promise<{ commands: SlashCommand[] }>)[] = [
  () => import('./basic.js'),
  () => import('./modes.js'),
  () => import('./model.js'),
  () => import('./conversation.js'),
  () => import('./info.js'),
  () => import('./sessions.js'),
  () => import('./skills.js'),
  () => import('./input.js'),
  () => import('./mcp.js'),
  () => import('./web.js'),
];

export async function loadSlashCommands(): Promise<SlashCommand[]> {
  const all: SlashCommand[] = [];
  for (const load of modules) pushAll(all, (await load()).commands);
  return all;
}
