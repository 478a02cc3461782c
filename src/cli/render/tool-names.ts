import { type MessageKey, t } from '../../support/i18n/index.js';

/** What each built-in tool does, in the person's words (`write a file`, `写入文件`). */
const ACTIONS: Record<string, MessageKey> = {
  file_read: 'tools.action.file_read',
  file_write: 'tools.action.file_write',
  file_list: 'tools.action.file_list',
  ocr: 'tools.action.ocr',
  shell: 'tools.action.shell',
  web_fetch: 'tools.action.web_fetch',
  web_search: 'tools.action.web_search',
  skill_create: 'tools.action.skill_create',
  skill: 'tools.action.skill',
};

/** The action a built-in tool performs, in the person's language; undefined for others (MCP). */
export function toolAction(name: string): string | undefined {
  const key = Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
  return key ? t(key) : undefined;
}

/** Tool names in a list the person reads: `运行命令 (shell)`, others as they are. */
export function toolNamesShown(names: readonly string[]): string {
  return names.map((n) => (toolAction(n) ? `${toolAction(n)} (${n})` : n)).join(t('tools.approve.sep'));
}
