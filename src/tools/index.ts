import { ToolRegistry } from './registry.js';
import type { AnyTool } from './types.js';

/**
 * The built-in tools, loaded lazily so start-up imports none of their libraries.
 * Each entry is a tool module with a default export; add new tools here. Tools from higher layers
 * (skill_create) are added by the command line, see cli/tools.ts.
 */
const loaders: Record<string, () => Promise<{ default: AnyTool }>> = {
  file_read: () => import('./file-read.js'),
  file_write: () => import('./file-write.js'),
  file_list: () => import('./file-list.js'),
  ocr: () => import('./ocr.js'),
  shell: () => import('./shell.js'),
  web_fetch: () => import('./web-fetch.js'),
  web_search: () => import('./web-search.js'),
};

export const BUILTIN_TOOL_NAMES = Object.keys(loaders);

export async function loadTools(names: readonly string[] = BUILTIN_TOOL_NAMES): Promise<ToolRegistry> {
  const registry = new ToolRegistry();
  for (const name of names) {
    const load = loaders[name];
    if (!load) continue;
    registry.register((await load()).default);
  }
  return registry;
}
