/** What a test reads in a chat request the fake received: the tools offered, the tool results sent back. */
import type { RecordedRequest } from '../fake-zhipu/server.js';

/** The names of the tools offered to the model, in the order they were sent. */
export const toolNames = (req: RecordedRequest): string[] =>
  (req.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name);

/** The tool results in the request's messages, in order. */
export const toolResults = (req: RecordedRequest): string[] =>
  req.body.messages
    .filter((m: { role: string }) => m.role === 'tool')
    .map((m: { content: string }) => m.content);
