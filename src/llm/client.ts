import { createParser } from 'eventsource-parser';
import { log } from '../support/log.js';
import { MessageAccumulator, type ToolCallDelta } from './accumulate.js';
import { abortedError, backoffDelay, classifyHttpError, networkError, timeoutError } from './errors.js';
import { apiFetch, type FetchLike } from './http.js';
import { findModel } from './models.js';
import type {
  ApiErrorInfo,
  ChatRequest,
  FinishReason,
  LlmClient,
  Message,
  StreamEvent,
  Usage,
} from './types.js';
import { ZERO_USAGE } from './types.js';

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  fetch?: FetchLike;
  /** Abort a stream that sends no bytes for this long. Not a total timeout. */
  idleTimeoutMs?: number;
  maxRetries?: number;
  retryBaseMs?: number;
  retryCapMs?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  userAgent?: string;
  acceptLanguage?: string;
}

interface ChunkJson {
  error?: { code?: unknown; message?: unknown };
  model?: string;
  choices?: Array<{
    delta?: { content?: string | null; reasoning_content?: string | null; tool_calls?: ToolCallDelta[] };
    message?: { content?: string | null; reasoning_content?: string | null; tool_calls?: ToolCallDelta[] };
    finish_reason?: string | null;
  }>;
  usage?: RawUsage;
}

interface RawUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
}

const FINISH_REASONS = new Set<FinishReason>([
  'stop',
  'tool_calls',
  'length',
  'sensitive',
  'network_error',
  'model_context_window_exceeded',
]);

export function parseUsage(raw: RawUsage | undefined): Usage {
  if (!raw) return { ...ZERO_USAGE };
  const prompt = raw.prompt_tokens ?? 0;
  const completion = raw.completion_tokens ?? 0;
  return {
    promptTokens: prompt,
    completionTokens: completion,
    totalTokens: raw.total_tokens ?? prompt + completion,
    cachedTokens: raw.prompt_tokens_details?.cached_tokens ?? 0,
    reasoningTokens: raw.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}

function mapFinish(reason: string): FinishReason {
  return FINISH_REASONS.has(reason as FinishReason) ? (reason as FinishReason) : 'unknown';
}

export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

let requestCounter = 0;
function newRequestId(): string {
  requestCounter += 1;
  return `zhi-${Date.now().toString(36)}-${process.pid.toString(36)}-${requestCounter}`;
}

/**
 * The Zhipu chat client. `stream()` never throws: it yields deltas and ends with exactly one
 * `done` or `error` event. Retries (only for the codes the reference marks retryable, and only
 * before any output was produced) are announced as `retry` events.
 */
export class ZhipuClient implements LlmClient {
  private readonly opts: Required<Omit<ClientOptions, 'fetch'>> & { fetch: FetchLike };

  constructor(opts: ClientOptions) {
    this.opts = {
      fetch: opts.fetch ?? apiFetch,
      idleTimeoutMs: opts.idleTimeoutMs ?? 90_000,
      maxRetries: opts.maxRetries ?? 3,
      retryBaseMs: opts.retryBaseMs ?? 1000,
      retryCapMs: opts.retryCapMs ?? 8000,
      sleep: opts.sleep ?? defaultSleep,
      random: opts.random ?? Math.random,
      userAgent: opts.userAgent ?? 'zhi',
      acceptLanguage: opts.acceptLanguage ?? 'en-US,en',
      baseUrl: opts.baseUrl.replace(/\/+$/, ''),
      apiKey: opts.apiKey,
    };
  }

  get baseUrl(): string {
    return this.opts.baseUrl;
  }

  /** Key, base URL, fetch and retry policy, shared with the other endpoints (OCR: ocr.ts). */
  get settings(): Readonly<Required<Omit<ClientOptions, 'fetch'>> & { fetch: FetchLike }> {
    return this.opts;
  }

  /** Build the wire body for a chat request (exported for tests and request-size benchmarks). */
  body(req: ChatRequest, stream: boolean): Record<string, unknown> {
    const info = findModel(req.model);
    const thinking = info ? Boolean(info.thinkingForced || (info.thinking && req.thinking)) : req.thinking;
    const body: Record<string, unknown> = {
      model: req.model,
      messages: req.messages.map(wireMessage),
      stream,
      thinking: { type: thinking ? 'enabled' : 'disabled' },
      request_id: req.requestId ?? newRequestId(),
    };
    if (req.tools?.length) {
      body.tools = req.tools;
      body.tool_choice = 'auto';
      if (stream && info?.toolStream) body.tool_stream = true;
    }
    // Always explicit: some GLM-4 models stop at 1,024 tokens when max_tokens is left out.
    const maxTokens = req.maxTokens ?? (info?.maxOutput || undefined);
    if (maxTokens) body.max_tokens = Math.min(maxTokens, 131_072);
    if (req.temperature !== undefined) body.temperature = req.temperature;
    return body;
  }

  async *stream(req: ChatRequest): AsyncGenerator<StreamEvent> {
    const { maxRetries } = this.opts;
    for (let attempt = 0; ; attempt++) {
      const acc = new MessageAccumulator();
      let failure: { error: ApiErrorInfo; usage?: Usage } | undefined;
      for await (const ev of this.attempt(req, acc)) {
        if (ev.type === 'error') {
          failure = { error: ev.error, ...(ev.usage ? { usage: ev.usage } : {}) };
          break;
        }
        yield ev;
        if (ev.type === 'done') return;
      }
      if (!failure) return; // unreachable: attempt always ends with done or error
      const canRetry =
        failure.error.retryable && !acc.hasOutput() && attempt < maxRetries && !req.signal?.aborted;
      if (!canRetry) {
        yield {
          type: 'error',
          error: failure.error,
          partial: acc.message(),
          ...(failure.usage ? { usage: failure.usage } : {}),
        };
        return;
      }
      const delayMs = backoffDelay(
        attempt,
        { baseMs: this.opts.retryBaseMs, capMs: this.opts.retryCapMs },
        this.opts.random,
      );
      log().warn('retrying chat request', { attempt: attempt + 1, delayMs, error: failure.error });
      yield { type: 'retry', attempt: attempt + 1, maxRetries, delayMs, error: failure.error };
      await this.opts.sleep(delayMs, req.signal);
      if (req.signal?.aborted) {
        yield { type: 'error', error: abortedError(), partial: acc.message() };
        return;
      }
    }
  }

  /** Non-streaming call, same events collapsed to the final one (used by the key check). */
  async complete(req: ChatRequest): Promise<Extract<StreamEvent, { type: 'done' | 'error' }>> {
    const acc = new MessageAccumulator();
    let last: Extract<StreamEvent, { type: 'done' | 'error' }> | undefined;
    for await (const ev of this.attempt({ ...req }, acc, false)) {
      if (ev.type === 'done' || ev.type === 'error') last = ev;
    }
    return last ?? { type: 'error', error: networkError('no response'), partial: acc.message() };
  }

  private async *attempt(
    req: ChatRequest,
    acc: MessageAccumulator,
    stream = true,
  ): AsyncGenerator<StreamEvent> {
    const idle = new AbortController();
    const signal = req.signal ? AbortSignal.any([req.signal, idle.signal]) : idle.signal;
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    const arm = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        idle.abort();
      }, this.opts.idleTimeoutMs);
    };
    const failed = (error: ApiErrorInfo, usage?: Usage): StreamEvent => ({
      type: 'error',
      error,
      partial: acc.message(),
      ...(usage ? { usage } : {}),
    });
    const interrupted = (err: unknown): ApiErrorInfo => {
      if (req.signal?.aborted) return abortedError();
      if (timedOut) return timeoutError(Math.round(this.opts.idleTimeoutMs / 1000));
      return networkError(err instanceof Error ? describeNetworkError(err) : String(err));
    };

    arm();
    try {
      let res: Response;
      try {
        res = await this.opts.fetch(`${this.opts.baseUrl}/chat/completions`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${this.opts.apiKey}`,
            'Content-Type': 'application/json; charset=UTF-8',
            Accept: stream ? 'text/event-stream' : 'application/json',
            'Accept-Language': this.opts.acceptLanguage,
            'User-Agent': this.opts.userAgent,
          },
          body: JSON.stringify(this.body(req, stream)),
          signal,
        });
      } catch (err) {
        yield failed(interrupted(err));
        return;
      }
      arm();
      if (!res.ok) {
        let text = '';
        try {
          text = await res.text();
        } catch {
          // body lost: the status still says enough
        }
        yield failed(classifyHttpError(res.status, text));
        return;
      }
      const contentType = res.headers.get('content-type') ?? '';
      if (!stream || !contentType.includes('text/event-stream') || !res.body) {
        let json: ChunkJson;
        try {
          json = (await res.json()) as ChunkJson;
        } catch (err) {
          yield failed(interrupted(err));
          return;
        }
        yield* this.fromWhole(json, acc, req.model);
        return;
      }
      yield* this.fromStream(res.body, acc, req.model, arm, interrupted);
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  private *fromWhole(json: ChunkJson, acc: MessageAccumulator, model: string): Generator<StreamEvent> {
    if (json.error) {
      yield { type: 'error', error: classifyHttpError(200, JSON.stringify(json)), partial: acc.message() };
      return;
    }
    const choice = json.choices?.[0];
    const msg = choice?.message ?? choice?.delta;
    if (msg?.reasoning_content) {
      acc.addReasoning(msg.reasoning_content);
      yield { type: 'thinking_delta', text: msg.reasoning_content };
    }
    if (msg?.content) {
      acc.addContent(msg.content);
      yield { type: 'text_delta', text: msg.content };
    }
    for (const [i, tc] of (msg?.tool_calls ?? []).entries()) acc.addToolCall(tc, i);
    yield* this.finish(choice?.finish_reason ?? 'stop', acc, parseUsage(json.usage), json.model ?? model);
  }

  private *finish(
    reason: string,
    acc: MessageAccumulator,
    usage: Usage,
    model: string,
  ): Generator<StreamEvent> {
    const finishReason = mapFinish(reason);
    const partial = acc.message();
    if (finishReason === 'sensitive') {
      yield {
        type: 'error',
        error: { kind: 'content_filter', code: 'sensitive', message: 'content filter', retryable: false },
        partial,
        usage,
      };
    } else if (finishReason === 'network_error') {
      yield {
        type: 'error',
        error: {
          kind: 'network',
          code: 'network_error',
          message: 'the model stopped with network_error',
          retryable: true,
        },
        partial,
        usage,
      };
    } else if (finishReason === 'model_context_window_exceeded') {
      yield {
        type: 'error',
        error: {
          kind: 'context_overflow',
          code: finishReason,
          message: 'context window exceeded',
          retryable: false,
        },
        partial,
        usage,
      };
    } else {
      yield { type: 'done', message: partial, finishReason, usage, model };
    }
  }

  private async *fromStream(
    body: ReadableStream<Uint8Array>,
    acc: MessageAccumulator,
    model: string,
    arm: () => void,
    interrupted: (err: unknown) => ApiErrorInfo,
  ): AsyncGenerator<StreamEvent> {
    const pending: StreamEvent[] = [];
    let finishReason: string | undefined;
    let usage: Usage | undefined;
    let serverModel = model;
    let sawDone = false;
    let inStreamError: ApiErrorInfo | undefined;
    let toolPosition = 0;

    const parser = createParser({
      onEvent: (event) => {
        if (sawDone || inStreamError) return;
        const data = event.data.trim();
        if (data === '[DONE]') {
          sawDone = true;
          return;
        }
        let json: ChunkJson;
        try {
          json = JSON.parse(data) as ChunkJson;
        } catch {
          log().warn('skipping malformed SSE frame', { data: data.slice(0, 200) });
          return;
        }
        if (json.error) {
          inStreamError = classifyHttpError(200, JSON.stringify(json));
          return;
        }
        if (json.model) serverModel = json.model;
        if (json.usage) usage = parseUsage(json.usage);
        const choice = json.choices?.[0];
        const delta = choice?.delta;
        if (delta?.reasoning_content) {
          acc.addReasoning(delta.reasoning_content);
          pending.push({ type: 'thinking_delta', text: delta.reasoning_content });
        }
        if (delta?.content) {
          acc.addContent(delta.content);
          pending.push({ type: 'text_delta', text: delta.content });
        }
        for (const tc of delta?.tool_calls ?? []) {
          const { started } = acc.addToolCall(tc, toolPosition++);
          if (started) {
            pending.push({
              type: 'tool_call_start',
              index: typeof tc.index === 'number' ? tc.index : toolPosition - 1,
              id: started.id,
              name: started.function.name,
            });
          }
        }
        if (choice?.finish_reason) finishReason = choice.finish_reason;
      },
    });

    const reader = body.getReader();
    const decoder = new TextDecoder('utf-8');
    try {
      while (!sawDone && !inStreamError) {
        let chunk: { done: boolean; value?: Uint8Array };
        try {
          chunk = await reader.read();
        } catch (err) {
          yield* pending.splice(0);
          const error = interrupted(err);
          // A drop after the answer began is not "could not connect": say it was cut.
          if (error.kind === 'network') error.code = 'stream_cut';
          yield { type: 'error', error, partial: acc.message(), ...(usage ? { usage } : {}) };
          return;
        }
        if (chunk.done) break;
        arm();
        // stream: true keeps a multi-byte character split across reads until its last byte comes.
        parser.feed(decoder.decode(chunk.value, { stream: true }));
        yield* pending.splice(0);
      }
      parser.feed(decoder.decode());
      parser.feed('\n\n');
      yield* pending.splice(0);
    } finally {
      reader.cancel().catch(() => {});
    }

    if (inStreamError) {
      yield { type: 'error', error: inStreamError, partial: acc.message(), ...(usage ? { usage } : {}) };
      return;
    }
    if (!finishReason) {
      yield {
        type: 'error',
        error: { ...networkError('the stream ended before the answer was complete'), code: 'stream_cut' },
        partial: acc.message(),
        ...(usage ? { usage } : {}),
      };
      return;
    }
    yield* this.finish(finishReason, acc, usage ?? { ...ZERO_USAGE }, serverModel);
  }
}

/** Outgoing messages: reasoning is only sent back for the turn in progress (preserved thinking). */
function wireMessage(m: Message): Message {
  if (m.role !== 'assistant') return m;
  const out: Record<string, unknown> = { role: 'assistant', content: m.content ?? '' };
  if (m.reasoning_content) out.reasoning_content = m.reasoning_content;
  if (m.tool_calls?.length) out.tool_calls = m.tool_calls;
  return out as unknown as Message;
}

function describeNetworkError(err: Error): string {
  const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `${cause.code}${cause.message ? `: ${cause.message}` : ''}`;
  return err.message;
}
