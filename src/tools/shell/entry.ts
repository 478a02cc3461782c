/** shell in the tool table (tools/index.ts): every call asks a person, and it can change things. */
import type { ToolEntry } from '../types.js';

/** The most output of a command the model gets (its head and tail). */
export const MAX_OUTPUT_BYTES = 100 * 1024;

export const SHELL_TOOL: ToolEntry = {
  name: 'shell',
  traits: {
    trust: 'skills.trust.shell',
    needsPerson: true,
    ownAllowRule: true,
    showsOutput: true,
    // 100 KB of output plus the exit-code and marker lines.
    maxResultBytes: MAX_OUTPUT_BYTES + 4096,
    action: 'tools.action.shell',
    verb: 'tools.verb.shell',
  },
  load: async (deps) => (await import('./shell.js')).createShellTool(deps.shell),
};
