/**
 * Large results of earlier turns leave the conversation (issue 31): a page of a spreadsheet read
 * once was re-sent with every later request, ≈ 12k tokens each time. Before a new message, the
 * result of a repeatable tool (file_read: the same call gives the same text at no cost) from an
 * earlier turn that is over ELIDE_BYTES becomes a short note with its first line and the call
 * that gets it again. The turn that read it saw it whole; the session file keeps it whole.
 */
import type { Message, ToolCall } from '../llm/types.js';
import { formatBytes } from '../support/text.js';
import type { ToolRegistry } from '../tools/registry.js';
import { traitsOfTool } from '../tools/types.js';

/** Results larger than this (UTF-8 bytes) are left out of later turns. */
export const ELIDE_BYTES = 4 * 1024;

const NOTE = '[Left out to save tokens:';

/** Shrink, in place, the large repeatable results of the turns so far; returns how many. */
export function elideEarlierResults(messages: Message[], tools: ToolRegistry): number {
  const calls = new Map<string, ToolCall>();
  let n = 0;
  for (const m of messages) {
    if (m.role === 'assistant') for (const c of m.tool_calls ?? []) calls.set(c.id, c);
    if (m.role !== 'tool' || typeof m.content !== 'string' || m.content.startsWith(NOTE)) continue;
    const call = calls.get(m.tool_call_id);
    const tool = call && tools.get(call.function.name);
    if (!tool || !traitsOfTool(tool).repeatable) continue;
    const bytes = Buffer.byteLength(m.content, 'utf8');
    if (bytes <= ELIDE_BYTES) continue;
    m.content = note(call, m.content, bytes);
    n += 1;
  }
  return n;
}

function note(call: ToolCall, content: string, bytes: number): string {
  const first = content.split('\n', 1)[0]!.slice(0, 200);
  return (
    `${NOTE} this ${call.function.name} result (${formatBytes(bytes)}) was shown in an earlier turn. ` +
    `It began: ${first}\nCall ${call.function.name} with ${call.function.arguments} again if you need it.]`
  );
}
