import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Currency } from '../../llm/platforms.js';
import type { AssistantMessage, Message, ToolMessage } from '../../llm/types.js';
import type { ModelUsage } from '../../llm/usage.js';
import { insertAll } from '../../support/arrays.js';
import { cutGraphemes, oneLine } from '../../support/graphemes.js';
import { messageText, type SessionEvent, type SessionHeader, type SessionKind } from './format.js';

/** What a listing shows about a session. */
export interface SessionSummary {
  id: string;
  file: string;
  kind: SessionKind;
  skill?: string;
  cwd: string;
  created: string;
  /** Last write (file modification time), ISO. */
  updated: string;
  title: string;
  /** The model in use at the end. */
  model: string;
  /** User messages sent. */
  turns: number;
  cost: number;
  currency: Currency;
  covered: boolean;
  tokens: number;
  compactions: number;
}

/** A session read back for resuming or exporting. */
export interface LoadedSession extends SessionSummary {
  header: SessionHeader;
  /** The current context (what the model would see next), without the system prompt. */
  messages: Message[];
  /** Every event in order (the full history, for export). */
  events: SessionEvent[];
  byModel: [string, ModelUsage][];
  /** The last user message never got its answer (zhi was stopped mid-run). */
  unfinished: boolean;
  /** What the person typed for the last user message (`!ls nosuch`), when the model got other words. */
  lastTyped?: string;
  /** Tool calls whose result was never recorded; a placeholder result was added for each. */
  repaired: number;
  /** Damaged lines skipped (a half-written last line after a crash). Never fatal. */
  warnings: { line: number; last: boolean }[];
}

export const INTERRUPTED_TOOL_RESULT =
  'Interrupted: zhi was stopped before this tool finished, so its result is unknown. If it matters, run it again.';

/** `20260314-153045-a1b2`: sortable, typeable, local time as the user saw it. */
export function newSessionId(date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const day = `${date.getFullYear()}${p(date.getMonth() + 1)}${p(date.getDate())}`;
  const time = `${p(date.getHours())}${p(date.getMinutes())}${p(date.getSeconds())}`;
  return `${day}-${time}-${randomBytes(2).toString('hex')}`;
}

export function sessionFile(dir: string, id: string): string {
  return join(dir, `${id}.jsonl`);
}

/** Where a session keeps its large tool results. */
export function sessionDataDir(dir: string, id: string): string {
  return join(dir, id);
}

export const TITLE_GRAPHEMES = 80;

/** A title from the first user message: its first words, without an attached document. */
export function titleFrom(text: string): string {
  const withoutDoc = text.split(/\n\n<document name="/)[0] ?? text;
  return cutGraphemes(oneLine(withoutDoc), TITLE_GRAPHEMES);
}

interface ParsedLine {
  line: SessionHeader | SessionEvent;
  index: number;
}

function parseLines(text: string, warnings: LoadedSession['warnings']): ParsedLine[] {
  const out: ParsedLine[] = [];
  const lines = text.split('\n');
  // A file that does not end with a newline has a half-written last line.
  const lastIndex = text.endsWith('\n') ? lines.length - 2 : lines.length - 1;
  lines.forEach((raw, index) => {
    if (!raw.trim()) return;
    try {
      const line = JSON.parse(raw) as SessionHeader | SessionEvent;
      if (line && typeof line === 'object' && typeof line.type === 'string') out.push({ line, index });
      else warnings.push({ line: index + 1, last: index === lastIndex });
    } catch {
      warnings.push({ line: index + 1, last: index === lastIndex });
    }
  });
  return out;
}

function emptyUsage(): ModelUsage {
  return {
    promptTokens: 0,
    completionTokens: 0,
    totalTokens: 0,
    cachedTokens: 0,
    reasoningTokens: 0,
    calls: 0,
    cost: 0,
  };
}

/** What a listing knows from the header alone, before the events are counted. */
export function summaryOf(header: SessionHeader, file: string): SessionSummary {
  return {
    id: header.id,
    file,
    kind: header.kind,
    ...(header.skill ? { skill: header.skill } : {}),
    cwd: header.cwd,
    created: header.created,
    updated: header.created,
    title: '',
    model: header.model,
    turns: 0,
    cost: 0,
    currency: header.currency,
    covered: false,
    tokens: 0,
    compactions: 0,
  };
}

/** A session being replayed: the summary so far, the context, and what only a full load keeps. */
interface Replay {
  s: SessionSummary;
  titled: boolean;
  context: Message[];
  byModel: Map<string, ModelUsage>;
  unfinished: boolean;
  /** What the person typed for the last user message, when it was written for the model from it. */
  lastTyped?: string | undefined;
}

/**
 * Replay a session file's text into the conversation it describes. Damaged lines are skipped
 * and reported in `warnings`; a tool call whose result was never written (zhi killed while the
 * tool ran) gets a placeholder result so the history stays valid for the API.
 */
export function replaySession(text: string, file = ''): LoadedSession | undefined {
  const warnings: LoadedSession['warnings'] = [];
  const parsed = parseLines(text, warnings);
  const header = parsed[0]?.line;
  if (header?.type !== 'session') return undefined;
  const r: Replay = {
    s: summaryOf(header, file),
    titled: false,
    context: [],
    byModel: new Map(),
    unfinished: false,
  };
  const events: SessionEvent[] = [];
  for (const { line } of parsed.slice(1)) {
    if (line.type === 'session') continue;
    events.push(line);
    if ('t' in line && typeof line.t === 'string') r.s.updated = line.t;
    replayLine(r, line);
  }
  const repaired = repairToolCalls(r.context);
  return {
    ...r.s,
    header,
    messages: r.context,
    events,
    byModel: [...r.byModel.entries()],
    unfinished: r.unfinished,
    ...(r.lastTyped !== undefined ? { lastTyped: r.lastTyped } : {}),
    repaired,
    warnings,
  };
}

/** One event's effect on the conversation and its totals. */
function replayLine(r: Replay, line: SessionEvent): void {
  switch (line.type) {
    case 'title':
      r.s.title = line.title;
      r.titled = true;
      break;
    case 'message':
      if (!line.message || typeof line.message !== 'object') break;
      r.context.push(line.message);
      if (line.message.role === 'user') {
        // A `!command`'s note is complete in itself: no answer is due, and it is no turn.
        if (!line.note) r.s.turns += 1;
        r.unfinished = !line.note;
        r.lastTyped = typeof line.typed === 'string' ? line.typed : undefined;
        if (!r.titled) {
          r.s.title = titleFrom(r.lastTyped ?? messageText(line.message));
          r.titled = true;
        }
      }
      break;
    case 'model':
      r.s.model = line.model;
      break;
    case 'usage':
      addUsage(r, line);
      break;
    case 'compaction':
      r.s.compactions += 1;
      r.context = [...line.inserted, ...(line.kept > 0 ? r.context.slice(-line.kept) : [])];
      break;
    case 'truncate':
      r.context = r.context.slice(0, Math.max(0, line.keep));
      break;
    case 'context':
      r.context = [...line.messages];
      break;
    case 'end':
      r.unfinished = false;
      break;
    default:
      break;
  }
}

function addUsage(r: Replay, line: Extract<SessionEvent, { type: 'usage' }>): void {
  const u = r.byModel.get(line.model) ?? emptyUsage();
  u.promptTokens += line.usage.promptTokens;
  u.completionTokens += line.usage.completionTokens;
  u.totalTokens += line.usage.totalTokens;
  u.cachedTokens += line.usage.cachedTokens;
  u.reasoningTokens += line.usage.reasoningTokens;
  u.calls += 1;
  u.cost += line.cost;
  r.byModel.set(line.model, u);
  r.s.cost += line.cost;
  r.s.tokens += line.usage.totalTokens;
  r.s.covered ||= line.covered;
}

/**
 * Give every tool call a result (in place). The API rejects an assistant tool call without one,
 * and a result is missing exactly when zhi was stopped while the tool ran. Returns how many were added.
 */
export function repairToolCalls(messages: Message[]): number {
  let added = 0;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== 'assistant' || !m.tool_calls?.length) continue;
    let j = i + 1;
    const seen = new Set<string>();
    while (j < messages.length && messages[j]!.role === 'tool') {
      seen.add((messages[j] as ToolMessage).tool_call_id);
      j += 1;
    }
    const missing = (m as AssistantMessage).tool_calls!.filter((c) => !seen.has(c.id));
    const fill: ToolMessage[] = missing.map((c) => ({
      role: 'tool',
      tool_call_id: c.id,
      content: INTERRUPTED_TOOL_RESULT,
    }));
    insertAll(messages, j, fill);
    added += fill.length;
    i = j + fill.length - 1;
  }
  return added;
}

export async function loadSession(file: string): Promise<LoadedSession | undefined> {
  const text = await readFile(file, 'utf8');
  const loaded = replaySession(text, file);
  if (loaded) loaded.updated = await mtimeIso(file, loaded.updated);
  return loaded;
}

/** The file's modification time, or `fallback` when it cannot be read. */
export async function mtimeIso(file: string, fallback: string): Promise<string> {
  try {
    return (await stat(file)).mtime.toISOString();
  } catch {
    return fallback;
  }
}
