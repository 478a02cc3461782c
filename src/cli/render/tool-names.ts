import { type MessageKey, t } from '../../support/i18n/index.js';

/** What each built-in tool does, in the person's words (`write a file`, `写入文件`). */
const ACTIONS: Record<string, MessageKey> = {
  file_read: 'tools.action.file_read',
  file_write: 'tools.action.file_write',
  file_list: 'tools.action.file_list',
  ocr: 'tools.action.ocr',
  shell: 'tools.action.shell',
  run_script: 'tools.action.run_script',
  web_fetch: 'tools.action.web_fetch',
  web_search: 'tools.action.web_search',
  skill_create: 'tools.action.skill_create',
  skill: 'tools.action.skill',
};

/** The same as a short verb for the tool line, before what the call works on (`Write`, `写入`). */
const VERBS: Record<string, MessageKey> = {
  file_read: 'tools.verb.file_read',
  file_write: 'tools.verb.file_write',
  file_list: 'tools.verb.file_list',
  ocr: 'tools.verb.ocr',
  shell: 'tools.verb.shell',
  run_script: 'tools.verb.run_script',
  web_fetch: 'tools.verb.web_fetch',
  web_search: 'tools.verb.web_search',
  skill_create: 'tools.verb.skill_create',
  skill: 'tools.verb.skill',
};

/** The separator of an MCP tool's name, `<server>__<tool>` (tools/mcp/convert.ts). */
const MCP_SEPARATOR = '__';

/** The action a built-in tool performs, in the person's language; undefined for others (MCP). */
export function toolAction(name: string): string | undefined {
  const key = Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
  return key ? t(key) : undefined;
}

/** An MCP tool's name as a person reads it: `files: list_directory`; undefined for other tools. */
export function mcpToolTitle(name: string): string | undefined {
  const i = name.indexOf(MCP_SEPARATOR);
  if (i <= 0 || Object.hasOwn(ACTIONS, name)) return undefined;
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
  const key = Object.hasOwn(VERBS, name) ? VERBS[name] : undefined;
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
