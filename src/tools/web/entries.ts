/** The web tools in the tool table (tools/index.ts). */
import type { ToolEntry } from '../types.js';

export const WEB_FETCH_TOOL: ToolEntry = {
  name: 'web_fetch',
  traits: {
    offer: { search: 'read a web page' },
    action: 'tools.action.web_fetch',
    verb: 'tools.verb.web_fetch',
  },
  load: async () => (await import('./fetch.js')).default,
};

export const WEB_SEARCH_TOOL: ToolEntry = {
  name: 'web_search',
  traits: {
    offer: { search: 'current facts' },
    action: 'tools.action.web_search',
    verb: 'tools.verb.web_search',
  },
  load: async ({ client }) => (await import('./search.js')).createWebSearchTool({ client }),
};
