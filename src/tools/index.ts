/**
 * The tool table: every built-in tool's entry (name, traits, loader), each declared in its own
 * folder. Start-up imports none of the tools' code: a tool is loaded when a run needs it. Tools
 * of higher layers (skill_create) come as `extra` entries from the command line (cli/tools.ts).
 */
import { FILE_LIST_TOOL, FILE_READ_TOOL, FILE_WRITE_TOOL } from './files/entries.js';
import { OCR_TOOL } from './ocr/entry.js';
import { ToolRegistry } from './registry.js';
import { SCRIPT_TOOL } from './script/entry.js';
import { SHELL_TOOL } from './shell/entry.js';
import { offerToolSearch } from './tool-search/tool-search.js';
import type { ToolDeps, ToolEntry, ToolTraits } from './types.js';
import { WEB_FETCH_TOOL, WEB_SEARCH_TOOL } from './web/entries.js';

export type { ToolDeps, ToolEntry, ToolTraits };
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

/** The registry of the named tools (unknown names are left out: a skill, an MCP tool). */
export async function loadTools(
  deps: ToolDeps,
  names: readonly string[] = BUILTIN_TOOL_NAMES,
  extra: readonly ToolEntry[] = [],
): Promise<ToolRegistry> {
  const registry = new ToolRegistry();
  for (const name of names) {
    const entry = entryOf(name, extra);
    if (entry) registry.register(await entry.load(deps));
  }
  return registry;
}

/** A tool's traits by name; a name that is not a tool of the table (a skill, an MCP tool) has none. */
export function traitsOf(name: string, extra: readonly ToolEntry[] = []): ToolTraits {
  return entryOf(name, extra)?.traits ?? {};
}

function entryOf(name: string, extra: readonly ToolEntry[]): ToolEntry | undefined {
  return ENTRIES.find((e) => e.name === name) ?? extra.find((e) => e.name === name);
}

/**
 * Make a registry a conversation's: each tool is offered as its `offer` trait says (ocr and the
 * web tools wait for tool_search, skill_create for the person to talk about skills), so every
 * request carries less (issue 31: tool definitions ≤ 700 tokens), and tool_search is there.
 */
export function offerOnDemand(registry: ToolRegistry): void {
  registry.onDemand = true;
  offerToolSearch(registry, []);
}
