/**
 * Other agents' names for our tools (Claude-style `allowed-tools` of an Agent Skill: `Read`,
 * `Bash`, `WebFetch`…), lowercased, mapped to the tool of ours that does the same work.
 */
import { FILE_LIST_TOOL, FILE_READ_TOOL, FILE_WRITE_TOOL } from './files/entries.js';
import { SHELL_TOOL } from './shell/entry.js';
import { WEB_FETCH_TOOL, WEB_SEARCH_TOOL } from './web/entries.js';

export const TOOL_ALIASES: Readonly<Record<string, string>> = {
  read: FILE_READ_TOOL.name,
  write: FILE_WRITE_TOOL.name,
  edit: FILE_WRITE_TOOL.name,
  multiedit: FILE_WRITE_TOOL.name,
  glob: FILE_LIST_TOOL.name,
  ls: FILE_LIST_TOOL.name,
  bash: SHELL_TOOL.name,
  webfetch: WEB_FETCH_TOOL.name,
  websearch: WEB_SEARCH_TOOL.name,
};
