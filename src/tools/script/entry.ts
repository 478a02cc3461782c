/**
 * run_script in the tool table (tools/index.ts): it runs code the model wrote, so a user's skill
 * that lists it must be trusted, and each call waits for a person unless `--auto` and a sandbox.
 */
import type { ToolEntry } from '../types.js';

export const SCRIPT_TOOL: ToolEntry = {
  name: 'run_script',
  traits: {
    trust: 'skills.trust.script',
    needsPerson: true,
    writesOutput: true,
    deferredAs: 'run Python/Node code',
    action: 'tools.action.run_script',
    verb: 'tools.verb.run_script',
  },
  load: async (deps) => (await import('./run-script.js')).createScriptTool(deps.shell),
};
