import { log } from '../support/log.js';
import { MessageAccumulator } from './accumulate.js';
import { abortedError, backoffDelay, classifyHttpError, networkError, timeoutError } from './errors.js';
import { apiFetch, type FetchLike, proxyInUse } from './http.js';
import { effortFor, learnCapability, modelInfo } from './models.js';
import { fetchFailure } from './network.js';
import { type ChunkJson, readStream, readWhole } from './response.js';
import type { ApiErrorInfo, ChatRequest, LlmClient, Message, StreamEvent, Usage } from './types.js';

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
  /** Told when a model turns out to always think (to keep it in the capability cache). */
  onLearn?: (model: string, caps: { thinkingForced: boolean }) => void | Promise<void>;
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
  private readonly opts: Required<Omit<ClientOptions, 'fetch' | 'onLearn'>> & { fetch: FetchLike };
  private readonly onLearn: ClientOptions['onLearn'];
  /** Models outside the registry already warned about (once per client). */
  private readonly warnedUnknown = new Set<string>();

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
    this.onLearn = opts.onLearn;
  }

  get baseUrl(): string {
    return this.opts.baseUrl;
  }

  /** Key, base URL, fetch and retry policy, shared with the other endpoints (OCR: ocr.ts). */
  get settings(): Readonly<Required<Omit<ClientOptions, 'fetch' | 'onLearn'>> & { fetch: FetchLike }> {
    return this.opts;
  }

  /** Build the wire body for a chat request (exported for tests and request-size benchmarks). */
  body(req: ChatRequest, stream: boolean): Record<string, unknown> {
    const info = modelInfo(req.model);
    const thinking = Boolean(info.thinkingForced || (info.thinking && req.thinking));
    const body: Record<string, unknown> = {
      model: req.model,
      messages: req.messages.map(wireMessage),
      stream,
      request_id: req.requestId ?? newRequestId(),
    };
    // A model zhi does not know gets no thinking parameter unless it is being turned off: the
    // platform's default is right for it, and a 1210 reply teaches us when "off" is refused.
    if (!(info.unknown && thinking && !info.thinkingForced)) {
      body.thinking = { type: thinking ? 'enabled' : 'disabled' };
    }
    const effort = thinking ? effortFor(info, req.effort) : undefined;
    if (effort) body.reasoning_effort = effort;
    if (req.tools?.length) {
      body.tools = req.tools;
      body.tool_choice = 'auto';
      if (stream && info.toolStream) body.tool_stream = true;
    }
    // Always explicit: some GLM-4 models stop at 1,024 tokens when max_tokens is left out.
    const maxTokens = req.maxTokens ?? (info.maxOutput || undefined);
    if (maxTokens) body.max_tokens = Math.min(maxTokens, 131_072);
    if (req.temperature !== undefined) body.temperature = req.temperature;
    return body;
  }

  /**
   * A 1210 (bad parameters) on a request that turned thinking off, for a model not known to
   * always think: the model refuses "off". Remember that and ask again once, thinking on.
   */
  private async refusesThinkingOff(req: ChatRequest, error: ApiErrorInfo): Promise<boolean> {
    if (error.code !== '1210' || req.thinking) return false;
    const info = modelInfo(req.model);
    if (info.thinkingForced || !info.thinking) return false;
    learnCapability(req.model, { thinkingForced: true });
    await this.onLearn?.(req.model, { thinkingForced: true });
    return true;
  }

  async *stream(req: ChatRequest): AsyncGenerator<StreamEvent> {
    const { maxRetries } = this.opts;
    let relearned = false;
    const model = req.model.toLowerCase();
    if (modelInfo(model).unknown && !this.warnedUnknown.has(model)) {
      this.warnedUnknown.add(model);
      yield { type: 'warning', code: 'unknown_model', model: req.model };
    }
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
      if (!relearned && !acc.hasOutput() && (await this.refusesThinkingOff(req, failure.error))) {
        relearned = true;
        attempt -= 1;
        yield { type: 'warning', code: 'thinking_forced', model: req.model };
        continue;
      }
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
      return fetchFailure(err, this.opts.baseUrl, proxyInUse());
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
        const error = classifyHttpError(res.status, text);
        if (error.code === 'wrong_base_url') error.url = this.opts.baseUrl;
        yield failed(error);
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
        yield* readWhole(json, acc, req.model);
        return;
      }
      yield* readStream(res.body, acc, req.model, arm, interrupted);
    } finally {
      if (timer) clearTimeout(timer);
    }
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
