import type { ApiErrorInfo, ApiErrorKind } from './types.js';

/** Business codes that are worth retrying with backoff (reference §5.2 recommended policy). */
const RETRY_CODES = new Set(['1302', '1303', '1305', '1234', '1230', '1120']);
const RETRY_STATUS = new Set([500, 502, 503, 504]);

/**
 * Classify an HTTP error response. The business code decides first (1113 comes as a 429 but is a
 * balance problem, not a rate limit); the status decides when there is no code we know.
 */
export function classifyHttpError(status: number, body: string): ApiErrorInfo {
  if (status === 404 && isSpringNotFound(body)) {
    // Not the API answering "no such model": no API at this address at all.
    return {
      kind: 'bad_request',
      status,
      code: 'wrong_base_url',
      message: 'HTTP 404 Not Found',
      retryable: false,
    };
  }
  const { code, message } = parseErrorBody(body);
  const kind = kindFor(status, code);
  const resetAt = code === '1308' || code === '1310' ? resetTime(message) : undefined;
  const retryable = code
    ? RETRY_CODES.has(code) || (code === '500' && status >= 500)
    : RETRY_STATUS.has(status);
  return {
    kind,
    status,
    ...(code ? { code } : {}),
    message: message || `HTTP ${status}`,
    retryable,
    ...(resetAt ? { resetAt } : {}),
  };
}

/** A Spring-style `{"timestamp","status":404,"error":"Not Found","path"}` body (reference §1.1). */
function isSpringNotFound(body: string): boolean {
  try {
    const json = JSON.parse(body) as { error?: unknown; path?: unknown; status?: unknown };
    return typeof json.path === 'string' && json.error === 'Not Found';
  } catch {
    return false;
  }
}

/** "Your limit will reset at 2026-11-23 16:00:00" → "2026-11-23 16:00:00". */
function resetTime(message: string | undefined): string | undefined {
  return message?.match(/\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2})?/)?.[0];
}

function kindFor(status: number, code: string | undefined): ApiErrorKind {
  switch (code) {
    case '1000':
    case '1001':
    case '1002':
    case '1003':
    case '1004':
    case '401':
      return 'auth';
    case '1113':
    case '1309':
      return 'balance';
    case '1110':
    case '1111':
    case '1112':
    case '1121':
      return 'auth';
    case '1302':
    case '1303':
    case '1304':
    case '1308':
    case '1310':
      return 'rate_limit';
    case '1305':
      return 'overloaded';
    case '1261':
      return 'context_overflow';
    case '1301':
    case '1300':
      return 'content_filter';
  }
  if (code && /^12\d\d$/.test(code)) return 'bad_request';
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate_limit';
  if (status >= 500) return 'server';
  return 'bad_request';
}

function parseErrorBody(body: string): { code?: string; message?: string } {
  try {
    const json = JSON.parse(body) as { error?: { code?: unknown; message?: unknown }; message?: unknown };
    const err = json.error;
    if (err && typeof err === 'object') {
      const code = err.code === undefined || err.code === null ? undefined : String(err.code);
      const message = typeof err.message === 'string' ? err.message : undefined;
      return { ...(code ? { code } : {}), ...(message ? { message } : {}) };
    }
    if (typeof json.message === 'string') return { message: json.message };
  } catch {
    // not JSON: fall through
  }
  const text = body.trim().slice(0, 300);
  return text ? { message: text } : {};
}

export function networkError(message: string): ApiErrorInfo {
  return { kind: 'network', message, retryable: true };
}

export function timeoutError(seconds: number): ApiErrorInfo {
  return { kind: 'timeout', message: `no data for ${seconds}s`, retryable: true };
}

export function abortedError(): ApiErrorInfo {
  return { kind: 'aborted', message: 'aborted', retryable: false };
}

/** Exponential backoff with full jitter: base × 2^attempt, capped, then a random share of it. */
export function backoffDelay(
  attempt: number,
  opts: { baseMs: number; capMs: number },
  random = Math.random,
): number {
  const ceiling = Math.min(opts.capMs, opts.baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
