import type { Cost } from '../llm/models.js';
import type { ApiErrorInfo, AssistantMessage, Message, ToolMessage, Usage } from '../llm/types.js';
import type { ZhiError } from '../support/errors.js';
import type { WrittenFile } from '../tools/types.js';
import type { FolderEvent } from './folder/events.js';

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
  /** A --dry-run: the text is the estimate, nothing was sent (no closing "Done" line). */
  estimate?: boolean;
  /** A --dry-run's figures, as numbers (the web page's estimate card): what `text` says. */
  estimated?: EstimateFigures;
}

/** A result before anything happened: an answer, no turns, nothing read or written. */
/** The totals of a --dry-run: files, tokens (input and guessed output), prices in `currency`. */
export interface EstimateFigures {
  files: number;
  tokens: number;
  currency: string;
  /** On the skill's model; 0 with `covered` (a plan that includes it). */
  price: number;
  covered: boolean;
  /** Through the Batch API; absent when the run cannot be batched. */
  batchPrice?: number;
}

export function emptyResult(stopReason: StopReason = 'answer'): AgentResult {
  return { text: '', stopReason, turns: 0, toolCalls: 0, filesRead: 0, filesWritten: [] };
}

/** Why a model call was made, when it was not the run's own turn (a compaction summary). */
export type UsagePurposeTag = 'compact';

/** Events of the agent loop (one conversation turn or one skill's loop). */
export type AgentEvent =
  | { type: 'turn_start'; turn: number; model: string }
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; text: string }
  | { type: 'retry'; attempt: number; maxRetries: number; delayMs: number; error: ApiErrorInfo }
  | { type: 'message'; message: Message }
  /** The model began writing a tool call (its arguments stream in, which may take a while). */
  | { type: 'tool_call_writing'; name: string }
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
      /** What this call read and wrote (the run's counters are added up from these). */
      filesRead: number;
      filesWritten: WrittenFile[];
      /** Lines the tool wants the person to see (a search's sources); from outside: sanitize. */
      display?: string[];
    }
  | {
      type: 'progress';
      id: string;
      note: string;
      /** A long document's pieces: how many of them are done (round 0: the parts, then combining rounds). */
      part?: { done: number; total: number; round: number };
    }
  | { type: 'usage'; model: string; usage: Usage; cost: Cost; purpose?: UsagePurposeTag }
  | { type: 'warning'; message: string }
  | { type: 'error'; error: ZhiError }
  | { type: 'done'; result: AgentResult };

/** Events only a skill run has: which skill runs on which model, `[3/12] file` steps, up-front OCR and speech recognition. */
export type SkillOnlyEvent =
  | { type: 'skill_start'; skill: string; model: string; depth: number }
  | { type: 'skill_step'; skill: string; index: number; total: number; label: string }
  /** A composite's per-file step: files an earlier run did, whose kept results are used (no call). */
  | { type: 'skill_kept'; skill: string; count: number; total: number }
  | { type: 'skill_ocr'; skill: string; file: string }
  | { type: 'skill_asr'; skill: string; file: string };

/**
 * The one event stream of a run (design §1), yielded by the chat (`ChatSession.send`) and the
 * skill runner alike. A skill run nested inside a tool call (a composite's step, a per-file step)
 * arrives as `nested`, with the chain of skill names from the outermost down (flat: a nested
 * run's own nested events keep their whole chain). `user` opens a chat turn; `done` closes every
 * run. Consumers: the REPL renderer, the one-shot printer, stream-json, the session recorder
 * (file + usage ledger), the run budget and the compactor.
 */
export type RunEvent =
  | AgentEvent
  | SkillOnlyEvent
  | FolderEvent
  | {
      type: 'user';
      message: Message;
      /**
       * What the person typed when the message was written for the model from it (`/run …`,
       * `!command`): a session's title comes from this, never from model-facing text.
       */
      typed?: string;
      /** Something the person did themselves (a `!command`'s output): it expects no answer. */
      note?: true;
    }
  | { type: 'nested'; chain: readonly string[]; event: RunEvent };

/** Wrap an event of a run nested under `chain` (already-nested events keep their own, longer chain). */
export function nestedEvent(chain: readonly string[], event: RunEvent): RunEvent {
  return event.type === 'nested' ? event : { type: 'nested', chain, event };
}

/** Something that takes every event of a run: a recorder, a budget, a renderer. */
export type RunConsumer = (ev: RunEvent) => void;

export type { AssistantMessage, ToolMessage };

/** Every folder event's type, checked complete by the compiler (a new one must be added here). */
const FOLDER_EVENT_TYPES: Record<FolderEvent['type'], true> = {
  folder_start: true,
  folder_file: true,
  folder_batch: true,
  folder_wait: true,
  folder_end: true,
  long_document: true,
};

/**
 * Whether an event belongs to a folder run's progress: consumers that draw or ignore them as one
 * group test this first, and their switch then covers the other events only.
 */
export function isFolderEvent(ev: RunEvent): ev is FolderEvent {
  return Object.hasOwn(FOLDER_EVENT_TYPES, ev.type);
}
