/** shell in the tool table (tools/index.ts): every call asks a person, and it can change things. */
import type { ToolEntry } from '../types.js';

export const SHELL_TOOL: ToolEntry = {
  name: 'shell',
  traits: {
    trust: 'skills.trust.shell',
    needsPerson: true,
    ownAllowRule: true,
    showsOutput: true,
    action: 'tools.action.shell',
    verb: 'tools.verb.shell',
  },
  load: async (deps) => (await import('./shell.js')).createShellTool(deps.shell),
};
