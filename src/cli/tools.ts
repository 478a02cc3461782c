import {
  loadTools as loadBuiltinTools,
  BUILTIN_TOOL_NAMES as TOOL_LAYER_NAMES,
  type ToolDeps,
} from '../tools/index.js';
import type { ToolRegistry } from '../tools/registry.js';

/**
 * Every tool a conversation or a skill may use: the tools layer's own, plus skill_create, which
 * belongs to the skills layer (it validates against the skill catalogue). The command line is
 * where the layers meet, so the full set is put together here.
 */
export const ALL_TOOL_NAMES: readonly string[] = [...TOOL_LAYER_NAMES, 'skill_create'];

export async function loadTools(
  deps: ToolDeps,
  names: readonly string[] = ALL_TOOL_NAMES,
): Promise<ToolRegistry> {
  const registry = await loadBuiltinTools(
    deps,
    names.filter((n) => n !== 'skill_create'),
  );
  if (names.includes('skill_create')) {
    registry.register((await import('../skills/skill-create-tool.js')).default);
  }
  return registry;
}
