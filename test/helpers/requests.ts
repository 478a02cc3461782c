/**
 * What a test reads in a chat request the fake received: the tools offered, the tool results sent
 * back, which file it is about.
 */
import type { RecordedRequest } from '../fake-zhipu/server.js';
import { unwrap } from './untrusted.js';

/** The names of the tools offered to the model, in the order they were sent. */
export const toolNames = (req: RecordedRequest): string[] =>
  (req.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name);

/**
 * The tool results in the request's messages, in order, with the untrusted-data boundaries
 * around documents, pages and MCP results taken off (`rawToolResults` keeps them).
 */
export const toolResults = (req: RecordedRequest): string[] => rawToolResults(req).map(unwrap);

/** The tool results exactly as sent, boundaries included. */
export const rawToolResults = (req: RecordedRequest): string[] =>
  req.body.messages
    .filter((m: { role: string }) => m.role === 'tool')
    .map((m: { content: string }) => m.content);

/** The id of `MARKER-<id>` in the request's first user message (a folder test's file says which it is). */
export function markerOf(body: RecordedRequest['body']): string {
  const user = body.messages.find((m: { role: string }) => m.role === 'user');
  return /MARKER-(\w+)/.exec(String(user?.content ?? ''))?.[1] ?? 'none';
}
