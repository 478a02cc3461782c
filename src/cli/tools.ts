import type { PlatformClient } from '../llm/types.js';
import type { ResolvedConfig } from '../support/config.js';
import { BUILTIN_TOOL_NAMES } from '../tools/index.js';
import type { ToolDeps, ToolEntry } from '../tools/types.js';

/**
 * Tools of higher layers, added to the tool table's own: skill_create belongs to the skills
 * layer (it validates against the skill catalogue). The command line is where the layers meet,
 * so they are put together here and passed to `loadTools` as its `extra` entries.
 */
export const CLI_TOOLS: readonly ToolEntry[] = [
  {
    name: 'skill_create',
    traits: { action: 'tools.action.skill_create', verb: 'tools.verb.skill_create' },
    load: async () => (await import('../skills/skill-create-tool.js')).default,
  },
];

/** Every tool a conversation or a skill may use. */
export const ALL_TOOL_NAMES: readonly string[] = [...BUILTIN_TOOL_NAMES, ...CLI_TOOLS.map((e) => e.name)];

/** What this run's tools are built with: the client, and the shell's settings from config. */
export function toolDeps(
  config: Pick<ResolvedConfig, 'shellSandbox' | 'shellEnv'>,
  client: PlatformClient,
): ToolDeps {
  return { client, shell: { sandbox: config.shellSandbox, envNames: config.shellEnv } };
}
