/**
 * Reading an HTTP body with a cap: a server that sends without end (a JSON answer, an error page,
 * a download) stops at `maxBytes` instead of growing zhi's memory until it dies.
 */
import type { ApiErrorInfo } from './types.js';

export class BodyTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the answer passed ${Math.round(maxBytes / 1024 / 1024)} MB`);
  }
}

/** The body's bytes; over `maxBytes` it throws BodyTooLarge, or with `truncate` keeps the start. */
export async function readBytesCapped(
  res: Response,
  maxBytes: number,
  o: { truncate?: boolean } = {},
): Promise<Uint8Array> {
  if (!res.body) return new Uint8Array(0);
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = maxBytes - size;
      if (value.length > room) {
        if (!o.truncate) throw new BodyTooLarge(maxBytes);
        parts.push(value.subarray(0, room));
        size = maxBytes;
        break;
      }
      parts.push(value);
      size += value.length;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The body as UTF-8 text, capped as readBytesCapped. */
export async function readTextCapped(
  res: Response,
  maxBytes: number,
  o: { truncate?: boolean } = {},
): Promise<string> {
  return new TextDecoder('utf-8').decode(await readBytesCapped(res, maxBytes, o));
}

/** A whole JSON answer of the chat API, or a platform's text result (OCR, file parser). */
export const MAX_ANSWER_BODY = 64 * 1024 * 1024;
/** An error page is read for its reason only. */
export const MAX_ERROR_BODY = 256 * 1024;

/** BodyTooLarge as the client's failure (the same words as an answer that never ends). */
export function tooLargeFailure(err: unknown): ApiErrorInfo | undefined {
  if (!(err instanceof BodyTooLarge)) return undefined;
  return { kind: 'server', code: 'answer_too_long', message: err.message, retryable: false };
}
