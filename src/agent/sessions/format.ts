import type { Currency, PlatformId } from '../../llm/platforms.js';
import type { Message, Usage } from '../../llm/types.js';
import { t } from '../../support/i18n/index.js';
import { redactDeep } from '../../support/redact.js';

/**
 * The session file: JSON Lines, append-only, one file per conversation
 * (`<sessions dir>/<id>.jsonl`). The first line is the header; every later line is one event.
 * Lines are written in this key order so that a listing can recognise a line by its prefix
 * without parsing it (`{"type":"message","role":"user"`).
 *
 * Replaying the events in order rebuilds the conversation's current context (what the model
 * sees); the full history, including what compaction summarised away, stays in the file.
 */
export type SessionKind = 'repl' | 'oneshot' | 'run';

/** The kinds that are conversations (listed by `zhi sessions` and the page); `run` is a skill run. */
export const CHAT_KINDS: readonly SessionKind[] = ['repl', 'oneshot'];

export const SESSION_FORMAT_VERSION = 1;

export interface SessionHeader {
  type: 'session';
  v: number;
  id: string;
  created: string;
  cwd: string;
  model: string;
  kind: SessionKind;
  /** The skill, for `run` sessions. */
  skill?: string;
  platform: PlatformId;
  currency: Currency;
  zhi: string;
}

/** What a compaction did to the context (its line in the file, and what the compactor reports). */
export interface CompactionRecord {
  reason: 'auto' | 'manual' | 'overflow';
  /** Messages placed before the kept tail (the summary, and an acknowledgement). */
  inserted: Message[];
  /** How many of the most recent context messages were kept as they were. */
  kept: number;
  /** How many context messages the summary replaced. */
  replaced: number;
  tokensBefore: number;
  tokensAfter: number;
  model: string;
  focus?: string | undefined;
}

/** Why usage was spent: the conversation itself, a skill, or a compaction summary. */
export type UsagePurpose = 'chat' | 'skill' | 'compact';

export type SessionEvent =
  | { type: 'title'; title: string }
  | { type: 'system'; t: string; content: string }
  | {
      type: 'message';
      role: Message['role'];
      t: string;
      message: Message;
      /** A user message written for the model from what the person typed (`!ls`, `/run …`). */
      typed?: string;
      /** Something the person did themselves (a `!command`'s output): no answer is due. */
      note?: true;
    }
  | { type: 'model'; t: string; model: string }
  | {
      type: 'usage';
      t: string;
      model: string;
      purpose: UsagePurpose;
      skill?: string;
      usage: Usage;
      cost: number;
      currency: Currency;
      covered: boolean;
    }
  | ({ type: 'compaction'; t: string } & CompactionRecord)
  /** The context was cut back to its first `keep` messages (/undo, /reset). */
  | { type: 'truncate'; t: string; keep: number }
  /** A full snapshot of the context, when it changed in a way no other event describes. */
  | { type: 'context'; t: string; messages: Message[] }
  /** The conversation was continued by another zhi process (--continue, --resume, /resume). */
  | { type: 'resume'; t: string; mode: SessionKind }
  /** A run (one user message) finished. */
  | { type: 'end'; t: string; stopReason: string; turns: number; toolCalls: number }
  | { type: 'error'; t: string; kind: string; message: string };

export type SessionLine = SessionHeader | SessionEvent;

/** One line of a session file, redacted (the key, tokens, URL credentials never reach the disk). */
export function serialiseLine(line: SessionLine): string {
  return `${JSON.stringify(redactDeep(line))}\n`;
}

export function now(): string {
  return new Date().toISOString();
}

/** The plain text of a message (text parts joined; images left out). */
export function messageText(m: Message): string {
  if (typeof m.content === 'string') return m.content;
  return m.content
    .filter((p): p is { type: 'text'; text: string } => p.type === 'text')
    .map((p) => p.text)
    .join('\n');
}

/** `1 turn`, `5 turns` (`5 轮`). */
export function turnsText(n: number): string {
  return n === 1 ? t('sessions.turnOne') : t('sessions.turns', { n });
}
