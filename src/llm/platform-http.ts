/**
 * The one way zhi talks to the platform: every authenticated request (chat, OCR, batch, files,
 * web search, the model list, speech) goes through `PlatformHttp`. It adds the key and the
 * headers, goes through the proxy when one is configured, retries what the reference marks
 * retryable with backoff, and turns every failure into data (`ApiErrorInfo`) that
 * `describeApiError` can explain — so a new endpoint gets retries and clear errors for free.
 */
import { MAX_ANSWER_BODY, MAX_ERROR_BODY, readTextCapped, tooLargeFailure } from './body.js';
import { abortedError, backoffDelay, classifyHttpError, timeoutError } from './errors.js';
import { apiFetch, type FetchLike, proxyInUse } from './http.js';
import { fetchFailure } from './network.js';
import type { Outcome, PlatformRequest, PlatformRequests } from './types.js';

export type { Outcome, PlatformRequest, RetryNotice } from './types.js';

export interface PlatformHttpOptions {
  baseUrl: string;
  apiKey: string;
  fetch?: FetchLike;
  maxRetries?: number;
  retryBaseMs?: number;
  retryCapMs?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  userAgent?: string;
  acceptLanguage?: string;
}

/**
 * A multipart form (an upload) as a raw body: encoded once, so a retry sends the same bytes
 * under the same boundary.
 */
export async function multipartBody(form: FormData): Promise<{ body: Uint8Array; contentType: string }> {
  const encoded = new Request('http://zhi.invalid/', { method: 'POST', body: form });
  return {
    body: new Uint8Array(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type') ?? 'multipart/form-data',
  };
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

type Resolved = Required<Omit<PlatformHttpOptions, 'fetch'>> & { fetch: FetchLike };

export class PlatformHttp implements PlatformRequests {
  readonly options: Readonly<Resolved>;

  constructor(opts: PlatformHttpOptions) {
    this.options = {
      fetch: opts.fetch ?? apiFetch,
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
    return this.options.baseUrl;
  }

  /**
   * Open a connection to the API now, so the person's next request does not wait for the TCP and
   * TLS handshakes (Claude Code and qwen-code do the same): an OPTIONS of the API's base address,
   * with no key. Not a HEAD: Node's fetch closes the connection after one. The short answer is
   * read to its end, which leaves the connection open for the next request. Resolves false when
   * it failed (offline, a proxy refusing): the request then connects as it would have.
   */
  async preconnect(): Promise<boolean> {
    // A timer of its own, cleared once answered: AbortSignal.timeout would still fire 5 s later,
    // waking zhi (perhaps in the middle of the person's message) to abort nothing.
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), 5000);
    timer.unref();
    try {
      const res = await this.options.fetch(`${this.options.baseUrl}/`, {
        method: 'OPTIONS',
        headers: { 'User-Agent': this.options.userAgent },
        signal: stop.signal,
      });
      const size = Number(res.headers.get('content-length') ?? Number.NaN);
      if (size <= 64 * 1024) await res.arrayBuffer();
      else await res.body?.cancel();
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The delay before retry number `attempt + 1`, by the client's backoff policy. */
  backoff(attempt: number): number {
    const o = this.options;
    return backoffDelay(attempt, { baseMs: o.retryBaseMs, capMs: o.retryCapMs }, o.random);
  }

  /**
   * One attempt: the response when the server answered with a 2xx status, else why not. The
   * caller reads the body (a stream is read as it arrives).
   */
  async send(req: PlatformRequest): Promise<Outcome<Response>> {
    const o = this.options;
    const timeout = req.timeoutMs ? AbortSignal.timeout(req.timeoutMs) : undefined;
    const signals = [req.signal, timeout].filter((s): s is AbortSignal => Boolean(s));
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    const failed = (err: unknown): Outcome<Response> => {
      if (req.signal?.aborted) return { ok: false, error: abortedError() };
      if (timeout?.aborted)
        return { ok: false, error: timeoutError(Math.round((req.timeoutMs ?? 0) / 1000)) };
      return { ok: false, error: fetchFailure(err, o.baseUrl, proxyInUse()) };
    };
    let res: Response;
    try {
      res = await o.fetch(`${o.baseUrl}${req.path}`, {
        method: req.method ?? (req.json !== undefined || req.body !== undefined ? 'POST' : 'GET'),
        headers: this.headers(req),
        ...(req.json !== undefined ? { body: JSON.stringify(req.json) } : {}),
        ...(req.body !== undefined ? { body: req.body } : {}),
        ...(signal ? { signal } : {}),
      });
    } catch (err) {
      return failed(err);
    }
    if (res.ok) return { ok: true, value: res };
    const text = await readTextCapped(res, MAX_ERROR_BODY, { truncate: true }).catch(() => '');
    const error = classifyHttpError(res.status, text);
    if (error.code === 'wrong_base_url') error.url = o.baseUrl;
    return { ok: false, error };
  }

  /** The body as text, retried while the failure is retryable. */
  async text(req: PlatformRequest): Promise<Outcome<string>> {
    return this.retrying(req, () => this.once(req));
  }

  /** The body as JSON; an answer that is not JSON is a (retryable) server failure. */
  async json<T>(req: PlatformRequest): Promise<Outcome<T>> {
    return this.retrying(req, async () => {
      const got = await this.once(req);
      if (!got.ok) return got;
      try {
        return { ok: true, value: JSON.parse(got.value) as T };
      } catch {
        const message = `the answer is not JSON: ${got.value.slice(0, 200)}`;
        return { ok: false, error: { kind: 'server', status: 200, message, retryable: true } };
      }
    });
  }

  private async once(req: PlatformRequest): Promise<Outcome<string>> {
    const sent = await this.send(req);
    if (!sent.ok) return sent;
    try {
      return { ok: true, value: await readTextCapped(sent.value, MAX_ANSWER_BODY) };
    } catch (err) {
      return { ok: false, error: tooLargeFailure(err) ?? fetchFailure(err, this.baseUrl, proxyInUse()) };
    }
  }

  private headers(req: PlatformRequest): Record<string, string> {
    const o = this.options;
    const contentType =
      req.contentType ?? (req.json !== undefined ? 'application/json; charset=UTF-8' : undefined);
    return {
      Authorization: `Bearer ${o.apiKey}`,
      Accept: req.accept ?? 'application/json',
      'Accept-Language': o.acceptLanguage,
      'User-Agent': o.userAgent,
      ...(contentType ? { 'Content-Type': contentType } : {}),
    };
  }

  /** Run `attempt` until it succeeds, fails for good, runs out of retries or is stopped. */
  private async retrying<T>(req: PlatformRequest, attempt: () => Promise<Outcome<T>>): Promise<Outcome<T>> {
    const o = this.options;
    for (let n = 0; ; n++) {
      const outcome = await attempt();
      if (outcome.ok) return outcome;
      const canRetry =
        req.retry !== false && outcome.error.retryable && n < o.maxRetries && !req.signal?.aborted;
      if (!canRetry) return outcome;
      const delayMs = this.backoff(n);
      req.onRetry?.({ attempt: n + 1, maxRetries: o.maxRetries, delayMs, error: outcome.error });
      await o.sleep(delayMs, req.signal);
      if (req.signal?.aborted) return { ok: false, error: abortedError() };
    }
  }
}
