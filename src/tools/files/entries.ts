/** The file tools in the tool table (tools/index.ts): their traits, and where their code is. */
import type { ToolEntry } from '../types.js';

/**
 * One file_read call's page. A 100 KB page of a spreadsheet was ≈ 48k tokens, re-sent with every
 * later request and enough to move a conversation into a dearer price tier (issue 31); 24 KB is
 * at most ≈ 12k tokens, and a longer file is read on by offset.
 */
export const PAGE_BYTES = 24 * 1024;

export const FILE_READ_TOOL: ToolEntry = {
  name: 'file_read',
  traits: {
    skillDefault: true,
    action: 'tools.action.file_read',
    verb: 'tools.verb.file_read',
    readsFile: true,
    // Its own page (with a marker giving the next offset) must reach the model whole.
    maxResultBytes: PAGE_BYTES + 2048,
    // Its result can be had again for nothing: an earlier turn's large one is left out (agent/elide.ts).
    repeatable: true,
  },
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
