/**
 * Idle-time warm-up of what the first message needs and Node loads lazily: its fetch (undici:
 * the HTTP parser is WebAssembly compiled on the first connection) and marked's rules. Done with
 * a request to a server of our own on 127.0.0.1, so nothing leaves the machine and the API sees
 * nothing. Failures are ignored: the first message then pays, as it would have.
 */
import { createServer } from 'node:http';
import { Writable } from 'node:stream';
import type { ChatSession } from '../../agent/chat.js';
import { emptyResult } from '../../agent/events.js';
import { estimateToolsTokens } from '../../agent/tokens.js';
import { UsageTracker } from '../../llm/usage.js';
import type { AppContext } from '../context.js';
import { runRenderer } from '../render/draw-run.js';

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

/**
 * Draw a short made-up answer into nowhere, so the renderer's code is compiled before the first
 * real one (the first drawing of a run costs several times a later one).
 */
export async function warmRenderer(ctx: AppContext): Promise<void> {
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
  const text = 'Hello! **Bold** and `code`.\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n';
  renderer.handle({ type: 'turn_start', turn: 1, model: 'glm-5' });
  for (let i = 0; i < text.length; i += 8)
    renderer.handle({ type: 'text_delta', text: text.slice(i, i + 8) });
  const result = emptyResult();
  result.text = text;
  renderer.finish(result, new UsageTracker(ctx.platform), 1);
}

/** The chat's tool schemas, converted from zod once and weighed before every call: do it now. */
export function warmChat(chat: ChatSession): void {
  estimateToolsTokens(chat.deps.tools.schemas());
}
