import type { ToolKind } from '../tools/types.js';

export type PermissionMode = 'approve' | 'auto';
export type Decision = 'allow' | 'ask' | 'deny';

/**
 * The one permission policy, used by every mode (design §3):
 * - read tools run;
 * - risky tools ask in approve mode and run in auto mode;
 * - shell asks every time, in every mode;
 * - with no person to ask (stdin not a terminal), every "ask" is a deny.
 */
export function decide(kind: ToolKind, mode: PermissionMode, interactive: boolean): Decision {
  if (kind === 'read') return 'allow';
  if (kind === 'risky' && mode === 'auto') return 'allow';
  return interactive ? 'ask' : 'deny';
}
