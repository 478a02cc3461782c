/**
 * Idle-time warm-up of what the first message needs and Node loads lazily: its fetch (undici:
 * the HTTP parser is WebAssembly compiled on the first connection) and marked's rules. Done with
 * a request to a server of our own on 127.0.0.1, so nothing leaves the machine and the API sees
 * nothing. Failures are ignored: the first message then pays, as it would have.
 */
import { createServer } from 'node:http';
import { PassThrough, Writable } from 'node:stream';
import type { ChatSession } from '../../agent/chat.js';
import { runAgent } from '../../agent/loop.js';
import { now, serialiseLine } from '../../agent/sessions/format.js';
import { estimateToolsTokens } from '../../agent/tokens.js';
import { connectPlatform } from '../../llm/connect.js';
import type { Message } from '../../llm/types.js';
import { UsageTracker } from '../../llm/usage.js';
import type { AppContext } from '../context.js';
import { pump } from '../interrupt.js';
import { runRenderer } from '../render/draw-run.js';
import { LineEditor } from './editor.js';
import { History } from './history.js';
import { looksSecret } from './secrets.js';

export async function warmFetch(): Promise<void> {
  const server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  try {
    const address = server.address();
    if (!address || typeof address === 'string') return;
    const res = await fetch(`http://127.0.0.1:${address.port}/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Connection: 'close' },
      body: '{}',
    });
    await res.text();
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

export async function warmMarkdown(): Promise<void> {
  // The first Date of a process reads the time zone (about 10 ms): sessions stamp every line.
  void new Date().toISOString();
  void new Date().toString();
  const { lexer } = await import('marked');
  lexer('# a\n\n**b** `c` [d](e)\n\n- f\n\n| g |\n|---|\n| h |\n\n```js\nx\n```\n');
}

/** A made-up answer, streamed as the platform streams one (SSE frames of a few characters). */
const ANSWER = 'Hello! **Bold** and `code`.\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n';

function answerFrames(): string {
  const frames: unknown[] = [];
  for (let i = 0; i < ANSWER.length; i += 8)
    frames.push({ model: 'glm-5', choices: [{ index: 0, delta: { content: ANSWER.slice(i, i + 8) } }] });
  frames.push({
    model: 'glm-5',
    choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1000, completion_tokens: 20, total_tokens: 1020 },
  });
  return `${frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join('')}data: [DONE]\n\n`;
}

/**
 * One made-up turn, drawn into nowhere: the agent loop sends a request through a platform client
 * whose fetch answers from memory (no connection, nothing leaves the process), parses the
 * streamed answer and the renderer draws it, so the first real message runs compiled code (the
 * first run of a turn costs several times a later one). Its messages, usage and events are its
 * own: the chat's conversation, session file, budget and compaction never see it.
 */
export async function warmTurn(ctx: AppContext, chat: ChatSession): Promise<void> {
  const sink = Object.assign(new Writable({ write: (_c, _e, done) => done() }), {
    isTTY: true,
    columns: 80,
    rows: 24,
  });
  const renderer = await runRenderer(
    ctx,
    { stdout: sink, stderr: () => {} },
    { verbose: () => false, animate: false },
  );
  const frames = answerFrames();
  const llm = connectPlatform({
    baseUrl: 'http://127.0.0.1:9/v4',
    apiKey: 'warm-up',
    maxRetries: 0,
    fetch: async () => new Response(frames, { headers: { 'Content-Type': 'text/event-stream' } }),
  });
  const { deps, settings } = chat;
  const messages: Message[] = [
    { role: 'system', content: settings.systemPrompt },
    { role: 'user', content: 'hello' },
  ];
  const usage = new UsageTracker(ctx.platform);
  const wiring = chat.session;
  // The checks before a call, without their effects: the compaction itself, its queued notices
  // and the price-step warning (given a small prompt, it warns of nothing) are left alone.
  const beforeCall = async (sent: Message[]) => {
    const tokens = wiring?.compactor.status(sent).tokens ?? 0;
    wiring?.budget.check(sent, tokens);
    wiring?.priceSteps.check(tokens);
    return {};
  };
  const run = runAgent(
    messages,
    {
      llm,
      tools: deps.tools,
      prompter: deps.prompter,
      usage,
      cwd: deps.cwd,
      outputDir: deps.outputDir,
      beforeCall,
    },
    { model: settings.model, thinking: settings.thinking, maxTurns: 1, mode: settings.mode },
  );
  const result = await pump(run, (ev) => renderer.handle(ev));
  renderer.finish(result, usage, 1);
  // What every message passes: the history's and the session file's secret checks. A regular
  // expression is compiled on first use, for Latin and for Chinese text apart, and again faster
  // once used a few times.
  chat.session?.recorder.prepare();
  for (const text of ['hello', '你好 hello', 'hello again', '再来一次']) {
    looksSecret(text);
    serialiseLine({ type: 'message', role: 'user', t: now(), message: { role: 'user', content: text } });
  }
}

/**
 * Type a message into a line editor of its own, on streams of its own (nothing reaches the
 * terminal, the history or the conversation): the first keys the person types then run the key
 * parser, the drawing of the prompt and its status line, and Enter, compiled already.
 */
export async function warmEditor(prompt: () => string, status: () => string | undefined): Promise<void> {
  const input = Object.assign(new PassThrough(), { isTTY: true });
  const output = Object.assign(new Writable({ write: (_c, _e, done) => done() }), {
    isTTY: true,
    columns: 80,
  });
  const history = new History(undefined);
  const editor = new LineEditor({ input, output }, { history, prompt, status, continuation: '… ' });
  const read = editor.read();
  input.write('hello 你好\x7f\r');
  const r = await read;
  if (r.kind === 'line') await history.add(r.text);
  editor.close();
}

/** The chat's tool schemas, converted from zod once and weighed before every call: do it now. */
export function warmChat(chat: ChatSession): void {
  estimateToolsTokens(chat.deps.tools.schemas());
}
