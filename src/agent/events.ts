import type { Cost } from '../llm/models.js';
import type { ApiErrorInfo, AssistantMessage, Message, ToolMessage, Usage } from '../llm/types.js';
import type { ZhiError } from '../support/errors.js';
import type { WrittenFile } from '../tools/types.js';

export type StopReason = 'answer' | 'turn_limit' | 'error' | 'aborted' | 'budget';

export interface AgentResult {
  /** The final assistant text (empty when the run did not reach an answer). */
  text: string;
  stopReason: StopReason;
  turns: number;
  toolCalls: number;
  filesRead: number;
  filesWritten: WrittenFile[];
  error?: ZhiError;
  /** The answer was cut at the model's output limit. */
  truncated?: boolean;
}

/**
 * The one event stream of a run (design §1). The REPL renderer, the one-shot printer,
 * `--output-format stream-json` and the session recorder all consume it.
 */
export type AgentEvent =
  | { type: 'turn_start'; turn: number; model: string }
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; text: string }
  | { type: 'retry'; attempt: number; maxRetries: number; delayMs: number; error: ApiErrorInfo }
  | { type: 'message'; message: Message }
  | {
      type: 'tool_start';
      id: string;
      name: string;
      label: string;
      args: unknown;
      index: number;
      total: number;
    }
  | {
      type: 'permission';
      id: string;
      name: string;
      decision: 'allowed' | 'denied' | 'refused';
      /** For the model (English); renderers show their own text for a known `code`. */
      reason?: string;
      /** For the person, in their language (renderers show it instead of `reason`). */
      notice?: string;
      code?: 'no_terminal';
    }
  | {
      type: 'tool_end';
      id: string;
      name: string;
      label: string;
      ok: boolean;
      result: string;
      durationMs: number;
      index: number;
      total: number;
    }
  | { type: 'progress'; id: string; note: string }
  | { type: 'usage'; model: string; usage: Usage; cost: Cost }
  | { type: 'warning'; message: string }
  | { type: 'error'; error: ZhiError }
  | { type: 'done'; result: AgentResult };

export type { AssistantMessage, ToolMessage };
