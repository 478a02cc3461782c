import type { PlatformClient } from '../llm/types.js';
import { SKILL_CREATE_TOOL } from '../skills/skill-create-entry.js';
import type { ResolvedConfig } from '../support/config.js';
import { BUILTIN_TOOL_NAMES } from '../tools/table.js';
import type { ToolDeps, ToolEntry } from '../tools/types.js';

/**
 * Tools of higher layers, added to the tool table's own: skill_create belongs to the skills
 * layer (it validates against the skill catalogue). The command line is where the layers meet,
 * so they are put together here and passed to `loadTools` as its `extra` entries.
 */
export const CLI_TOOLS: readonly ToolEntry[] = [SKILL_CREATE_TOOL];

/** Every tool a conversation or a skill may use. */
export const ALL_TOOL_NAMES: readonly string[] = [...BUILTIN_TOOL_NAMES, ...CLI_TOOLS.map((e) => e.name)];

/** What this run's tools are built with: the client, and the shell's settings from config. */
export function toolDeps(
  config: Pick<ResolvedConfig, 'shellSandbox' | 'shellEnv'>,
  client: PlatformClient,
): ToolDeps {
  return { client, shell: { sandbox: config.shellSandbox, envNames: config.shellEnv } };
}
