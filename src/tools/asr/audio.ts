/**
 * An audio file made ready for GLM-ASR, which takes WAV or MP3 of at most 30 seconds and 25 MB
 * per request: WAV and MP3 are measured and cut here from their headers (no decoding, no native
 * code); any other format is first converted to WAV by ffmpeg when it is installed, and refused
 * with "install ffmpeg" when it is not.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { ASR_LIMITS } from '../../llm/asr.js';
import { ToolError } from '../types.js';
import { findFfmpeg, toWav } from './ffmpeg.js';
import { mp3Frames, splitMp3 } from './mp3.js';
import { parseWav, splitWav } from './wav.js';

/** Audio (and video) extensions zhi offers to transcribe. */
export const AUDIO_EXT = [
  'wav',
  'mp3',
  'm4a',
  'aac',
  'amr',
  'ogg',
  'oga',
  'opus',
  'flac',
  'wma',
  'webm',
  'mp4',
  'mov',
  '3gp',
];

export function isAudioPath(path: string): boolean {
  return AUDIO_EXT.includes(extname(path).slice(1).toLowerCase());
}

/** The pieces zhi sends: each a WAV or MP3 within the API's limits. */
export interface PreparedAudio {
  seconds: number;
  pieces: { bytes: Buffer; seconds: number; name: string; mime: string }[];
  /** How it was read: natively, or converted by ffmpeg. */
  via: 'native' | 'ffmpeg';
}

/** Why an audio file cannot be prepared, with a code the person's message is chosen by. */
export class AudioError extends ToolError {
  constructor(
    message: string,
    readonly code: 'needs_ffmpeg' | 'unreadable' | 'empty',
  ) {
    super(message);
  }
}

export const PIECE_SECONDS = ASR_LIMITS.seconds - 2; // a margin under the limit for rounding on their side
const PIECE_BYTES = ASR_LIMITS.bytes - 1024 * 1024;

export async function prepareAudio(abs: string, name: string, signal?: AbortSignal): Promise<PreparedAudio> {
  const info = await stat(abs);
  if (!info.isFile() || info.size === 0)
    throw new AudioError(`"${name}" is empty; there is nothing to transcribe.`, 'empty');
  const data = await readFile(abs);
  refuseSilence(data, name);
  const native = cutNative(data);
  if (native) return { ...native, via: 'native' };
  const ffmpeg = findFfmpeg();
  if (!ffmpeg) {
    throw new AudioError(
      `"${name}" is ${extname(name).slice(1).toUpperCase() || 'an audio format'} audio; zhi reads WAV and MP3 itself and needs ffmpeg for other formats. Ask the user to install ffmpeg or convert the file to MP3 or WAV.`,
      'needs_ffmpeg',
    );
  }
  let wav: Buffer;
  try {
    wav = await toWav(ffmpeg, abs, signal);
  } catch (err) {
    throw new AudioError(`ffmpeg could not read "${name}": ${(err as Error).message}`, 'unreadable');
  }
  const converted = cutNative(wav);
  if (!converted) throw new AudioError(`"${name}" has no sound track ffmpeg could read.`, 'unreadable');
  return { ...converted, via: 'ffmpeg' };
}

/**
 * A WAV with no samples, or only digital silence (16-bit PCM within ±8 of zero, 8-bit at its
 * midpoint), has nothing to transcribe: said plainly and nothing paid, not "needs ffmpeg".
 */
function refuseSilence(data: Buffer, name: string): void {
  const wav = parseWav(data);
  if (!wav) return;
  const format = wav.fmt.readUInt16LE(0);
  const bits = wav.fmt.readUInt16LE(14);
  const samples = data.subarray(wav.dataStart, wav.dataStart + wav.dataLength);
  let silent = samples.length < wav.blockAlign;
  if (!silent && format === 1 && bits === 16) {
    silent = true;
    for (let i = 0; i + 1 < samples.length && silent; i += 2) silent = Math.abs(samples.readInt16LE(i)) <= 8;
  } else if (!silent && format === 1 && bits === 8) silent = samples.every((b) => Math.abs(b - 128) <= 1);
  if (silent)
    throw new AudioError(
      `"${name}" holds no sound (it is silent or has no samples); there is nothing to transcribe.`,
      'empty',
    );
}

function cutNative(data: Buffer): Omit<PreparedAudio, 'via'> | undefined {
  const wav = parseWav(data);
  if (wav) {
    const pieces = splitWav(data, wav, PIECE_SECONDS, PIECE_BYTES).map((bytes, i) => ({
      bytes,
      seconds: (bytes.length - 28 - wav.fmt.length) / wav.byteRate,
      name: `part${i + 1}.wav`,
      mime: 'audio/wav',
    }));
    return wav.dataLength ? { seconds: wav.seconds, pieces } : undefined;
  }
  const frames = mp3Frames(data);
  if (frames.length < 2) return undefined;
  const pieces = splitMp3(data, frames, PIECE_SECONDS, PIECE_BYTES);
  let at = 0;
  const withTimes = pieces.map((bytes, i) => {
    const n = countFrames(frames, at, bytes.length);
    const seconds = frames.slice(at, at + n).reduce((s, f) => s + f.seconds, 0);
    at += n;
    return { bytes, seconds, name: `part${i + 1}.mp3`, mime: 'audio/mpeg' };
  });
  return { seconds: frames.reduce((s, f) => s + f.seconds, 0), pieces: withTimes };
}

/** How many frames from `first` make up `bytes` bytes. */
function countFrames(frames: { length: number }[], first: number, bytes: number): number {
  let n = 0;
  for (let sum = 0; first + n < frames.length && sum < bytes; n++) sum += frames[first + n]!.length;
  return n;
}
