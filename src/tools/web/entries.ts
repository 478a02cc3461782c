/** The web tools in the tool table (tools/index.ts). */
import type { ToolEntry } from '../types.js';

export const WEB_TOOLS: readonly ToolEntry[] = [
  {
    name: 'web_fetch',
    traits: { deferredAs: 'read a web page' },
    load: async () => (await import('./fetch.js')).default,
  },
  {
    name: 'web_search',
    traits: { deferredAs: 'current facts' },
    load: async ({ client }) => (await import('./search.js')).createWebSearchTool({ client }),
  },
];
