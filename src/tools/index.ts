/**
 * The tool table: every built-in tool's entry (name, traits, loader), each declared in its own
 * folder. Start-up imports none of the tools' code: a tool is loaded when a run needs it. Tools
 * of higher layers (skill_create) come as `extra` entries from the command line (cli/tools.ts).
 */
import { ToolRegistry } from './registry.js';
import { BUILTIN_TOOL_NAMES, entryOf } from './table.js';
import { offerToolSearch } from './tool-search/tool-search.js';
import type { ToolDeps, ToolEntry, ToolTraits } from './types.js';

export {
  BUILTIN_TOOL_NAMES,
  FILE_LIST_TOOL,
  FILE_READ_TOOL,
  FILE_WRITE_TOOL,
  OCR_TOOL,
  SCRIPT_TOOL,
  SHELL_TOOL,
  SKILL_DEFAULT_TOOL_NAMES,
  traitsOf,
} from './table.js';
export type { ToolDeps, ToolEntry, ToolTraits };

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

/**
 * Make a registry a conversation's: each tool is offered as its `offer` trait says (ocr and the
 * web tools wait for tool_search, skill_create for the person to talk about skills), so every
 * request carries less (issue 31: tool definitions ≤ 700 tokens), and tool_search is there.
 */
export function offerOnDemand(registry: ToolRegistry): void {
  registry.onDemand = true;
  offerToolSearch(registry, []);
}
