/**
 * A local fake of the Zhipu API that follows ../shared/reference/zhipu-api.md byte for byte:
 * ids in the yyyyMMddHHmmss+16hex form, `data: {json}\n\n` frames, `role:"assistant"` on text
 * and reasoning deltas (not on tool-call deltas), no `finish_reason` key before the last chunk,
 * usage only in the last chunk, `data: [DONE]`, whole or fragmented tool calls, error bodies
 * `{"error":{"code":"…","message":"…"}}` with the right HTTP status. Scripted per test; records
 * every request.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { parseSync, transcription } from './platform-readers.js';

export interface ScriptedUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  cached_tokens?: number;
  reasoning_tokens?: number;
}

export interface FakeToolCall {
  name: string;
  arguments: string | Record<string, unknown>;
  id?: string;
}

export type Reply =
  | {
      kind: 'text';
      text: string;
      reasoning?: string;
      /** Characters per content chunk (default 8). */
      chunk?: number;
      finish?: string;
      usage?: ScriptedUsage;
      /** Write each frame in two network writes split inside a multi-byte character. */
      splitBytes?: boolean;
      /** Pause between chunks (ms). */
      delayMs?: number;
      /**
       * Z.ai's glued-frame glitch (2026): after content piece N, write that frame cut short by
       * `glueCut` characters (default 3, inside the closing brackets) with the next `data:` frame
       * glued onto the same line.
       */
      glueAfter?: number;
      glueCut?: number;
      /** Non-streaming shape even if the request asked to stream (never happens on the real API). */
    }
  | {
      kind: 'tools';
      calls: FakeToolCall[];
      content?: string;
      reasoning?: string;
      /** Stream arguments in fragments (the default when the request has tool_stream:true). */
      fragment?: boolean;
      /** Put the last argument fragment in the finishing chunk. */
      lastFragmentInFinish?: boolean;
      /** Repeat id and name on every fragment (seen on some deployments). */
      repeatIdName?: boolean;
      usage?: ScriptedUsage;
      finish?: string;
    }
  | { kind: 'error'; status: number; code: string; message: string }
  /** Send some text, then drop the connection without finishing. */
  | { kind: 'cut'; text: string }
  /** Send some text, then send nothing more (for idle timeouts). */
  | { kind: 'hang'; text?: string }
  /**
   * Stream `text` (reasoning first when `reasoning`) again and again until the client goes away;
   * with `oneLine`, all of it inside one `data:` line that never ends.
   */
  | { kind: 'endless'; text?: string; reasoning?: boolean; delayMs?: number; oneLine?: boolean }
  /** An `error` object inside the SSE stream (anticipated by the official SDK). */
  | { kind: 'stream-error'; code: string; message: string }
  /** Bytes written as they are (a recorded stream replayed). */
  | { kind: 'raw'; body: string };

export interface SearchResult {
  title: string;
  content: string;
  link: string;
  media?: string;
  publish_date?: string;
}

export type Responder = (req: RecordedRequest, fake: FakeZhipu) => Reply;

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  raw: string;
  /** The body's bytes (multipart uploads carry binary files). */
  bytes: Buffer;
  // biome-ignore lint/suspicious/noExplicitAny: request bodies are inspected freely by tests
  body: any;
  /** Which connection it came on (numbered as they are opened): kept-alive ones share it. */
  connection: number;
}

export interface OcrReply {
  md?: string;
  status?: number;
  code?: string;
  message?: string;
}

export interface FakeBatch {
  id: string;
  status: string;
  inputFileId: string;
  lines: string[];
  polls: number;
  createdAt: number;
  metadata: Record<string, string>;
  outputFileId?: string | undefined;
  errorFileId?: string | undefined;
  completed?: number;
  failed?: number;
  /** A job that failed validation: the API's own errors, as OpenAI-style batch objects carry them. */
  errors?: { code: string; message: string; line?: number }[];
}

export const TEST_KEY = '0123456789abcdef0123456789abcdef.TestSecret1';

const KNOWN_MODELS = new Set([
  'glm-5.3',
  'glm-5.2',
  'glm-5.1',
  'glm-5',
  'glm-5-turbo',
  'glm-4.7',
  'glm-4.7-flash',
  'glm-4.7-flashx',
  'glm-4.6',
  'glm-4.5',
  'glm-4.5-air',
  'glm-4.5-x',
  'glm-4.5-airx',
  'glm-4.5-flash',
  'glm-4-plus',
  'glm-4-air',
  'glm-4-air-250414',
  'glm-4-flash',
  'glm-4-flash-250414',
  'glm-4-flashx',
  'glm-4.6v',
  'glm-4.6v-flash',
  'glm-4.6v-flashx',
  'glm-4.5v',
  'glm-4v-flash',
  'glm-4v',
  'glm-4v-plus',
  'glm-5.3-flash',
  'glm-5.3-flashx',
  'glm-5v-turbo',
  'glm-5-code',
  'glm-4-32b-0414-128k',
  'glm-4-long',
  'glm-4-airx',
  'glm-4-flashx-250414',
]);

/** Models that refuse `thinking: disabled` with 400/1210 (reference §2.2: 5.3 can only be enabled). */
const ALWAYS_THINKING = new Set(['glm-5.3', 'glm-5.3-flash', 'glm-5.3-flashx', 'glm-4.5v']);

function requestId(): string {
  const d = new Date();
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const stamp = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
  return stamp + randomBytes(8).toString('hex');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class FakeZhipu {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: (Reply | Responder)[] = [];
  private readonly ocrQueue: OcrReply[] = [];
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  /** Used when the script is empty. */
  fallback: Responder = () => ({ kind: 'text', text: 'OK' });
  /** Accepted API keys. */
  keys = new Set([TEST_KEY]);
  /** Include `object` (2026 shape) or leave it out (2025 shape). */
  objectField = true;
  /** Reject prompts longer than this many characters with 400/1261 (0 = no limit). */
  maxPromptChars = 0;
  /** OCR page cap. */
  ocrMaxPages = 100;
  /** Wait this long before answering each chat call (a real API's latency). */
  latencyMs = 0;
  /** While set, every chat call waits for it before answering: a test decides when work may end. */
  hold: Promise<void> | undefined;
  /** Chat calls being answered right now, and the most at once so far. */
  inFlight = 0;
  maxInFlight = 0;
  /** Answer 429/1302 to a chat call beyond this many at once (0 = no limit), as the real API does. */
  concurrencyLimit = 0;
  /** Calls refused by `concurrencyLimit`. */
  refused = 0;
  /** Cut every n-th streamed chat answer mid-way (0 = never): a connection dropped mid-answer. */
  dropEvery = 0;
  /** Chat answers cut so far by `dropEvery`. */
  dropped = 0;
  private chatCount = 0;
  /** The Batch API's limits for one input file (0 = none; the real ones are 100 MB, 50,000 lines). */
  batchMaxBytes = 0;
  batchMaxLines = 0;
  /** How a batch job ends: answered whole, or expired / cancelled with only some lines answered. */
  batchEnd: 'completed' | 'expired' | 'cancelled' = 'completed';
  /** Set: every job fails validation with this error (status "failed", nothing answered). */
  batchInvalid: { code: string; message: string } | undefined;
  /** Of a job that expires or is cancelled, the lines answered before it ended. */
  batchAnswered = 0.5;
  /** Models this fake serves beyond the known list (a model newer than zhi's registry). */
  extraModels = new Map<string, { alwaysThinks?: boolean }>();
  private readonly searchQueue: SearchResult[][] = [];
  private readonly connectionIds = new WeakMap<object, number>();
  private connections = 0;
  port = 0;

  async start(port = 0): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err) => {
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json; charset=UTF-8' });
        res.end(JSON.stringify({ error: { code: '500', message: String(err) } }));
      });
    });
    this.server.on('connection', (s) => {
      this.connections += 1;
      this.connectionIds.set(s, this.connections);
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this.baseUrl;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/api/paas/v4`;
  }

  /**
   * The server goes away for `ms`: every connection is cut and new ones are refused (ECONNREFUSED),
   * then it listens again on the same port. Resolves when it is back.
   */
  async outage(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server!.close(() => resolve());
      for (const s of this.sockets) s.destroy();
    });
    await sleep(ms);
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Queue replies for the next chat completions, in order. */
  script(...replies: (Reply | Responder)[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Queue results for the next `/web_search` calls. */
  scriptSearch(...results: SearchResult[][]): this {
    this.searchQueue.push(...results);
    return this;
  }

  scriptOcr(...replies: OcrReply[]): this {
    this.ocrQueue.push(...replies);
    return this;
  }

  pending(): number {
    return this.queue.length;
  }

  reset(): void {
    this.batchBodies = [];
    this.batches.clear();
    this.files.clear();
    this.maxInFlight = 0;
    this.refused = 0;
    this.requests.length = 0;
    this.queue.length = 0;
    this.ocrQueue.length = 0;
  }

  /**
   * `reset()`, and every setting back to its default as well (`reset()` keeps them, so a test
   * can clear the record between two runs): one fake per file, fresh for each test.
   */
  restore(): void {
    this.reset();
    this.fallback = () => ({ kind: 'text', text: 'OK' });
    this.keys = new Set([TEST_KEY]);
    this.objectField = true;
    this.maxPromptChars = 0;
    this.ocrMaxPages = 100;
    this.latencyMs = 0;
    this.hold = undefined;
    this.concurrencyLimit = 0;
    this.dropEvery = 0;
    this.dropped = 0;
    this.chatCount = 0;
    this.batchEnd = 'completed';
    this.batchInvalid = undefined;
    this.batchAnswered = 0.5;
    this.batchMaxBytes = 0;
    this.batchMaxLines = 0;
    this.extraModels.clear();
    this.searchQueue.length = 0;
    this.batchPolls = 2;
  }

  /** The chat completion requests received so far. */
  chatRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.path.endsWith('/chat/completions'));
  }

  /** Bodies of the chat completion requests received so far. */
  // biome-ignore lint/suspicious/noExplicitAny: see RecordedRequest
  chatBodies(): any[] {
    return this.chatRequests().map((r) => r.body);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const bytes = Buffer.concat(chunks);
    const raw = bytes.toString('utf8');
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const url = new URL(req.url ?? '/', 'http://x');
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      headers: req.headers,
      raw,
      bytes,
      body,
      connection: this.connectionIds.get(req.socket) ?? 0,
    };
    this.requests.push(record);

    // OpenRouter-shaped addresses (`/api/v1`) too: zhi sends the same chat API there.
    const base = url.pathname.replace(/^\/api\/((coding\/)?paas\/v4|v1)/, '');
    const known = url.pathname !== base;
    if (!known) return this.notFound(res, url.pathname);

    const auth = this.checkAuth(req);
    if (auth) return this.error(res, auth.status, auth.code, auth.message);

    if (req.method === 'GET' && base === '/models') {
      return this.json(res, 200, {
        object: 'list',
        data: [...KNOWN_MODELS].map((id) => ({ id, object: 'model', created: 1766332800, owned_by: 'z-ai' })),
      });
    }
    if (req.method === 'POST' && base === '/chat/completions') return this.chat(record, res);
    if (req.method === 'POST' && base === '/layout_parsing') return this.ocr(record, res);
    if (req.method === 'POST' && base === '/audio/transcriptions')
      return transcription(record, res, req.headers['content-type'] ?? '');
    if (req.method === 'POST' && base === '/files/parser/sync')
      return parseSync(record, res, req.headers['content-type'] ?? '');
    if (
      base === '/files' ||
      base.startsWith('/files/') ||
      base === '/batches' ||
      base.startsWith('/batches/')
    )
      return this.batchRoute(req.method ?? 'GET', base, record, res, req.headers['content-type'] ?? '');
    if (req.method === 'POST' && base === '/web_search') return this.webSearch(record, res);
    return this.notFound(res, url.pathname);
  }

  /** `POST /web_search` (reference §8.2): search_query and a known search_engine are required. */
  private webSearch(record: RecordedRequest, res: ServerResponse): void {
    const body = record.body ?? {};
    if (typeof body.search_query !== 'string' || !body.search_query.trim()) {
      this.error(res, 400, '1214', 'search_query参数非法。请检查文档。');
      return;
    }
    const engines = ['search_std', 'search_pro', 'search_pro_sogou', 'search_pro_quark', 'search-prime'];
    if (!engines.includes(body.search_engine)) {
      this.error(res, 400, '1214', 'search_engine参数非法。请检查文档。');
      return;
    }
    const results = this.searchQueue.shift() ?? [
      {
        title: `About ${body.search_query}`,
        content: `A page about ${body.search_query}.`,
        link: 'https://example.com/a',
        media: 'Example',
        publish_date: '2026-11-01',
      },
    ];
    this.json(res, 200, {
      id: requestId(),
      created: Math.floor(Date.now() / 1000),
      request_id: body.request_id ?? requestId(),
      search_intent: [{ query: body.search_query, intent: 'SEARCH_ALL', keywords: body.search_query }],
      search_result: results
        .slice(0, body.count ?? 10)
        .map((r, i) => ({ icon: '', refer: `ref_${i + 1}`, ...r })),
    });
  }

  private checkAuth(req: IncomingMessage): { status: number; code: string; message: string } | undefined {
    const header = req.headers.authorization;
    if (!header) {
      return { status: 401, code: '1001', message: 'Header中未收到Authorization参数，无法进行身份验证。' };
    }
    const token = header.replace(/^Bearer\s+/i, '').trim();
    if (!this.keys.has(token)) return { status: 401, code: '401', message: '令牌已过期或验证不正确！' };
    return undefined;
  }

  private notFound(res: ServerResponse, path: string): void {
    this.json(res, 404, { timestamp: new Date().toISOString(), status: 404, error: 'Not Found', path });
  }

  private json(res: ServerResponse, status: number, data: unknown): void {
    const text = JSON.stringify(data);
    res.writeHead(status, {
      'Content-Type': 'application/json; charset=UTF-8',
      'Content-Length': Buffer.byteLength(text),
    });
    res.end(text);
  }

  private error(res: ServerResponse, status: number, code: string, message: string): void {
    this.json(res, status, { error: { code, message } });
  }

  private validate(
    body: RecordedRequest['body'],
  ): { code: string; message: string; status?: number } | undefined {
    if (!body || typeof body !== 'object') return { code: '1214', message: 'Input cannot be empty' };
    if (typeof body.model !== 'string' || !body.model)
      return { code: '1213', message: 'model参数未正常接收' };
    const model = body.model.toLowerCase();
    if (!KNOWN_MODELS.has(model) && !this.extraModels.has(model))
      return { code: '1211', message: '模型不存在，请检查模型代码。' };
    const alwaysThinks = ALWAYS_THINKING.has(model) || this.extraModels.get(model)?.alwaysThinks;
    if (alwaysThinks && body.thinking?.type === 'disabled')
      return { code: '1210', message: 'API 调用参数有误，请检查文档。' };
    const messages = body.messages;
    if (!Array.isArray(messages) || messages.length === 0)
      return { code: '1214', message: 'messages参数非法。请检查文档。' };
    if (!messages.some((m: { role: string }) => m.role === 'user' || m.role === 'tool')) {
      return { code: '1214', message: 'messages参数非法。请检查文档。' };
    }
    const callIds = new Set<string>();
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i];
      if (m.role === 'assistant') {
        const hasContent = typeof m.content === 'string' && m.content.length > 0;
        const hasCalls = Array.isArray(m.tool_calls) && m.tool_calls.length > 0;
        if (!hasContent && !hasCalls)
          return { code: '1214', message: `messages[${i}]:content和tool_calls 字段不能同时为空` };
        for (const c of m.tool_calls ?? []) callIds.add(c.id);
      }
      if (m.role === 'tool' && !callIds.has(m.tool_call_id)) {
        return { code: '1214', message: `messages[${i}]:tool_call_id 参数非法` };
      }
    }
    // The documented limit on tools per request (zhipu-api.md §2.1).
    if (Array.isArray(body.tools) && body.tools.length > 128) {
      return { code: '1214', message: 'tools参数非法。请检查文档。' };
    }
    if (body.temperature !== undefined && (body.temperature < 0 || body.temperature > 1)) {
      return { code: '1214', message: 'temperature参数非法。请检查文档。' };
    }
    if (this.maxPromptChars && JSON.stringify(messages).length > this.maxPromptChars) {
      return { code: '1261', message: 'Prompt exceeds max length' };
    }
    return undefined;
  }

  private nextReply(record: RecordedRequest): Reply {
    const next = this.queue.shift() ?? this.fallback;
    return typeof next === 'function' ? next(record, this) : next;
  }

  private promptTokens(body: RecordedRequest['body']): number {
    return Math.max(1, Math.ceil(JSON.stringify(body.messages ?? []).length / 4));
  }

  private async chat(record: RecordedRequest, res: ServerResponse): Promise<void> {
    if (this.concurrencyLimit && this.inFlight >= this.concurrencyLimit) {
      this.refused += 1;
      return this.error(res, 429, '1302', '您当前使用该API的并发数过高，请降低并发，或联系客服增加限额。');
    }
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      if (this.latencyMs) await sleep(this.latencyMs);
      if (this.hold) await this.hold;
      await this.chatReply(record, res);
    } finally {
      this.inFlight -= 1;
    }
  }

  private async chatReply(record: RecordedRequest, res: ServerResponse): Promise<void> {
    const invalid = this.validate(record.body);
    if (invalid) return this.error(res, invalid.status ?? 400, invalid.code, invalid.message);
    let reply = this.nextReply(record);
    this.chatCount += 1;
    if (this.dropEvery && record.body.stream && this.chatCount % this.dropEvery === 0) {
      this.dropped += 1;
      reply = { kind: 'cut', text: 'The answer began, then the connec' };
    }
    if (reply.kind === 'error') return this.error(res, reply.status, reply.code, reply.message);
    if (reply.kind === 'raw') {
      res.writeHead(200, { 'Content-Type': 'text/event-stream;charset=UTF-8', 'Cache-Control': 'no-cache' });
      res.end(reply.body);
      return;
    }
    const body = record.body;
    const id = requestId();
    const model = body.model;
    const created = Math.floor(Date.now() / 1000);
    const thinkingOn = body.thinking?.type !== 'disabled';

    if (!body.stream) return this.whole(res, reply, { id, model, created, thinkingOn, body });

    res.writeHead(200, { 'Content-Type': 'text/event-stream;charset=UTF-8', 'Cache-Control': 'no-cache' });
    const head = () => ({
      id,
      created,
      ...(this.objectField ? { object: 'chat.completion.chunk' } : {}),
      model,
    });
    const send = async (data: unknown, split = false) => {
      const frame = Buffer.from(`data: ${JSON.stringify(data)}\n\n`, 'utf8');
      if (!split) {
        res.write(frame);
        return;
      }
      // Cut inside a multi-byte character: find the first byte that continues one.
      let cut = frame.findIndex((b, i) => i > 0 && (b & 0xc0) === 0x80);
      if (cut < 0) cut = Math.floor(frame.length / 2);
      res.write(frame.subarray(0, cut));
      await sleep(15);
      res.write(frame.subarray(cut));
      await sleep(5);
    };
    const usageOf = (u: ScriptedUsage | undefined, completion: number, reasoning: number) => {
      const prompt = u?.prompt_tokens ?? this.promptTokens(body);
      const comp = u?.completion_tokens ?? completion;
      return {
        prompt_tokens: prompt,
        completion_tokens: comp,
        total_tokens: prompt + comp,
        prompt_tokens_details: { cached_tokens: u?.cached_tokens ?? 0 },
        ...(this.objectField
          ? { completion_tokens_details: { reasoning_tokens: u?.reasoning_tokens ?? reasoning } }
          : {}),
      };
    };

    if (reply.kind === 'endless') {
      const piece = reply.text ?? 'and so on, ';
      const field = reply.reasoning ? 'reasoning_content' : 'content';
      // Never finishes: only the client's caps end it (it closes the connection).
      if (reply.oneLine) {
        // One `data:` line that never gets its newline.
        res.write(`data: {"choices":[{"index":0,"delta":{"${field}":"`);
        const block = piece.repeat(Math.max(1, Math.floor(65536 / piece.length)));
        while (!res.destroyed && !res.socket?.destroyed) {
          if (!res.write(block)) await drained(res);
          await sleep(reply.delayMs ?? 0);
        }
        return;
      }
      while (!res.destroyed && !res.socket?.destroyed) {
        await send({ ...head(), choices: [{ index: 0, delta: { role: 'assistant', [field]: piece } }] });
        await sleep(reply.delayMs ?? 1);
      }
      return;
    }
    if (
      reply.kind === 'text' ||
      reply.kind === 'cut' ||
      reply.kind === 'hang' ||
      reply.kind === 'stream-error'
    ) {
      const text = reply.kind === 'stream-error' ? '' : (reply.text ?? '');
      const reasoning = reply.kind === 'text' && thinkingOn ? (reply.reasoning ?? '') : '';
      const size = reply.kind === 'text' ? (reply.chunk ?? 8) : 8;
      const split = reply.kind === 'text' && Boolean(reply.splitBytes);
      const delay = reply.kind === 'text' ? (reply.delayMs ?? 0) : 0;
      for (const piece of pieces(reasoning, size)) {
        await send(
          { ...head(), choices: [{ index: 0, delta: { role: 'assistant', reasoning_content: piece } }] },
          split,
        );
        if (delay) await sleep(delay);
      }
      for (const [i, piece] of pieces(text, size).entries()) {
        const chunk = { ...head(), choices: [{ index: 0, delta: { role: 'assistant', content: piece } }] };
        if (reply.kind === 'text' && reply.glueAfter === i) {
          const json = JSON.stringify(chunk);
          res.write(`data: ${json.slice(0, json.length - (reply.glueCut ?? 3))}`);
          continue;
        }
        await send(chunk, split);
        if (delay) await sleep(delay);
        // The client went away (Ctrl+C): stop writing, as a real server does.
        if (res.destroyed || res.socket?.destroyed) return;
      }
      if (reply.kind === 'cut') {
        await sleep(20);
        res.socket?.destroy();
        return;
      }
      if (reply.kind === 'hang') return; // never ends; the client's idle timeout must fire
      if (reply.kind === 'stream-error') {
        await send({ error: { code: reply.code, message: reply.message } });
        res.end();
        return;
      }
      await send({
        ...head(),
        choices: [
          { index: 0, finish_reason: reply.finish ?? 'stop', delta: { role: 'assistant', content: '' } },
        ],
        usage: usageOf(
          reply.usage,
          Math.ceil((text.length + reasoning.length) / 2),
          Math.ceil(reasoning.length / 2),
        ),
      });
      res.write('data: [DONE]\n\n');
      res.end();
      return;
    }

    // Tool calls.
    const reasoning = thinkingOn ? (reply.reasoning ?? '') : '';
    for (const piece of pieces(reasoning, 16)) {
      await send({
        ...head(),
        choices: [{ index: 0, delta: { role: 'assistant', reasoning_content: piece } }],
      });
    }
    for (const piece of pieces(reply.content ?? '', 16)) {
      await send({ ...head(), choices: [{ index: 0, delta: { role: 'assistant', content: piece } }] });
    }
    const fragment = reply.fragment ?? Boolean(body.tool_stream);
    let held: unknown;
    for (const [index, call] of reply.calls.entries()) {
      const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
      const callId = call.id ?? `call_${randomBytes(12).toString('hex')}`;
      if (!fragment) {
        await send({
          ...head(),
          choices: [
            {
              index: 0,
              delta: {
                tool_calls: [
                  { id: callId, index, type: 'function', function: { name: call.name, arguments: args } },
                ],
              },
            },
          ],
        });
        continue;
      }
      await send({
        ...head(),
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [
                { index, id: callId, type: 'function', function: { name: call.name, arguments: '' } },
              ],
            },
          },
        ],
      });
      const frags = pieces(args, 7);
      for (const [k, frag] of frags.entries()) {
        const delta = reply.repeatIdName
          ? { index, id: callId, type: 'function', function: { name: call.name, arguments: frag } }
          : { index, function: { arguments: frag } };
        const isLastOverall = index === reply.calls.length - 1 && k === frags.length - 1;
        if (isLastOverall && reply.lastFragmentInFinish) {
          held = delta;
          continue;
        }
        await send({ ...head(), choices: [{ index: 0, delta: { tool_calls: [delta] } }] });
      }
    }
    await send({
      ...head(),
      choices: [
        {
          index: 0,
          finish_reason: reply.finish ?? 'tool_calls',
          delta: { role: 'assistant', content: '', ...(held ? { tool_calls: [held] } : {}) },
        },
      ],
      usage: usageOf(reply.usage, 20, Math.ceil(reasoning.length / 2)),
    });
    res.write('data: [DONE]\n\n');
    res.end();
  }

  private whole(
    res: ServerResponse,
    reply: Exclude<Reply, { kind: 'error' }>,
    o: { id: string; model: string; created: number; thinkingOn: boolean; body: RecordedRequest['body'] },
  ): void {
    this.json(res, 200, this.wholeBody(reply, o));
  }

  /** A non-streaming chat completion body (also each line of a batch job's output). */
  private wholeBody(
    reply: Exclude<Reply, { kind: 'error' }>,
    o: { id: string; model: string; created: number; thinkingOn: boolean; body: RecordedRequest['body'] },
  ): Record<string, unknown> {
    const message: Record<string, unknown> = { role: 'assistant', content: '' };
    let finish = 'stop';
    if (reply.kind === 'tools') {
      message.content = reply.content ?? '';
      message.tool_calls = reply.calls.map((c, index) => ({
        id: c.id ?? `call_-${BigInt(`0x${randomBytes(7).toString('hex')}`).toString()}`,
        index,
        type: 'function',
        function: {
          name: c.name,
          arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
        },
      }));
      finish = reply.finish ?? 'tool_calls';
    } else if (reply.kind === 'text') {
      message.content = reply.text;
      if (o.thinkingOn && reply.reasoning) message.reasoning_content = reply.reasoning;
      finish = reply.finish ?? 'stop';
    } else {
      message.content = 'text' in reply ? (reply.text ?? '') : '';
    }
    const prompt = this.promptTokens(o.body);
    return {
      choices: [{ finish_reason: finish, index: 0, message }],
      created: o.created,
      id: o.id,
      model: o.model,
      ...(this.objectField ? { object: 'chat.completion' } : {}),
      request_id: o.body.request_id ?? o.id,
      usage: {
        completion_tokens: 1,
        prompt_tokens: prompt,
        prompt_tokens_details: { cached_tokens: 0 },
        total_tokens: prompt + 1,
      },
    };
  }

  // ---- Batch API (BigModel "批处理 API" / "文件 API") ----

  private readonly files = new Map<
    string,
    { id: string; purpose: string; filename: string; content: string }
  >();
  readonly batches = new Map<string, FakeBatch>();
  /** Polls (`GET /batches/{id}`) before a job completes. */
  batchPolls = 2;
  /** Bodies of the requests that went through batch jobs. */
  // biome-ignore lint/suspicious/noExplicitAny: see RecordedRequest
  batchBodies: any[] = [];

  private async batchRoute(
    method: string,
    base: string,
    record: RecordedRequest,
    res: ServerResponse,
    contentType: string,
  ): Promise<void> {
    const parts = base.split('/').filter(Boolean);
    if (method === 'POST' && base === '/files') {
      await this.upload(record, res, contentType);
      return;
    }
    if (method === 'GET' && parts[0] === 'files' && parts[2] === 'content') {
      const f = this.files.get(parts[1] ?? '');
      if (!f) return this.error(res, 404, '1214', '文件不存在');
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      res.end(f.content);
      return;
    }
    if (method === 'POST' && base === '/batches') {
      this.createBatch(record, res);
      return;
    }
    if (method === 'GET' && base === '/batches') {
      const data = [...this.batches.values()].reverse().map((b) => this.batchJson(b));
      return this.json(res, 200, { object: 'list', data, has_more: false });
    }
    const batch = this.batches.get(parts[1] ?? '');
    if (!batch) return this.error(res, 404, '1214', 'batch 不存在');
    if (method === 'POST' && parts[2] === 'cancel') {
      if (!['completed', 'failed', 'expired', 'cancelled'].includes(batch.status))
        batch.status = 'cancelling';
      return this.json(res, 200, this.batchJson(batch));
    }
    if (method === 'GET' && parts.length === 2) {
      this.advance(batch);
      return this.json(res, 200, this.batchJson(batch));
    }
    return this.notFound(res, record.path);
  }

  private async upload(record: RecordedRequest, res: ServerResponse, contentType: string): Promise<void> {
    let form: FormData;
    try {
      form = await new Response(record.raw, { headers: { 'Content-Type': contentType } }).formData();
    } catch {
      return this.error(res, 400, '1214', 'file参数非法');
    }
    const purpose = String(form.get('purpose') ?? '');
    const file = form.get('file');
    if (purpose !== 'batch' || !file || typeof file === 'string')
      return this.error(res, 400, '1214', 'purpose 或 file 参数非法');
    const id = `${Math.floor(Date.now() / 1000)}_${randomBytes(16).toString('hex')}`;
    const content = await file.text();
    if (this.batchMaxBytes && Buffer.byteLength(content) > this.batchMaxBytes)
      return this.error(res, 400, '1214', '文件大小超过限制');
    if (this.batchMaxLines && content.split('\n').filter((l) => l.trim()).length > this.batchMaxLines)
      return this.error(res, 400, '1214', '文件行数超过限制');
    this.files.set(id, { id, purpose, filename: file.name, content });
    return this.json(res, 200, {
      id,
      object: 'file',
      bytes: Buffer.byteLength(content),
      created_at: Math.floor(Date.now() / 1000),
      filename: file.name,
      purpose,
    });
  }

  private createBatch(record: RecordedRequest, res: ServerResponse): void {
    const body = record.body ?? {};
    const input = this.files.get(String(body.input_file_id ?? ''));
    if (!input) {
      this.error(res, 400, '1214', 'input_file_id 参数非法');
      return;
    }
    if (body.endpoint !== '/v4/chat/completions') {
      this.error(res, 400, '1214', 'endpoint 参数非法');
      return;
    }
    const id = `batch_${randomBytes(10).toString('hex')}`;
    const lines = input.content.split('\n').filter((l) => l.trim());
    const batch: FakeBatch = {
      id,
      status: 'validating',
      inputFileId: input.id,
      lines,
      polls: 0,
      createdAt: Math.floor(Date.now() / 1000),
      metadata: body.metadata ?? {},
    };
    this.batches.set(id, batch);
    this.json(res, 200, this.batchJson(batch));
  }

  /** A job moves on one step per poll; at the end its lines are answered by the script. */
  private advance(b: FakeBatch): void {
    b.polls += 1;
    if (b.status === 'cancelling') {
      b.status = 'cancelled';
      return;
    }
    if (b.status === 'validating' && this.batchInvalid) {
      b.status = 'failed';
      b.errors = [{ ...this.batchInvalid, line: 1 }];
      return;
    }
    if (b.status === 'validating') b.status = 'in_progress';
    if (b.status === 'in_progress' && b.polls >= this.batchPolls) this.complete(b);
  }

  private complete(b: FakeBatch): void {
    const out: string[] = [];
    const errors: string[] = [];
    // A job that expires (or is cancelled) has answered only some of its lines by then.
    const answered =
      this.batchEnd === 'completed' ? b.lines.length : Math.floor(b.lines.length * this.batchAnswered);
    for (const line of b.lines.slice(0, answered)) {
      const row = JSON.parse(line) as { custom_id: string; body: RecordedRequest['body'] };
      const record: RecordedRequest = {
        method: 'POST',
        path: `/api/paas/v4/batches/${b.id}/lines`,
        headers: {},
        raw: JSON.stringify(row.body),
        bytes: Buffer.from(JSON.stringify(row.body)),
        body: row.body,
        // A batch line comes on no connection of its own.
        connection: 0,
      };
      this.batchBodies.push(row.body);
      const invalid = this.validate(row.body);
      const reply: Reply = invalid
        ? { kind: 'error', status: 400, code: invalid.code, message: invalid.message }
        : this.nextReply(record);
      const rid = requestId();
      if (reply.kind === 'error') {
        errors.push(
          JSON.stringify({
            custom_id: row.custom_id,
            response: {
              status_code: reply.status,
              body: { error: { code: reply.code, message: reply.message } },
            },
          }),
        );
        continue;
      }
      const body = this.wholeBody(reply, {
        id: rid,
        model: row.body.model,
        created: Math.floor(Date.now() / 1000),
        thinkingOn: row.body.thinking?.type !== 'disabled',
        body: row.body,
      });
      out.push(
        JSON.stringify({
          custom_id: row.custom_id,
          response: { status_code: 200, request_id: rid, body },
        }),
      );
    }
    const save = (content: string) => {
      const id = `${Math.floor(Date.now() / 1000)}_${randomBytes(16).toString('hex')}`;
      this.files.set(id, { id, purpose: 'batch', filename: `${b.id}.jsonl`, content: `${content}\n` });
      return id;
    };
    b.outputFileId = out.length ? save(out.join('\n')) : undefined;
    b.errorFileId = errors.length ? save(errors.join('\n')) : undefined;
    b.completed = out.length;
    b.failed = errors.length;
    b.status = this.batchEnd;
  }

  private batchJson(b: FakeBatch): Record<string, unknown> {
    return {
      id: b.id,
      object: 'batch',
      endpoint: '/v4/chat/completions',
      input_file_id: b.inputFileId,
      completion_window: '24h',
      status: b.status,
      output_file_id: b.outputFileId ?? null,
      error_file_id: b.errorFileId ?? null,
      created_at: b.createdAt,
      request_counts: { total: b.lines.length, completed: b.completed ?? 0, failed: b.failed ?? 0 },
      metadata: b.metadata,
      ...(b.errors ? { errors: { object: 'list', data: b.errors } } : {}),
    };
  }

  private ocr(record: RecordedRequest, res: ServerResponse) {
    const body = record.body;
    if (!body || typeof body !== 'object' || typeof body.file !== 'string' || !body.file) {
      return this.error(res, 400, '1214', 'file参数非法。请检查文档。');
    }
    if (String(body.model).toLowerCase() !== 'glm-ocr')
      return this.error(res, 400, '1211', '模型不存在，请检查模型代码。');
    let bytes: Buffer | undefined;
    const file: string = body.file;
    if (/^https?:\/\//.test(file)) bytes = undefined;
    else {
      const b64 = file.startsWith('data:') ? file.slice(file.indexOf(',') + 1) : file;
      bytes = Buffer.from(b64, 'base64');
    }
    let type = 'url';
    let pages = 1;
    if (bytes) {
      if (bytes.subarray(0, 4).toString('latin1') === '%PDF') {
        type = 'pdf';
        pages = Math.max(1, (bytes.toString('latin1').match(/\/Type\s*\/Page(?!s)/g) ?? []).length);
        if (bytes.length > 50 * 1024 * 1024) return this.error(res, 400, '1214', 'PDF文件大小不能超过50M');
      } else if (bytes[0] === 0x89 && bytes.subarray(1, 4).toString('latin1') === 'PNG') type = 'png';
      else if (bytes[0] === 0xff && bytes[1] === 0xd8) type = 'jpg';
      else return this.error(res, 400, '1214', '文件格式不支持，仅支持PDF、JPG、PNG');
      if (type !== 'pdf' && bytes.length > 10 * 1024 * 1024)
        return this.error(res, 400, '1214', '图片大小不能超过10M');
      if (pages > this.ocrMaxPages)
        return this.error(res, 400, '1214', `PDF页数不能超过${this.ocrMaxPages}页`);
    }
    const next = this.ocrQueue.shift();
    if (next?.status) return this.error(res, next.status, next.code ?? '500', next.message ?? 'error');
    const md = next?.md ?? `# Document\n\n| Item | Amount |\n| --- | --- |\n| Total | 100.00 |\n`;
    const id = `task_${randomBytes(6).toString('hex')}`;
    this.json(res, 200, {
      id,
      created: Math.floor(Date.now() / 1000),
      model: 'GLM-OCR',
      md_results: md,
      layout_details: Array.from({ length: pages }, () => [
        {
          index: 1,
          label: 'text',
          bbox_2d: [100, 50, 900, 120],
          content: md.slice(0, 40),
          height: 2640,
          width: 2040,
        },
      ]),
      data_info: {
        num_pages: pages,
        pages: Array.from({ length: pages }, () => ({ width: 2040, height: 2640 })),
      },
      usage: {
        prompt_tokens: 123,
        completion_tokens: 456,
        prompt_tokens_details: { cached_tokens: 0 },
        total_tokens: 579,
      },
      request_id: body.request_id ?? id,
    });
  }
}

/** Split text into pieces by characters (code points), so each piece is valid UTF-8 on its own. */
function pieces(text: string, size: number): string[] {
  const chars = [...text];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

/** Until the socket takes more (or is gone). */
function drained(res: import('node:http').ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}
