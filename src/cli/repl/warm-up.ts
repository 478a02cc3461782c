import type { ChatSession } from '../../agent/chat.js';
import { MessageAccumulator } from '../../llm/accumulate.js';
import { readStream } from '../../llm/response.js';
import { loadRenderer } from '../render/draw-run.js';
import { makeStyle } from '../render/style.js';
import { looksSecret } from './secrets.js';

/** An answer with what answers hold: a heading, emphasis, code, a link, a list, a table, a code block. */
const SAMPLE =
  '## A\n\nSome **bold**, *italic*, `code` and a [link](https://example.com).\n\n- one\n- two\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\n```js\nconst x = 1;\n```\n\nDone.\n';

/** A short streamed answer as the API sends it: text, the finish with usage, [DONE]. */
const STREAM = [
  '{"id":"w","created":1,"model":"glm-5","choices":[{"index":0,"delta":{"role":"assistant","reasoning_content":"r"}}]}',
  '{"id":"w","created":1,"model":"glm-5","choices":[{"index":0,"delta":{"content":"Hi **there**."}}]}',
  '{"id":"w","created":1,"model":"glm-5","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":3,"total_tokens":12,"prompt_tokens_details":{"cached_tokens":0}}}',
  '[DONE]',
]
  .map((data) => `data: ${data}\n\n`)
  .join('');

/**
 * The code the first message runs for the first time, run once while the person types it (lazy.ts
 * TypingWork; never while nobody types, never twice). V8 compiles a function the first time it
 * runs, and so the first message cost about 2.6× a later one in CPU (issue 44 asks 1.2×): here
 * the history's secret check compiles its patterns, a canned answer is read as the client reads a
 * stream (the event parser, the accumulator, usage), a throwaway renderer draws a sample answer to
 * nowhere (Markdown, a table, a code block, the closing line), and Node builds, once, the error a
 * stream reader keeps for when it lets go. Nothing is written and nothing is sent.
 */
export async function warmUp(chat: ChatSession): Promise<void> {
  looksSecret('a line typed at the prompt, as a person would');
  new ReadableStream().getReader().releaseLock();
  const limits = { maxChars: 1e6, maxMs: 60_000 };
  const events = readStream(
    new Response(STREAM).body!,
    new MessageAccumulator(),
    'glm-5',
    () => {},
    () => ({ kind: 'network', message: '', retryable: false }),
    limits,
  );
  for await (const _ of events) {
    // read to the end, as the client does
  }
  const { ReplRenderer } = await loadRenderer();
  const style = makeStyle(true);
  const renderer = new ReplRenderer({
    mode: 'rich',
    term: { write: () => {}, columns: () => process.stdout.columns || 80, rows: () => 24 },
    out: style,
    err: style,
    stderr: () => {},
    verbose: () => false,
    debug: false,
    cwd: chat.deps.cwd,
    animate: false,
  });
  renderer.handle({ type: 'turn_start', turn: 1, model: chat.settings.model });
  for (const part of SAMPLE.split(/(?<=\n)/)) renderer.handle({ type: 'text_delta', text: part });
  const result = { text: SAMPLE, stopReason: 'answer' as const, turns: 1, toolCalls: 0, filesRead: 0 };
  renderer.finish({ ...result, filesWritten: [] }, chat.deps.usage, 1000);
  renderer.dispose();
}
