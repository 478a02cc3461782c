/**
 * The table of built-in tools: each tool's entry (its name, traits and how to load it), without
 * loading any tool or the registry. What only needs a tool's facts (the names a line shows, the
 * REPL's prompt) imports this, not index.ts, and so loads no schema library (zod).
 */
import { FILE_LIST_TOOL, FILE_READ_TOOL, FILE_WRITE_TOOL } from './files/entries.js';
import { OCR_TOOL } from './ocr/entry.js';
import { SCRIPT_TOOL } from './script/entry.js';
import { SHELL_TOOL } from './shell/entry.js';
import type { ToolEntry, ToolTraits } from './types.js';
import { WEB_FETCH_TOOL, WEB_SEARCH_TOOL } from './web/entries.js';

/**
 * The entries code outside tools/ names when it needs that very tool, not a kind of tool: the
 * shell a `!command` runs, file_write whose `path` a skill run takes as its answer… Ask
 * `traitsOf(name)` for anything a tool could share with another.
 */
export { FILE_LIST_TOOL, FILE_READ_TOOL, FILE_WRITE_TOOL, OCR_TOOL, SCRIPT_TOOL, SHELL_TOOL };

const ENTRIES: readonly ToolEntry[] = [
  FILE_READ_TOOL,
  FILE_WRITE_TOOL,
  FILE_LIST_TOOL,
  OCR_TOOL,
  SHELL_TOOL,
  SCRIPT_TOOL,
  WEB_FETCH_TOOL,
  WEB_SEARCH_TOOL,
];

export const BUILTIN_TOOL_NAMES: readonly string[] = ENTRIES.map((e) => e.name);

/** The tools an Agent Skill (SKILL.md) gets when it names none (trait `skillDefault`). */
export const SKILL_DEFAULT_TOOL_NAMES: readonly string[] = ENTRIES.filter((e) => e.traits.skillDefault).map(
  (e) => e.name,
);

/** A tool's traits by name; a name that is not a tool of the table (a skill, an MCP tool) has none. */
export function traitsOf(name: string, extra: readonly ToolEntry[] = []): ToolTraits {
  return entryOf(name, extra)?.traits ?? {};
}

export function entryOf(name: string, extra: readonly ToolEntry[]): ToolEntry | undefined {
  return ENTRIES.find((e) => e.name === name) ?? extra.find((e) => e.name === name);
}
