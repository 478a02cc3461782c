/**
 * The idle warm-up's stand-in for the API: a server of our own on 127.0.0.1 that answers every
 * request with the same made-up streamed answer, so the warm-up's messages run Node's fetch as the
 * real ones will (a kept-alive connection, the HTTP parser — WebAssembly compiled on the first
 * connection — and a streamed body) while nothing leaves the machine and the API sees nothing.
 */
import { createServer } from 'node:http';
import type { FetchLike } from '../../llm/http.js';

/** A made-up answer, with its thinking first, as a model with thinking on answers. */
const REASONING = 'The person greets me; answer briefly.';
const ANSWER = 'Hello! **Bold** and `code`.\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n';

/**
 * The answer streamed as the platform streams one: SSE frames of a few characters, each with the
 * fields the API sends (docs: shared/reference/zhipu-api.md), so that parsing them builds the same
 * objects a real answer does; the last one with the finish reason and the usage.
 */
export function answerFrames(): string {
  const head = { id: 'warm-up', created: 0, object: 'chat.completion.chunk', model: 'glm-5' };
  const delta = (d: Record<string, string>) => ({
    ...head,
    choices: [{ index: 0, delta: { role: 'assistant', ...d } }],
  });
  const frames: unknown[] = [];
  for (let i = 0; i < REASONING.length; i += 8)
    frames.push(delta({ reasoning_content: REASONING.slice(i, i + 8) }));
  for (let i = 0; i < ANSWER.length; i += 8) frames.push(delta({ content: ANSWER.slice(i, i + 8) }));
  frames.push({
    ...head,
    choices: [{ index: 0, finish_reason: 'stop', delta: { role: 'assistant', content: '' } }],
    usage: {
      prompt_tokens: 1000,
      completion_tokens: 30,
      total_tokens: 1030,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 10 },
    },
  });
  return `${frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join('')}data: [DONE]\n\n`;
}

/** Where the made-up answers come from, and how to stop serving them. */
export interface WarmApi {
  baseUrl: string;
  fetch: FetchLike;
  close(): void;
}

/**
 * Node 24 can send fetch through the proxy of the environment (NODE_USE_ENV_PROXY,
 * --use-env-proxy): then even a request to 127.0.0.1 could leave the machine.
 */
function fetchMayUseProxy(env: NodeJS.ProcessEnv): boolean {
  return (
    Boolean(env.NODE_USE_ENV_PROXY) ||
    `${env.NODE_OPTIONS ?? ''} ${process.execArgv.join(' ')}`.includes('--use-env-proxy')
  );
}

/** The answers from memory, without a connection (when a loopback request could reach a proxy). */
function inMemory(frames: string): WarmApi {
  return {
    baseUrl: 'http://127.0.0.1:9/v4',
    fetch: async () => new Response(frames, { headers: { 'Content-Type': 'text/event-stream' } }),
    close: () => undefined,
  };
}

/**
 * Serve `frames` on 127.0.0.1 (a port the system picks) to global fetch, the API's own when no
 * proxy is configured; from memory when fetch might go through a proxy or the server cannot start.
 */
export async function warmApi(frames: string, env: NodeJS.ProcessEnv = process.env): Promise<WarmApi> {
  if (fetchMayUseProxy(env)) return inMemory(frames);
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.end(frames);
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
  } catch {
    return inMemory(frames);
  }
  // Never keeps zhi running (the warm-up is idle-time work).
  server.unref();
  const address = server.address();
  const port = address && typeof address !== 'string' ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/v4`,
    fetch: (url, init) => fetch(url, init),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
