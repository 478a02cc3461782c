/**
 * GLM-OCR layout parsing (reference §7.1): `POST {base}/layout_parsing`, JSON body with model
 * `glm-ocr` and the file as a `data:<mime>;base64,…` URI. Synchronous: one request, one answer
 * (the official SDK waits up to 300 s). Uses the chat client's key, base URL, fetch and retry
 * policy; failures come back as data (an ApiErrorInfo), like the chat stream's.
 */
import type { ZhipuClient } from './client.js';
import { abortedError, backoffDelay, classifyHttpError, timeoutError } from './errors.js';
import { proxyInUse } from './http.js';
import { fetchFailure } from './network.js';
import type { ApiErrorInfo, Usage } from './types.js';
import { parseUsage } from './usage-parse.js';

export const OCR_MODEL = 'glm-ocr';
export const OCR_TIMEOUT_MS = 300_000;

export interface LayoutRequest {
  /** A data URI (`data:application/pdf;base64,…`) or an http(s) URL. */
  file: string;
  /** 1-based page range of a PDF. */
  startPage?: number;
  endPage?: number;
  signal?: AbortSignal;
  timeoutMs?: number;
  onRetry?(ev: { attempt: number; maxRetries: number; delayMs: number; error: ApiErrorInfo }): void;
}

export interface LayoutResult {
  markdown: string;
  pages: number;
  usage: Usage;
  model: string;
}

export type LayoutOutcome = { ok: true; result: LayoutResult } | { ok: false; error: ApiErrorInfo };

interface LayoutJson {
  error?: unknown;
  model?: string;
  md_results?: string | string[];
  layout_details?: unknown[];
  data_info?: { num_pages?: number; pages?: unknown[] };
  usage?: Parameters<typeof parseUsage>[0];
}

export async function layoutParsing(client: ZhipuClient, req: LayoutRequest): Promise<LayoutOutcome> {
  const s = client.settings;
  for (let attempt = 0; ; attempt++) {
    const outcome = await once(client, req);
    if (outcome.ok) return outcome;
    const canRetry = outcome.error.retryable && attempt < s.maxRetries && !req.signal?.aborted;
    if (!canRetry) return outcome;
    const delayMs = backoffDelay(attempt, { baseMs: s.retryBaseMs, capMs: s.retryCapMs }, s.random);
    req.onRetry?.({ attempt: attempt + 1, maxRetries: s.maxRetries, delayMs, error: outcome.error });
    await s.sleep(delayMs, req.signal);
    if (req.signal?.aborted) return { ok: false, error: abortedError() };
  }
}

async function once(client: ZhipuClient, req: LayoutRequest): Promise<LayoutOutcome> {
  const s = client.settings;
  const timeoutMs = req.timeoutMs ?? OCR_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
  const body: Record<string, unknown> = {
    model: OCR_MODEL,
    file: req.file,
    return_crop_images: false,
    need_layout_visualization: false,
  };
  if (req.startPage) body.start_page_id = req.startPage;
  if (req.endPage) body.end_page_id = req.endPage;
  const failed = (err: unknown): LayoutOutcome => {
    if (req.signal?.aborted) return { ok: false, error: abortedError() };
    if (timeout.aborted) return { ok: false, error: timeoutError(Math.round(timeoutMs / 1000)) };
    return { ok: false, error: fetchFailure(err, s.baseUrl, proxyInUse()) };
  };
  let res: Response;
  try {
    res = await s.fetch(`${s.baseUrl}/layout_parsing`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${s.apiKey}`,
        'Content-Type': 'application/json; charset=UTF-8',
        Accept: 'application/json',
        'Accept-Language': s.acceptLanguage,
        'User-Agent': s.userAgent,
      },
      body: JSON.stringify(body),
      signal,
    });
  } catch (err) {
    return failed(err);
  }
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    return failed(err);
  }
  if (!res.ok) return { ok: false, error: classifyHttpError(res.status, text) };
  let json: LayoutJson;
  try {
    json = JSON.parse(text) as LayoutJson;
  } catch {
    return {
      ok: false,
      error: {
        kind: 'server',
        status: res.status,
        message: `the OCR answer is not JSON: ${text.slice(0, 200)}`,
        retryable: true,
      },
    };
  }
  if (json.error) return { ok: false, error: classifyHttpError(200, text) };
  const md = Array.isArray(json.md_results) ? json.md_results.join('\n\n') : (json.md_results ?? '');
  const pages =
    json.data_info?.num_pages ?? json.data_info?.pages?.length ?? json.layout_details?.length ?? 1;
  return { ok: true, result: { markdown: md, pages, usage: parseUsage(json.usage), model: OCR_MODEL } };
}
