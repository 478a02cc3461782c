/**
 * The server's answers: the security headers every response carries, JSON and errors in the
 * person's language (already redacted), and request bodies read with a cap — counted as they
 * stream in, never buffered past the cap, whatever Content-Length says.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ErrorKind, toZhiError, ZhiError, type ZhiErrorInit } from '../../support/errors.js';
import { getLanguage } from '../../support/i18n/index.js';
import { redact, redactDeep } from '../../support/redact.js';
import { errorJson } from '../render/error.js';

export const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of every response (no Access-Control-* header, ever: no other origin may read). */
export function securityHeaders(res: ServerResponse): void {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

/** An error with the HTTP status it is answered with. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly error: ZhiError,
  ) {
    super(error.message);
  }
}

export function httpError(
  status: number,
  init: Omit<ZhiErrorInit, 'kind'> & { kind?: ErrorKind },
): HttpError {
  return new HttpError(status, new ZhiError({ kind: 'usage', ...init }));
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(redactDeep(body));
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** `{error:{code, message, advice, suggestions}}`, in the person's language. */
export function errorBody(err: ZhiError): {
  error: { code: string; message: string; advice: string; suggestions: string[] };
} {
  const { error } = errorJson(err);
  // What happened and why, as one text: a Chinese pair needs no space between its sentences.
  const why = err.whyText();
  const message = why ? redact(`${err.whatText()}${getLanguage() === 'zh' ? '' : ' '}${why}`) : error.message;
  return { error: { ...error, message, advice: error.suggestions.join('\n') } };
}

export function sendError(res: ServerResponse, err: unknown): void {
  if (err instanceof HttpError) {
    // The body may be left unread (a refused upload): the connection ends with the answer.
    if (err.status >= 400 && err.status !== 404 && !res.headersSent) res.setHeader('Connection', 'close');
    sendJson(res, err.status, errorBody(err.error));
    return;
  }
  const zerr = toZhiError(err);
  const status = zerr.kind === 'internal' ? 500 : 400;
  sendJson(res, status, errorBody(zerr));
}

/** A size as people read it (`1 MB`, `100 MB`). */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / (1024 * 1024))} MB`;
  return `${Math.round(bytes / 1024)} KB`;
}

export function tooLarge(limit: number): HttpError {
  return httpError(413, {
    what: { key: 'web.err.tooLarge', params: { limit: sizeText(limit) } },
    tries: [{ key: 'web.err.tooLargeTry' }],
  });
}

/**
 * The body's chunks as they arrive, stopped at `limit` bytes: a declared Content-Length over the
 * limit is refused before a byte is read, and a body that grows past it is cut off then.
 */
export async function* cappedBody(req: IncomingMessage, limit: number): AsyncGenerator<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  let seen = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    seen += chunk.length;
    if (seen > limit) throw tooLarge(limit);
    yield chunk;
  }
}

/** JSON bodies of the API are small: 1 MB. */
export const JSON_LIMIT = 1024 * 1024;

/** The request's JSON object (an empty body is `{}`). */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const parts: Buffer[] = [];
  for await (const chunk of cappedBody(req, JSON_LIMIT)) parts.push(chunk);
  const text = Buffer.concat(parts).toString('utf8').trim();
  if (!text) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw httpError(400, { what: { key: 'web.err.badJson', params: { detail: (err as Error).message } } });
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw httpError(400, { what: { key: 'web.err.badJson', params: { detail: 'not an object' } } });
  return value as Record<string, unknown>;
}

/** A string field of a JSON body, or undefined. */
export function str(body: Record<string, unknown>, name: string): string | undefined {
  const v = body[name];
  return typeof v === 'string' ? v : undefined;
}

export function notFound(): HttpError {
  return httpError(404, { what: { key: 'web.err.notFound' } });
}

/** Before anything that calls the API: the page's words for a missing key (do the set-up). */
export function needKey(config: { apiKey?: string | undefined }): void {
  if (config.apiKey) return;
  throw httpError(400, {
    kind: 'config',
    what: { key: 'web.err.noKey' },
    tries: [{ key: 'web.err.noKeyTry' }],
  });
}
