/**
 * GLM-OCR layout parsing (reference §7.1): `POST {base}/layout_parsing`, JSON body with model
 * `glm-ocr` and the file as a `data:<mime>;base64,…` URI. Synchronous: one request, one answer
 * (the official SDK waits up to 300 s). Uses the chat client's key, base URL, fetch and retry
 * policy; failures come back as data (an ApiErrorInfo), like the chat stream's.
 */
import { classifyHttpError } from './errors.js';
import type { Outcome, RetryNotice } from './platform-http.js';
import type { PlatformClient, Usage } from './types.js';
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
  onRetry?(ev: RetryNotice): void;
}

export interface LayoutResult {
  markdown: string;
  pages: number;
  usage: Usage;
  model: string;
}

export type LayoutOutcome = Outcome<LayoutResult>;

interface LayoutJson {
  error?: unknown;
  model?: string;
  md_results?: string | string[];
  layout_details?: unknown[];
  data_info?: { num_pages?: number; pages?: unknown[] };
  usage?: Parameters<typeof parseUsage>[0];
}

export async function layoutParsing(client: PlatformClient, req: LayoutRequest): Promise<LayoutOutcome> {
  const body: Record<string, unknown> = {
    model: OCR_MODEL,
    file: req.file,
    return_crop_images: false,
    need_layout_visualization: false,
  };
  if (req.startPage) body.start_page_id = req.startPage;
  if (req.endPage) body.end_page_id = req.endPage;
  const answer = await client.http.json<LayoutJson>({
    path: '/layout_parsing',
    json: body,
    timeoutMs: req.timeoutMs ?? OCR_TIMEOUT_MS,
    ...(req.signal ? { signal: req.signal } : {}),
    ...(req.onRetry ? { onRetry: req.onRetry } : {}),
  });
  if (!answer.ok) return answer;
  const json = answer.value;
  if (json.error) return { ok: false, error: classifyHttpError(200, JSON.stringify(json)) };
  const md = Array.isArray(json.md_results) ? json.md_results.join('\n\n') : (json.md_results ?? '');
  const pages =
    json.data_info?.num_pages ?? json.data_info?.pages?.length ?? json.layout_details?.length ?? 1;
  return { ok: true, value: { markdown: md, pages, usage: parseUsage(json.usage), model: OCR_MODEL } };
}
