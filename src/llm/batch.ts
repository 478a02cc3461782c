/**
 * The Batch API (BigModel docs, "批处理 API" and "文件 API"): upload a JSONL file of chat requests
 * with purpose `batch` (`POST /files`, multipart), create a job on it (`POST /batches` with
 * `input_file_id`, `endpoint: "/v4/chat/completions"`), poll it (`GET /batches/{id}`; statuses
 * validating → in_progress → finalizing → completed, or failed / expired / cancelling /
 * cancelled), then read `output_file_id` and `error_file_id` (`GET /files/{id}/content`). Each
 * input line is `{"custom_id", "method": "POST", "url": "/v4/chat/completions", "body"}`; each
 * output line carries the same `custom_id` and `response: {status_code, body}`. BigModel
 * announces about half the price (GLM-4-Flash stays free) and results within 24 hours.
 */
import { randomBytes } from 'node:crypto';
import { ZhiError } from '../support/errors.js';
import { type MessageKey, t } from '../support/i18n/index.js';
import { describeApiError } from './describe.js';
import type { Platform } from './platforms.js';
import type { ChunkJson } from './response.js';
import type { PlatformRequest, PlatformRequests } from './types.js';

export const BATCH_ENDPOINT = '/v4/chat/completions';
/** The platform's limits for one input file. */
export const BATCH_MAX_REQUESTS = 50_000;
export const BATCH_MAX_BYTES = 100 * 1024 * 1024;
/** Statuses after which a job changes no more. */
export const FINAL_STATUSES = new Set(['completed', 'failed', 'expired', 'cancelled']);

export interface BatchJob {
  id: string;
  status: string;
  input_file_id?: string;
  output_file_id?: string | null;
  error_file_id?: string | null;
  created_at?: number;
  completed_at?: number | null;
  /** Sometimes an object, sometimes absent with the counts at the top level (both are documented). */
  request_counts?: { total?: number; completed?: number; failed?: number } | number | null;
  total?: number;
  completed?: number;
  failed?: number;
  metadata?: Record<string, string> | null;
  /** Why a job failed validation (OpenAI's shape: a list object, or a bare array). */
  errors?: { data?: BatchJobError[] } | BatchJobError[] | null;
}

export interface BatchJobError {
  code?: string;
  message?: string;
  line?: number | null;
}

/** The API's own words on why a job failed, or undefined when it gave none. */
export function jobErrorText(job: BatchJob): string | undefined {
  const list = Array.isArray(job.errors) ? job.errors : (job.errors?.data ?? []);
  const said = list
    .filter((e) => typeof e?.message === 'string' && e.message)
    .slice(0, 3)
    .map((e) => `${e.message}${e.code ? ` (${e.code})` : ''}`);
  return said.length ? said.join('; ') : undefined;
}

/** One result line: the chat completion body, or why that request failed. */
export type BatchResult = { ok: true; body: ChunkJson } | { ok: false; error: string };

/** A job's counts, wherever the platform put them. */
export function jobCounts(job: BatchJob): { total: number; completed: number; failed: number } {
  const rc = typeof job.request_counts === 'object' && job.request_counts ? job.request_counts : {};
  return {
    total: rc.total ?? job.total ?? 0,
    completed: rc.completed ?? job.completed ?? 0,
    failed: rc.failed ?? job.failed ?? 0,
  };
}

/** One line of the input file. */
export function batchLine(customId: string, body: Record<string, unknown>): string {
  const { stream: _stream, ...rest } = body;
  return JSON.stringify({ custom_id: customId, method: 'POST', url: BATCH_ENDPOINT, body: rest });
}

/** The output and error files, read into one map by custom_id (a damaged line is skipped). */
export function parseResults(...files: string[]): Map<string, BatchResult> {
  const out = new Map<string, BatchResult>();
  for (const text of files) {
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      let row: {
        custom_id?: string;
        response?: { status_code?: number; body?: ChunkJson & { error?: { message?: string } } };
        error?: { message?: string; code?: string } | null;
      };
      try {
        row = JSON.parse(line);
      } catch {
        continue;
      }
      if (!row.custom_id) continue;
      const status = row.response?.status_code ?? 0;
      const body = row.response?.body;
      if (status === 200 && body?.choices?.length) out.set(row.custom_id, { ok: true, body });
      else {
        const why = row.error?.message ?? body?.error?.message ?? `HTTP ${status || '?'}`;
        out.set(row.custom_id, { ok: false, error: String(why) });
      }
    }
  }
  return out;
}

/** A multipart boundary for one upload. */
export function uploadBoundary(): string {
  return `zhi${randomBytes(12).toString('hex')}`;
}

/** What comes before the JSONL lines in an upload (purpose `batch`, then the file part). */
export function multipartHead(boundary: string, filename: string): string {
  return (
    `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbatch\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
    'Content-Type: application/jsonl\r\n\r\n'
  );
}

export function multipartTail(boundary: string): string {
  return `\r\n--${boundary}--\r\n`;
}

export class BatchApi {
  constructor(
    private readonly http: PlatformRequests,
    private readonly platform: Platform,
  ) {}

  /**
   * A request to the API, retried like any platform request while the failure is retryable
   * (reading a job or a file is safe to repeat; so is an upload, which only creates a file); a
   * failure becomes the same ZhiError a chat call would give.
   */
  private async call(req: PlatformRequest): Promise<string> {
    const answer = await this.http.text(req);
    if (answer.ok) return answer.value;
    const e = answer.error;
    // A job or file this key does not have: said as such (not the chat's "check the model name").
    const what = /^\/(batches|files)\/([^/?]+)/.exec(req.path);
    if (what && (e.status === 404 || (e.status === 400 && e.code === '1214')))
      throw new ZhiError({
        kind: 'usage',
        what: {
          key: what[1] === 'batches' ? 'batch.err.noJob' : 'batch.err.noFile',
          params: { id: decodeURIComponent(what[2]!) },
        },
        tries: [{ key: 'batch.cmd.tryList' }],
      });
    throw describeApiError(e, this.platform);
  }

  private async json<T>(req: PlatformRequest): Promise<T> {
    const text = await this.call(req);
    try {
      return JSON.parse(text) as T;
    } catch {
      const message = `the answer is not JSON: ${text.slice(0, 200)}`;
      throw describeApiError({ kind: 'server', status: 200, message, retryable: false }, this.platform);
    }
  }

  /** Upload the JSONL input (multipart, purpose `batch`). */
  async upload(jsonl: string, filename: string, signal?: AbortSignal): Promise<{ id: string }> {
    const boundary = uploadBoundary();
    const body = Buffer.concat([
      Buffer.from(multipartHead(boundary, filename)),
      Buffer.from(jsonl, 'utf8'),
      Buffer.from(multipartTail(boundary)),
    ]);
    return this.uploadPrepared(body, boundary, signal);
  }

  /** Upload a multipart body already framed with multipartHead / multipartTail (kept on disk until now). */
  uploadPrepared(body: Uint8Array, boundary: string, signal?: AbortSignal): Promise<{ id: string }> {
    return this.json({
      path: '/files',
      method: 'POST',
      contentType: `multipart/form-data; boundary=${boundary}`,
      body,
      ...(signal ? { signal } : {}),
    });
  }

  create(inputFileId: string, metadata: Record<string, string>, signal?: AbortSignal): Promise<BatchJob> {
    return this.json({
      path: '/batches',
      json: { input_file_id: inputFileId, endpoint: BATCH_ENDPOINT, auto_delete_input_file: true, metadata },
      // Creating a job twice would pay twice: a failed create is reported, not repeated.
      retry: false,
      ...(signal ? { signal } : {}),
    });
  }

  get(id: string, signal?: AbortSignal): Promise<BatchJob> {
    return this.json({ path: `/batches/${encodeURIComponent(id)}`, ...(signal ? { signal } : {}) });
  }

  async list(limit = 20): Promise<BatchJob[]> {
    const page = await this.json<{ data?: BatchJob[] }>({ path: `/batches?limit=${limit}` });
    return page.data ?? [];
  }

  cancel(id: string): Promise<BatchJob> {
    return this.json({ path: `/batches/${encodeURIComponent(id)}/cancel`, method: 'POST' });
  }

  /** The text of an output or error file. */
  async content(fileId: string, signal?: AbortSignal): Promise<string> {
    return this.call({ path: `/files/${encodeURIComponent(fileId)}/content`, ...(signal ? { signal } : {}) });
  }

  /** Both result files of a finished job, read by custom_id. */
  async results(job: BatchJob, signal?: AbortSignal): Promise<Map<string, BatchResult>> {
    const files = await Promise.all(
      [job.output_file_id, job.error_file_id]
        .filter((f): f is string => Boolean(f))
        .map((f) => this.content(f, signal)),
    );
    return parseResults(...files);
  }
}

/** The statuses the Batch API reports, said in the person's language. */
const STATUS_KEYS: Record<string, MessageKey> = {
  validating: 'batch.status.validating',
  in_progress: 'batch.status.in_progress',
  finalizing: 'batch.status.finalizing',
  completed: 'batch.status.completed',
  failed: 'batch.status.failed',
  expired: 'batch.status.expired',
  cancelling: 'batch.status.cancelling',
  cancelled: 'batch.status.cancelled',
};

/** A job's status for the person (`in_progress` → "in progress" / 处理中); an unknown one as it is. */
export function batchStatusText(status: string): string {
  const key = STATUS_KEYS[status];
  return key ? t(key) : status;
}
