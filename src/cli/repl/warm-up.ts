import type { ChatSession } from '../../agent/chat.js';
import type { AgentResult } from '../../agent/events.js';
import { runAgent } from '../../agent/loop.js';
import { titleFrom } from '../../agent/sessions/store.js';
import { connectPlatform } from '../../llm/connect.js';
import type { FetchLike } from '../../llm/http.js';
import { chunkedResponse, memoryFetch } from '../../llm/memory-fetch.js';
import type { Message } from '../../llm/types.js';
import { UsageTracker } from '../../llm/usage.js';
import { imageSafe } from '../../llm/vision.js';
import { redactDeep } from '../../support/redact.js';
import { nobodyPrompter } from '../prompter.js';
import { drawRun, loadRenderer } from '../render/draw-run.js';
import { makeStyle } from '../render/style.js';
import { findMistyped } from './attach/mistyped.js';
import { detectPaths } from './attach/paths.js';
import { looksSecret } from './secrets.js';

/** An answer with what answers hold: a heading, emphasis, code, a link, a list, a table, a code block. */
const SAMPLE =
  '## A\n\nSome **bold**, *italic*, `code` and a [link](https://example.com).\n\n- one\n- two\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\n```js\nconst x = 1;\n```\n\nDone.\n';

/** The sample streamed as the API sends an answer: reasoning, the text line by line, the finish with usage, [DONE]. */
function sampleEvents(): string[] {
  const chunk = (delta: object, end?: object) =>
    JSON.stringify({ id: 'w', created: 1, model: 'glm-5', choices: [{ index: 0, delta, ...end }] });
  const events = [
    chunk({ role: 'assistant', reasoning_content: 'r' }),
    ...SAMPLE.split(/(?<=\n)/).map((content) => chunk({ content })),
    chunk(
      {},
      {
        finish_reason: 'stop',
        usage: {
          prompt_tokens: 9,
          completion_tokens: 3,
          total_tokens: 12,
          prompt_tokens_details: { cached_tokens: 0 },
        },
      },
    ),
    '[DONE]',
  ];
  return events.map((data) => `data: ${data}\n\n`);
}

/**
 * Node's fetch answered from memory (llm/memory-fetch.ts), so the sample request goes through the
 * same HTTP client as the person's; where that cannot be made, a Response made here.
 */
function sampleFetch(): FetchLike {
  const events = sampleEvents();
  const made = () => new Response(events.join(''), { headers: { 'content-type': 'text/event-stream' } });
  return memoryFetch(chunkedResponse('text/event-stream', events)) ?? (() => Promise.resolve(made()));
}

/**
 * The code the first message runs for the first time, run once while the person types it (lazy.ts
 * TypingWork; never while nobody types, never twice). V8 compiles a function the first time it
 * runs, and so the first message cost about 2.6× a later one in CPU (issue 44 asks 1.2×). Here a
 * sample message goes the whole way a message goes, in a throwaway conversation: the agent loop,
 * the client building its request, Node's HTTP client writing it and reading the answer (from a
 * socket in memory: llm/memory-fetch.ts), the answer read as a stream, and a throwaway renderer
 * drawing it to nowhere (Markdown, a table, a code block, the closing line). What the REPL does
 * with a line on Enter runs on sample lines too. Nothing is written, nothing is sent, nothing is
 * counted: the messages, client, usage and renderer are its own. What stays cold is the network
 * socket itself and the first writes of the session file, ledger and history. Returns how the
 * sample run ended (for the tests).
 */
export async function warmUp(chat: ChatSession): Promise<AgentResult> {
  warmLines(chat.deps.cwd);
  // The error a stream reader keeps for when it lets go, which Node builds once (in a new vm
  // context, about 0.6 ms): the network's answer lets go of its reader when it ends, and a
  // Response made here (sampleFetch's fallback) never holds one.
  new ReadableStream().getReader().releaseLock();
  const llm = connectPlatform({
    baseUrl: 'http://zhi.invalid/api',
    apiKey: 'warm-up',
    maxRetries: 0,
    idleTimeoutMs: 10_000,
    fetch: sampleFetch(),
  });
  const usage = new UsageTracker(chat.deps.usage.platform);
  const messages: Message[] = [
    { role: 'system', content: 'w' },
    { role: 'user', content: 'hello' },
  ];
  // The loop as chat.send runs it, with a client of its own (a chat is only ever made by
  // createChat, with its session file and consumers: this conversation must have none).
  const run = runAgent(
    messages,
    {
      llm: imageSafe(llm),
      tools: chat.deps.tools,
      // Nobody is asked anything: the sample answer calls no tool, and a call would be refused.
      prompter: nobodyPrompter,
      usage,
      cwd: chat.deps.cwd,
      outputDir: chat.deps.outputDir,
    },
    { model: chat.settings.model, thinking: chat.settings.thinking, maxTurns: 1, mode: chat.settings.mode },
  );
  const renderer = await throwawayRenderer(chat.deps.cwd);
  const result = await drawRun(renderer, run, () => usage, Date.now());
  renderer.dispose();
  return result;
}

/**
 * A line on Enter: the history's secret check, the file names a message might hold (none exist
 * here: nothing on disk is looked at), the redaction every line of the session file passes, and
 * the session's title (cut by graphemes: the first Intl.Segmenter loads its data).
 * Twice: V8 runs a regular expression's first match in its interpreter and compiles it to machine
 * code on the next one.
 */
function warmLines(cwd: string): void {
  const none = { cwd, home: cwd, isFile: () => false, listDir: () => undefined };
  for (const line of ['a line typed at the prompt, as a person would', 'summarise notes.md for me']) {
    looksSecret(line);
    findMistyped(line, none);
    detectPaths(line, none);
    redactDeep({ role: 'user', content: line });
    titleFrom(line);
  }
}

/** A rich renderer, as on a colour terminal, that draws to nowhere. */
async function throwawayRenderer(cwd: string) {
  const { ReplRenderer } = await loadRenderer();
  const style = makeStyle(true);
  return new ReplRenderer({
    mode: 'rich',
    term: { write: () => {}, columns: () => process.stdout.columns || 80, rows: () => 24 },
    out: style,
    err: style,
    stderr: () => {},
    verbose: () => false,
    debug: false,
    cwd,
    animate: false,
  });
}
