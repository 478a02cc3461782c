/**
 * Zhipu's file parser, synchronous (reference §7.2): `POST {base}/files/parser/sync`,
 * multipart/form-data with `file`, `tool_type=prime-sync` and `file_type` (WPS, DOC, XLS, PPT,
 * …); it answers `{status, message, task_id, content}`. Billed per parsed page: 0.12 CNY
 * (docs.bigmodel.cn file-parser-sync). zhi uses it only for files nothing on this computer can
 * read, and only after the person agreed to the price.
 */
import { classifyHttpError } from './errors.js';
import { multipartBody, type Outcome } from './platform-http.js';
import type { Platform } from './platforms.js';
import type { PlatformClient } from './types.js';

export const PARSER_MODEL = 'file-parser-prime-sync';
const PARSER_TIMEOUT_MS = 300_000;

/** The file types the parser takes, by zhi's extension (WPS's .et/.dps are their Office twins). */
export const PARSER_TYPES: Record<string, string> = {
  '.doc': 'DOC',
  '.dot': 'DOC',
  '.wps': 'WPS',
  '.wpt': 'WPS',
  '.xls': 'XLS',
  '.xlt': 'XLS',
  '.et': 'XLS',
  '.ett': 'XLS',
  '.ppt': 'PPT',
  '.pps': 'PPT',
  '.pot': 'PPT',
  '.dps': 'PPT',
  '.dpt': 'PPT',
};

/** Price per parsed page on this platform; undefined where zhi does not know it. */
export function parserPricePerPage(platform: Platform): number | undefined {
  if (platform.coveredByPlan) return 0;
  return platform.pricing === 'bigmodel' ? 0.12 : undefined;
}

interface ParserJson {
  error?: unknown;
  status?: string;
  message?: string;
  content?: string;
}

export async function parseFileSync(
  client: PlatformClient,
  req: { bytes: Uint8Array; filename: string; fileType: string; signal?: AbortSignal },
): Promise<Outcome<string>> {
  const form = new FormData();
  form.append('file', new Blob([req.bytes]), req.filename);
  form.append('tool_type', 'prime-sync');
  form.append('file_type', req.fileType);
  const answer = await client.http.json<ParserJson>({
    path: '/files/parser/sync',
    ...(await multipartBody(form)),
    timeoutMs: PARSER_TIMEOUT_MS,
    ...(req.signal ? { signal: req.signal } : {}),
  });
  if (!answer.ok) return answer;
  const json = answer.value;
  if (json.error) return { ok: false, error: classifyHttpError(200, JSON.stringify(json)) };
  if (json.status && json.status !== 'succeeded') {
    const message = `the parser answered "${json.status}"${json.message ? `: ${json.message}` : ''}`;
    return { ok: false, error: { kind: 'server', status: 200, message, retryable: false } };
  }
  return { ok: true, value: json.content ?? '' };
}
