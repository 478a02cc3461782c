/**
 * run_script in the tool table (tools/index.ts): it runs code the model wrote, so a user's skill
 * that lists it must be trusted, and each call waits for a person unless `--auto` and a sandbox.
 */
import type { ToolEntry } from '../types.js';

/** The most output of a script the model gets. */
export const MAX_OUTPUT_BYTES = 100 * 1024;

export const SCRIPT_TOOL: ToolEntry = {
  name: 'run_script',
  traits: {
    trust: 'skills.trust.script',
    needsPerson: true,
    writesOutput: true,
    offer: { search: 'run Python/Node code' },
    maxResultBytes: MAX_OUTPUT_BYTES + 4096,
    action: 'tools.action.run_script',
    verb: 'tools.verb.run_script',
  },
  load: async (deps) => (await import('./run-script.js')).createScriptTool(deps.shell),
};
