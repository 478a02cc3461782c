/** The file tools in the tool table (tools/index.ts): their traits, and where their code is. */
import type { ToolEntry } from '../types.js';

export const FILE_TOOLS: readonly ToolEntry[] = [
  {
    name: 'file_read',
    traits: { skillDefault: true },
    load: async () => (await import('./read.js')).default,
  },
  {
    name: 'file_write',
    traits: { trust: 'skills.trust.write', writesOutput: true, skillDefault: true },
    load: async () => (await import('./write.js')).default,
  },
  {
    name: 'file_list',
    traits: { skillDefault: true },
    load: async () => (await import('./list.js')).default,
  },
];
