/**
 * Transcribe one audio file with GLM-ASR: prepare it (measure, cut into pieces within the API's
 * limits), say what it will cost and let the caller decide (a person's yes, --yes or --auto),
 * then send the pieces in order, each with the end of the transcript so far as context.
 */
import { extname } from 'node:path';
import { ASR_MODEL, asrPricePerMinute, transcribe } from '../../llm/asr.js';
import type { Cost } from '../../llm/models.js';
import type { Platform } from '../../llm/platforms.js';
import type { ApiErrorInfo, PlatformClient } from '../../llm/types.js';
import { ZhiError } from '../../support/errors.js';
import { reasonForPerson, ToolError } from '../types.js';
import { AudioError, type PreparedAudio, prepareAudio } from './audio.js';
import { ffmpegAdvice } from './ffmpeg.js';

export interface AudioEstimate {
  file: string;
  seconds: number;
  pieces: number;
  /** The price, or undefined where zhi does not know this platform's price. */
  cost: Cost | undefined;
}

export interface TranscribeFileOptions {
  display: string;
  /** Whose price applies. */
  platform: Platform;
  signal?: AbortSignal;
  /** Asked once the duration is known, before anything is sent: may zhi go ahead? */
  consent(estimate: AudioEstimate): Promise<boolean>;
  onPiece?(index: number, total: number): void;
  onRetry?(attempt: number, max: number): void;
}

export interface Transcript {
  text: string;
  seconds: number;
  model: string;
  cost: Cost | undefined;
}

/** Declined: nothing was sent. */
export class DeclinedError extends ToolError {}

export function estimateAudio(platform: Platform, file: string, audio: PreparedAudio): AudioEstimate {
  const perMinute = asrPricePerMinute(platform);
  const cost: Cost | undefined =
    perMinute === undefined
      ? undefined
      : {
          amount: (audio.seconds / 60) * perMinute,
          currency: platform.currency,
          covered: platform.coveredByPlan,
        };
  return { file, seconds: audio.seconds, pieces: audio.pieces.length, cost };
}

export async function transcribeFile(
  client: PlatformClient,
  abs: string,
  o: TranscribeFileOptions,
): Promise<Transcript> {
  const audio = await prepareAudio(abs, o.display, o.signal);
  try {
    return await sendPieces(client, audio, o);
  } finally {
    await audio.dispose();
  }
}

async function sendPieces(
  client: PlatformClient,
  audio: PreparedAudio,
  o: TranscribeFileOptions,
): Promise<Transcript> {
  const estimate = estimateAudio(o.platform, o.display, audio);
  if (!(await o.consent(estimate)))
    throw new DeclinedError(
      `The user declined transcribing "${o.display}" (a paid service); nothing was sent.`,
    );
  const texts: string[] = [];
  for (const [i, piece] of audio.pieces.entries()) {
    o.onPiece?.(i + 1, audio.pieces.length);
    if (o.signal?.aborted) throw new ToolError('Interrupted.');
    const got = await transcribe(client, {
      bytes: await piece.read(),
      filename: piece.name,
      mime: piece.mime,
      ...(texts.length ? { prompt: texts.join('\n') } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
      onRetry: (ev) => o.onRetry?.(ev.attempt, ev.maxRetries),
    });
    if (!got.ok) throw new ToolError(describeFailure(o.display, i + 1, audio.pieces.length, got.error));
    texts.push(got.value.trim());
  }
  return {
    text: texts.filter(Boolean).join('\n'),
    seconds: audio.seconds,
    model: ASR_MODEL,
    cost: estimate.cost,
  };
}

const AUDIO_WHY = {
  empty: 'asr.why.silent',
  unreadable: 'asr.why.unreadable',
  too_long: 'asr.why.tooLong',
  needs_ffmpeg: 'asr.why.needsFfmpegShort',
} as const;

/**
 * A transcription's failure in the person's words (declined, no ffmpeg, silent or unreadable, or
 * what the service said): the ToolError's own text is written for a model.
 */
export function transcribeFailure(err: ToolError, name: string): ZhiError {
  const declined = err instanceof DeclinedError;
  return new ZhiError({
    kind: declined ? 'budget' : 'io',
    what: { key: declined ? 'asr.err.declined' : 'asr.err.failed', params: { path: name } },
    ...(err instanceof AudioError && err.code === 'needs_ffmpeg'
      ? {
          why: { key: 'asr.why.needsFfmpeg', params: { ext: extname(name).slice(1) } },
          tries: [{ key: ffmpegAdvice() }],
        }
      : declined
        ? {}
        : err instanceof AudioError
          ? { why: { key: AUDIO_WHY[err.code] } }
          : { why: reasonForPerson(err) }),
    cause: err,
  });
}

function describeFailure(name: string, piece: number, total: number, error: ApiErrorInfo): string {
  if (error.kind === 'aborted') return 'Interrupted.';
  const where = total > 1 ? ` (part ${piece} of ${total})` : '';
  const code = error.code ? ` ${error.code}` : '';
  const base = `Transcribing "${name}"${where} failed (${error.kind}${code}): ${error.message}.`;
  switch (error.kind) {
    case 'auth':
      return `${base} The API key was not accepted; fix it with \`zhi config set api_key …\` or \`zhi --setup\`.`;
    case 'balance':
      return `${base} The account has no balance or quota left for speech recognition.`;
    case 'rate_limit':
    case 'overloaded':
      return `${base} The service is busy; try again in a minute.`;
    default:
      return base;
  }
}

/** `2:05` or `1:02:05`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(1, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
