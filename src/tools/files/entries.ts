/** The file tools in the tool table (tools/index.ts): their traits, and where their code is. */
import type { ToolEntry } from '../types.js';

export const FILE_READ_TOOL: ToolEntry = {
  name: 'file_read',
  traits: { skillDefault: true, action: 'tools.action.file_read', verb: 'tools.verb.file_read' },
  load: async () => (await import('./read.js')).default,
};

export const FILE_WRITE_TOOL: ToolEntry = {
  name: 'file_write',
  traits: {
    trust: 'skills.trust.write',
    writesOutput: true,
    skillDefault: true,
    action: 'tools.action.file_write',
    verb: 'tools.verb.file_write',
  },
  load: async () => (await import('./write.js')).default,
};

export const FILE_LIST_TOOL: ToolEntry = {
  name: 'file_list',
  traits: { skillDefault: true, action: 'tools.action.file_list', verb: 'tools.verb.file_list' },
  load: async () => (await import('./list.js')).default,
};
