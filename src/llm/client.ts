import { log } from '../support/log.js';
import { MessageAccumulator } from './accumulate.js';
import { MAX_ANSWER_BODY, readTextCapped, tooLargeFailure } from './body.js';
import { LearnedCapabilities } from './capabilities.js';
import { abortedError, networkError, timeoutError } from './errors.js';
import { proxyInUse } from './http.js';
import { effortFor, type ModelInfo, modelInfo } from './models.js';
import { fetchFailure } from './network.js';
import { PlatformHttp, type PlatformHttpOptions } from './platform-http.js';
import { type ChunkJson, readStream, readWhole, type StreamLimits } from './response.js';
import type { ApiErrorInfo, ChatRequest, Message, PlatformClient, StreamEvent, Usage } from './types.js';

export interface ClientOptions extends PlatformHttpOptions {
  /** Abort a stream that sends no bytes for this long. Not a total timeout. */
  idleTimeoutMs?: number;
  /** Stop an answer longer than this many characters (content, reasoning, tool arguments). */
  maxAnswerChars?: number;
  /** Stop an answer still streaming after this long. */
  maxAnswerMs?: number;
  /** What was learned about models outside the registry (made at start; empty when left out). */
  capabilities?: LearnedCapabilities;
  /** The platform's way of naming models on the wire (`PLATFORMS[…].modelPrefix`). */
  modelPrefix?: string | undefined;
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
export class ZhipuClient implements PlatformClient {
  /** Every request to the platform goes through this (OCR, batch, search, models, speech too). */
  readonly http: PlatformHttp;
  private readonly idleTimeoutMs: number;
  private readonly limits: StreamLimits;
  private readonly capabilities: LearnedCapabilities;
  private readonly modelPrefix: string;
  /** Models outside the registry already warned about (once per client). */
  private readonly warnedUnknown = new Set<string>();

  constructor(opts: ClientOptions) {
    this.http = new PlatformHttp(opts);
    this.idleTimeoutMs = opts.idleTimeoutMs ?? 90_000;
    // Well above any model's output (131,072 tokens at most, a few characters each) and any
    // answer's time at the API's speed: only a model that never stops reaches them.
    this.limits = { maxChars: opts.maxAnswerChars ?? 2_000_000, maxMs: opts.maxAnswerMs ?? 60 * 60_000 };
    this.capabilities = opts.capabilities ?? new LearnedCapabilities();
    this.modelPrefix = opts.modelPrefix ?? '';
  }

  get baseUrl(): string {
    return this.http.baseUrl;
  }

  modelInfo(id: string): ModelInfo {
    return modelInfo(id, this.capabilities.of(id));
  }

  /** Build the wire body for a chat request (exported for tests and request-size benchmarks). */
  body(req: ChatRequest, stream: boolean): Record<string, unknown> {
    const info = this.modelInfo(req.model);
    const thinking = Boolean(info.thinkingForced || (info.thinking && req.thinking));
    const prefixed = req.model.startsWith(this.modelPrefix) ? req.model : this.modelPrefix + req.model;
    const body: Record<string, unknown> = {
      model: prefixed,
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
    const info = this.modelInfo(req.model);
    if (info.thinkingForced || !info.thinking) return false;
    await this.capabilities.learn(req.model, { thinkingForced: true });
    return true;
  }

  async *stream(req: ChatRequest): AsyncGenerator<StreamEvent> {
    const { maxRetries, sleep } = this.http.options;
    let relearned = false;
    const model = req.model.toLowerCase();
    if (this.modelInfo(model).unknown && !this.warnedUnknown.has(model)) {
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
      const delayMs = this.http.backoff(attempt);
      log().warn('retrying chat request', { attempt: attempt + 1, delayMs, error: failure.error });
      yield { type: 'retry', attempt: attempt + 1, maxRetries, delayMs, error: failure.error };
      await sleep(delayMs, req.signal);
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
      }, this.idleTimeoutMs);
    };
    const failed = (error: ApiErrorInfo, usage?: Usage): StreamEvent => ({
      type: 'error',
      error,
      partial: acc.message(),
      ...(usage ? { usage } : {}),
    });
    const interrupted = (err: unknown): ApiErrorInfo => {
      if (req.signal?.aborted) return abortedError();
      if (timedOut) return timeoutError(Math.round(this.idleTimeoutMs / 1000));
      return fetchFailure(err, this.baseUrl, proxyInUse());
    };

    arm();
    try {
      const sent = await this.http.send({
        path: '/chat/completions',
        json: this.body(req, stream),
        accept: stream ? 'text/event-stream' : 'application/json',
        signal,
      });
      if (!sent.ok) {
        // Only this attempt knows about its idle timer and the caller's own signal.
        if (timedOut) yield failed(timeoutError(Math.round(this.idleTimeoutMs / 1000)));
        else yield failed(req.signal?.aborted ? abortedError() : sent.error);
        return;
      }
      const res = sent.value;
      arm();
      const contentType = res.headers.get('content-type') ?? '';
      if (!stream || !contentType.includes('text/event-stream') || !res.body) {
        let json: ChunkJson;
        try {
          json = JSON.parse(await readTextCapped(res, MAX_ANSWER_BODY)) as ChunkJson;
        } catch (err) {
          yield failed(tooLargeFailure(err) ?? interrupted(err));
          return;
        }
        yield* readWhole(json, acc, req.model);
        return;
      }
      yield* readStream(res.body, acc, req.model, arm, interrupted, this.limits);
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
