/**
 * skill_create in a tool table (the command line adds it to the built-ins' own, cli/tools.ts):
 * its traits, and where its code is. A conversation offers it only once the person talks about
 * skills (`/skill new` names it, and always has it).
 */
import type { ToolEntry } from '../tools/types.js';

export const SKILL_CREATE_TOOL: ToolEntry = {
  name: 'skill_create',
  traits: {
    offer: { when: (text) => /skill|技能/i.test(text) },
    action: 'tools.action.skill_create',
    verb: 'tools.verb.skill_create',
  },
  load: async () => (await import('./skill-create-tool.js')).default,
};
