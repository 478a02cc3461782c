import type { Message } from '../llm/types.js';
import { truncateText } from '../support/text.js';
import { messageText } from './sessions/format.js';
import { estimateMessageTokens } from './tokens.js';

/**
 * The pure half of compaction: where to cut a conversation, how to show the older part to the
 * summary model, and what to put in its place. `messages[0]` is always the system prompt.
 */

export const SUMMARY_MARK = '[Summary of the earlier part of this conversation';
export const SUMMARY_ACK =
  'Understood. I have the summary of our earlier conversation and will continue from it.';

export function isSummary(m: Message | undefined): boolean {
  return m?.role === 'user' && typeof m.content === 'string' && m.content.startsWith(SUMMARY_MARK);
}

/** Index of the first message after the system prompt and any earlier summary (and its acknowledgement). */
export function firstRealIndex(messages: readonly Message[]): number {
  let i = 1;
  if (isSummary(messages[i])) {
    i += 1;
    const ack = messages[i];
    if (ack?.role === 'assistant' && ack.content === SUMMARY_ACK) i += 1;
  }
  return i;
}

/**
 * A place the conversation may be cut: the tail then starts with a user message or with an
 * assistant message. Never before a tool result, so a tool call and its results stay together.
 */
export function isBoundary(messages: readonly Message[], i: number): boolean {
  const role = messages[i]?.role;
  return role === 'user' || role === 'assistant';
}

export type CutMode = 'auto' | 'manual';

/**
 * Where to cut: `messages.slice(1, cut)` is summarised, `messages.slice(cut)` is kept whole.
 *
 * - auto: keep as many recent whole turns (starting at a user message) as fit in `keepTokens`;
 *   if even the last turn does not fit, cut inside it at an assistant step that fits, or at the
 *   last step.
 * - manual (`/compact`): keep only the last turn (or the last step when there is one turn).
 *
 * Undefined when there is nothing to summarise (the head would hold no new message).
 */
export function findCut(
  messages: readonly Message[],
  keepTokens: number,
  mode: CutMode = 'auto',
  estimate: (m: Message) => number = estimateMessageTokens,
): number | undefined {
  const start = firstRealIndex(messages);
  const candidates: number[] = [];
  for (let i = start + 1; i < messages.length; i++) if (isBoundary(messages, i)) candidates.push(i);
  if (!candidates.length) return undefined;
  const users = candidates.filter((i) => messages[i]!.role === 'user');
  if (mode === 'manual') return users.length ? users[users.length - 1] : candidates[candidates.length - 1];

  // Tokens of messages[i..] for every i, from the end.
  const tail: number[] = new Array(messages.length + 1).fill(0);
  for (let i = messages.length - 1; i >= 0; i--) tail[i] = tail[i + 1]! + estimate(messages[i]!);
  const fits = (i: number) => tail[i]! <= keepTokens;
  return users.find(fits) ?? candidates.find(fits) ?? candidates[candidates.length - 1];
}

const USER_CHARS = 6000;
const ASSISTANT_CHARS = 4000;
const TOOL_CHARS = 1500;
const ARGS_CHARS = 600;

function clip(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const head = chars.slice(0, Math.floor(max * 0.7)).join('');
  const tail = chars.slice(chars.length - Math.floor(max * 0.25)).join('');
  return `${head}\n…[${chars.length - Math.floor(max * 0.95)} characters omitted]…\n${tail}`;
}

/** The older messages as a plain transcript for the summary model (long texts clipped). */
export function transcriptLines(messages: readonly Message[]): string[] {
  const names = new Map<string, string>();
  const out: string[] = [];
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        break;
      case 'user':
        out.push(`[user]\n${clip(messageText(m), USER_CHARS)}`);
        break;
      case 'assistant':
        if (m.content.trim()) out.push(`[assistant]\n${clip(m.content, ASSISTANT_CHARS)}`);
        for (const c of m.tool_calls ?? []) {
          names.set(c.id, c.function.name);
          out.push(`[assistant called tool ${c.function.name}] ${clip(c.function.arguments, ARGS_CHARS)}`);
        }
        break;
      case 'tool':
        out.push(`[result of ${names.get(m.tool_call_id) ?? 'tool'}]\n${clip(m.content, TOOL_CHARS)}`);
        break;
    }
  }
  return out;
}

const PATH_KEYS = ['path', 'paths', 'file', 'files', 'input', 'inputs', 'output', 'directory', 'dir', 'url'];

/** Files (and pages) the older messages read and wrote, from the tool calls' arguments. */
export function filesTouched(messages: readonly Message[]): { read: string[]; written: string[] } {
  const read = new Set<string>();
  const written = new Set<string>();
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const c of m.tool_calls ?? []) {
      let args: unknown;
      try {
        args = JSON.parse(c.function.arguments || '{}');
      } catch {
        continue;
      }
      if (!args || typeof args !== 'object') continue;
      const target = /write|create|save|export/i.test(c.function.name) ? written : read;
      for (const key of PATH_KEYS) {
        const v = (args as Record<string, unknown>)[key];
        for (const item of Array.isArray(v) ? v : [v])
          if (typeof item === 'string' && item.trim()) target.add(item.trim());
      }
    }
  }
  return { read: [...read], written: [...written] };
}

/** The summary model's instructions (the model reads this; English on purpose). */
export function summaryInstructions(focus?: string): string {
  return [
    'You compress the earlier part of a conversation between a user and zhi, a terminal assistant for documents, so that zhi can continue the work without the original messages.',
    'Write in the language the user writes in. Keep names, numbers, dates, paths, amounts and short quotes that matter exactly as they are.',
    'Use exactly these Markdown sections:',
    '## Goal — what the user wants overall.',
    '## Decisions and facts — what was decided, agreed, found or answered.',
    '## Files read and written — which files or pages were used and produced, and what they contain.',
    '## Open items — what is unfinished, promised, or waiting for the user.',
    'Be concise: at most about 500 words. Do not invent anything that is not in the transcript.',
    focus ? `The user asked the summary to focus especially on: ${focus}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** A summary made without a model (when the summary model fails): the requests and the files. */
export function outlineSummary(head: readonly Message[]): string {
  const requests = head
    .filter((m) => m.role === 'user' && !isSummary(m))
    .map((m) => clip(messageText(m).replace(/\s+/g, ' '), 200));
  const earlier = head.find(isSummary);
  const files = filesTouched(head);
  const lines = ['## Goal', requests[0] ?? '(unknown)', '', '## Requests, in order'];
  const shown = requests.length > 20 ? [...requests.slice(0, 5), '…', ...requests.slice(-15)] : requests;
  for (const r of shown) lines.push(`- ${r}`);
  lines.push('', '## Files read and written');
  lines.push(
    `- Read: ${files.read.join(', ') || '(none)'}`,
    `- Written: ${files.written.join(', ') || '(none)'}`,
  );
  lines.push(
    '',
    '## Open items',
    '- This outline was made without a summary model; ask the user when something is unclear.',
  );
  if (earlier) lines.push('', '## Earlier summary', clip(messageText(earlier), 4000));
  return lines.join('\n');
}

/**
 * What replaces the older messages: one user message with the summary (and, when the cut fell
 * inside the current turn, the user's latest request word for word), plus an acknowledgement
 * when the kept tail starts with a user message (so roles still alternate).
 */
export function summaryMessages(o: {
  summary: string;
  replaced: number;
  head: readonly Message[];
  tail: readonly Message[];
}): Message[] {
  const files = filesTouched(o.head);
  const parts = [
    `${SUMMARY_MARK} (${o.replaced} messages), written by zhi to stay within the model's context window. The full history is saved in the session file.]`,
    '',
    o.summary.trim(),
  ];
  if (files.read.length || files.written.length) {
    parts.push('', '## Files used so far (from the tool calls)');
    if (files.read.length) parts.push(`- Read: ${files.read.join(', ')}`);
    if (files.written.length) parts.push(`- Written: ${files.written.join(', ')}`);
  }
  const lastUserInTail = o.tail.some((m) => m.role === 'user');
  const latest = [...o.head].reverse().find((m) => m.role === 'user' && !isSummary(m));
  if (!lastUserInTail && latest) {
    parts.push(
      '',
      "## The user's current request (verbatim)",
      truncateText(messageText(latest), 16 * 1024).text,
    );
  }
  const out: Message[] = [{ role: 'user', content: parts.join('\n') }];
  if (o.tail[0]?.role === 'user') out.push({ role: 'assistant', content: SUMMARY_ACK });
  return out;
}

const SHORT_TOOL_BYTES = 4 * 1024;

/**
 * Shorten long tool results (oldest first) until the messages fit `budget` tokens. Returns new
 * message objects for the shortened ones (the originals stay in the session file) and how many changed.
 */
export function shortenToolResults(
  messages: readonly Message[],
  budget: number,
  estimate: (m: Message) => number = estimateMessageTokens,
): { messages: Message[]; shortened: number } {
  const out = [...messages];
  let total = out.reduce((n, m) => n + estimate(m), 0);
  let shortened = 0;
  for (let i = 0; i < out.length && total > budget; i++) {
    const m = out[i]!;
    if (m.role !== 'tool' || Buffer.byteLength(m.content, 'utf8') <= SHORT_TOOL_BYTES * 2) continue;
    const short: Message = {
      role: 'tool',
      tool_call_id: m.tool_call_id,
      content: `${truncateText(m.content, SHORT_TOOL_BYTES).text}\n[shortened later to fit the context window]`,
    };
    total += estimate(short) - estimate(m);
    out[i] = short;
    shortened += 1;
  }
  return { messages: out, shortened };
}
