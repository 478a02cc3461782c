import type { PlatformClient } from '../llm/types.js';
import { ToolRegistry } from './registry.js';
import type { AnyTool } from './types.js';

/**
 * What the built-in tools are built with. Each tool takes only the part it needs (ocr and
 * web_search the API client they call), so a tool never reaches for a dependency at run time.
 */
export interface ToolDeps {
  client: PlatformClient;
}

/**
 * The built-in tools, each made by its factory and loaded lazily so start-up imports none of
 * their libraries. Add new tools here. Tools from higher layers (skill_create) are added by the
 * command line, see cli/tools.ts.
 */
const factories: Record<string, (deps: ToolDeps) => Promise<AnyTool>> = {
  file_read: async () => (await import('./files/read.js')).default,
  file_write: async () => (await import('./files/write.js')).default,
  file_list: async () => (await import('./files/list.js')).default,
  ocr: async ({ client }) => (await import('./ocr/ocr.js')).createOcrTool({ client }),
  shell: async () => (await import('./shell/shell.js')).default,
  web_fetch: async () => (await import('./web/fetch.js')).default,
  web_search: async ({ client }) => (await import('./web/search.js')).createWebSearchTool({ client }),
};

export const BUILTIN_TOOL_NAMES = Object.keys(factories);

export async function loadTools(
  deps: ToolDeps,
  names: readonly string[] = BUILTIN_TOOL_NAMES,
): Promise<ToolRegistry> {
  const registry = new ToolRegistry();
  for (const name of names) {
    const make = factories[name];
    if (make) registry.register(await make(deps));
  }
  return registry;
}
