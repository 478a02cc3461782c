/**
 * What the agent tells the person's hooks (config.yaml `hooks:`), and what they answer. The
 * agent only calls a function (AgentDeps.runHook); running the commands is the CLI's business.
 */
export type HookEvent =
  | { event: 'before_tool'; tool: string; arguments: unknown }
  | { event: 'after_tool'; tool: string; arguments: unknown; ok: boolean; result: string }
  | { event: 'after_turn'; stop_reason: string; answer: string }
  | { event: 'session_start' }
  | { event: 'session_end' };

export interface HookVerdict {
  /** A before_tool hook stopped the call, in its own words (shown marked as the hook's). */
  block?: string;
  /** Lines for the person (a hook that failed or took too long), in their language. */
  notes: string[];
}

export type HookRunner = (ev: HookEvent) => Promise<HookVerdict>;
