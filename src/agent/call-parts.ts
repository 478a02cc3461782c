/**
 * The parts of one tool call that deciding and running it share: its place in the response, what
 * it came to, what the run gives it, and how a refusal is worded for the person.
 */
import type { ToolCall } from '../llm/types.js';
import { type Params, t } from '../support/i18n/index.js';
import { visible } from '../support/sanitize.js';
import type { AnyTool, Notice, WrittenFile } from '../tools/types.js';
import type { AgentDeps, AgentOptions } from './agent-deps.js';
import type { RunEvent } from './events.js';

export interface CallOutcome {
  content: string;
  ok: boolean;
  /** A successful call of a tool that reads one file (its `readsFile`). */
  filesRead: number;
  filesWritten: WrittenFile[];
  /** Lines the tool wants the person to see (a search's sources). */
  display?: string[];
}

/** One call's place in its response, and where its events go. */
export interface CallSlot {
  call: ToolCall;
  index: number;
  total: number;
  emit: (ev: RunEvent) => void;
}

export interface RunParts {
  deps: AgentDeps;
  opts: AgentOptions;
  signal: AbortSignal;
  clock: () => number;
}

export type Prepared =
  | { name: string; label: string; tool: AnyTool; args: unknown }
  | { name: string; label: string; error: string };

export function failure(content: string): CallOutcome {
  return { content: `Error: ${content}`, ok: false, filesRead: 0, filesWritten: [] };
}

/** A refusal for the person, in their language; parameters (paths, URLs) came from the model. */
export function noticeText(notice: Notice): string {
  const params: Params = {};
  for (const [k, v] of Object.entries(notice.params ?? {}))
    params[k] = typeof v === 'string' ? visible(v) : v;
  return t(notice.key, params);
}
