/**
 * GLM-ASR speech to text: `POST {base}/audio/transcriptions`, multipart/form-data with `model`
 * (glm-asr-2512), `file` (.wav or .mp3, at most 30 s and 25 MB), `stream` false, and `prompt`
 * (earlier transcript as context, under 8000 characters). The answer is
 * `{id, created, request_id, model, text}`. Sources: the official SDK (zai-org/z-ai-sdk-python,
 * api_resource/audio/transcriptions.py) and the API reference (docs.bigmodel.cn 语音转文本,
 * docs.z.ai audio-transcriptions). Price: 0.06 CNY per minute (docs.bigmodel.cn GLM-ASR).
 */
import { classifyHttpError } from './errors.js';
import { multipartBody, type Outcome, type RetryNotice } from './platform-http.js';
import type { Platform } from './platforms.js';
import type { PlatformClient } from './types.js';

export const ASR_MODEL = 'glm-asr-2512';
export const ASR_LIMITS = { seconds: 30, bytes: 25 * 1024 * 1024, promptChars: 8000 };
const ASR_TIMEOUT_MS = 120_000;

/** Price per minute of audio on this platform; undefined where zhi does not know it. */
export function asrPricePerMinute(platform: Platform): number | undefined {
  if (platform.coveredByPlan) return 0;
  return platform.pricing === 'bigmodel' ? 0.06 : undefined;
}

export interface TranscribeRequest {
  bytes: Uint8Array;
  /** The piece's file name (its extension tells the service the format). */
  filename: string;
  mime: string;
  /** What was said before, as context (the API's `prompt`). */
  prompt?: string;
  signal?: AbortSignal;
  onRetry?(ev: RetryNotice): void;
}

interface TranscriptionJson {
  error?: unknown;
  text?: string;
  model?: string;
}

export async function transcribe(client: PlatformClient, req: TranscribeRequest): Promise<Outcome<string>> {
  const form = new FormData();
  form.append('model', ASR_MODEL);
  form.append('stream', 'false');
  if (req.prompt) form.append('prompt', req.prompt.slice(-ASR_LIMITS.promptChars));
  form.append('file', new Blob([req.bytes], { type: req.mime }), req.filename);
  const answer = await client.http.json<TranscriptionJson>({
    path: '/audio/transcriptions',
    ...(await multipartBody(form)),
    timeoutMs: ASR_TIMEOUT_MS,
    ...(req.signal ? { signal: req.signal } : {}),
    ...(req.onRetry ? { onRetry: req.onRetry } : {}),
  });
  if (!answer.ok) return answer;
  if (answer.value.error) return { ok: false, error: classifyHttpError(200, JSON.stringify(answer.value)) };
  return { ok: true, value: answer.value.text ?? '' };
}
