import { CHAT_SKILL_TOOL } from '../../skills/chat-skill-name.js';
import { type MessageKey, t } from '../../support/i18n/index.js';
import { traitsOf } from '../../tools/table.js';
import { CLI_TOOLS } from '../tools.js';

/**
 * A tool's words for the person, from its traits (`action`, `verb`): the tool table's and the
 * command line's own (skill_create). The chat's skill tool has no entry in a table (it is built
 * from the skills found), so its words are added here by its name.
 */
function wordsOf(name: string): { action?: MessageKey; verb?: MessageKey } {
  if (name === CHAT_SKILL_TOOL) return { action: 'tools.action.skill', verb: 'tools.verb.skill' };
  return traitsOf(name, CLI_TOOLS);
}

/** The separator of an MCP tool's name, `<server>__<tool>` (tools/mcp/convert.ts). */
const MCP_SEPARATOR = '__';

/** The action a built-in tool performs, in the person's language; undefined for others (MCP). */
export function toolAction(name: string): string | undefined {
  const key = wordsOf(name).action;
  return key ? t(key) : undefined;
}

/** An MCP tool's name as a person reads it: `files: list_directory`; undefined for other tools. */
export function mcpToolTitle(name: string): string | undefined {
  const i = name.indexOf(MCP_SEPARATOR);
  if (i <= 0 || wordsOf(name).action) return undefined;
  return `${name.slice(0, i)}: ${name.slice(i + MCP_SEPARATOR.length)}`;
}

/** A tool named for a sentence: `运行命令`, `files: list_directory`, else its own name. */
export function toolTitle(name: string): string {
  return toolAction(name) ?? mcpToolTitle(name) ?? name;
}

/**
 * What a tool line says a call does, `label` already sanitized: `写入 notes.md`, `Run ls -la`;
 * an MCP tool's label already names its server and tool (`files: list_directory docs`), so it
 * stands alone; any other tool keeps its name.
 */
export function callText(name: string, label: string): string {
  const key = wordsOf(name).verb;
  const shown = label === name ? '' : label;
  if (key) return shown ? `${t(key)} ${shown}` : t(key);
  const server = name.slice(0, Math.max(0, name.indexOf(MCP_SEPARATOR)));
  if (server && shown.startsWith(`${server}: `)) return shown;
  return shown ? `${mcpToolTitle(name) ?? name} ${shown}` : (mcpToolTitle(name) ?? name);
}

/** Tool names in a list the person reads: `运行命令 (shell)`, others as they are. */
export function toolNamesShown(names: readonly string[]): string {
  return names.map((n) => (toolAction(n) ? `${toolAction(n)} (${n})` : n)).join(t('tools.approve.sep'));
}
