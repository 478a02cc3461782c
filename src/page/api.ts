// The page's one way to the server: JSON requests on the same origin (the cookie zhi set when
// the page was opened authenticates them; the browser adds the Origin header the server checks).
import type { ErrorBody } from './types.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.message);
  }

  /** What to try, as lines (the server's `advice`, or a run error's `suggestions`). */
  get advice(): string[] {
    return adviceOf(this.body);
  }
}

export function adviceOf(body: Partial<ErrorBody>): string[] {
  const lines = [...(body.suggestions ?? [])];
  for (const line of body.advice?.split('\n') ?? []) if (line) lines.push(line);
  return lines;
}

async function request<T>(method: string, path: string, body?: unknown, headers?: HeadersInit): Promise<T> {
  const init: RequestInit = { method, headers: { Accept: 'application/json', ...headers } };
  if (body instanceof Blob) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { ...init.headers, 'Content-Type': 'application/json' };
  }
  let res: Response;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, { code: 'offline', message: '' });
  }
  const text = await res.text();
  const json: unknown = text ? safeJson(text) : undefined;
  if (!res.ok) {
    const error = (json as { error?: ErrorBody } | undefined)?.error;
    throw new ApiError(res.status, error ?? { code: String(res.status), message: res.statusText });
  }
  return json as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, body),
  del: <T>(path: string) => request<T>('DELETE', path),
  upload: <T>(file: Blob, name: string, folder?: string) =>
    request<T>('POST', '/api/uploads', file, {
      'X-File-Name': encodeURIComponent(name),
      'Content-Type': 'application/octet-stream',
      ...(folder ? { 'X-Upload-Folder': encodeURIComponent(folder) } : {}),
    }),
};

/** A path segment or query value, encoded. */
export const enc = encodeURIComponent;
