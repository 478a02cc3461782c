/**
 * An audio file made ready for GLM-ASR, which takes WAV or MP3 of at most 30 seconds and 25 MB
 * per request: WAV and MP3 are measured and cut here from their headers (no decoding, no native
 * code); any other format is first converted to WAV by ffmpeg when it is installed, and refused
 * with "install ffmpeg" when it is not.
 */
import { open, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { ASR_LIMITS } from '../../llm/asr.js';
import { ToolError } from '../types.js';
import { type ConvertedAudio, findFfmpeg, toWavFile } from './ffmpeg.js';
import { type Mp3Frame, mp3FramesOfFile, mp3Runs } from './mp3.js';
import { buildWav, parseWav, type WavInfo, wavStep } from './wav.js';

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

/** One request's audio: a WAV or MP3 within the API's limits, read from the file when it is sent. */
export interface AudioPiece {
  seconds: number;
  name: string;
  mime: string;
  read(): Promise<Buffer>;
}

/**
 * The pieces zhi sends. Only their places in the file are kept, so a long recording is never held
 * in memory whole (an hour of WAV is 115–635 MB): each piece is read when it is sent.
 */
export interface PreparedAudio {
  seconds: number;
  pieces: AudioPiece[];
  /** How it was read: natively, or converted by ffmpeg. */
  via: 'native' | 'ffmpeg';
  /** Remove what preparing made (ffmpeg's converted copy). */
  dispose(): Promise<void>;
}

/** Why an audio file cannot be prepared, with a code the person's message is chosen by. */
export class AudioError extends ToolError {
  constructor(
    message: string,
    readonly code: 'needs_ffmpeg' | 'unreadable' | 'empty' | 'too_long',
  ) {
    super(message);
  }
}

export const PIECE_SECONDS = ASR_LIMITS.seconds - 2; // a margin under the limit for rounding on their side
const PIECE_BYTES = ASR_LIMITS.bytes - 1024 * 1024;
/**
 * The longest recording one transcription takes: 4 hours, about 520 requests sent one after
 * another (each carries the end of the transcript so far). Longer ones are refused before anything
 * is sent, with the advice to cut them.
 */
export const MAX_AUDIO_SECONDS = 4 * 3600;
/** A WAV's header (with any chunks before its samples) is looked for in this much of its start. */
const HEAD_BYTES = 1024 * 1024;

export async function prepareAudio(abs: string, name: string, signal?: AbortSignal): Promise<PreparedAudio> {
  const info = await stat(abs);
  if (!info.isFile() || info.size === 0)
    throw new AudioError(`"${name}" is empty; there is nothing to transcribe.`, 'empty');
  const native = await cutNative(abs, info.size, name);
  if (native) return { ...native, via: 'native', dispose: async () => {} };
  const ffmpeg = findFfmpeg();
  if (!ffmpeg) {
    throw new AudioError(
      `"${name}" is ${extname(name).slice(1).toUpperCase() || 'an audio format'} audio; zhi reads WAV and MP3 itself and needs ffmpeg for other formats. Ask the user to install ffmpeg or convert the file to MP3 or WAV.`,
      'needs_ffmpeg',
    );
  }
  let wav: ConvertedAudio;
  try {
    wav = await toWavFile(ffmpeg, abs, signal);
  } catch (err) {
    throw new AudioError(`ffmpeg could not read "${name}": ${(err as Error).message}`, 'unreadable');
  }
  try {
    const converted = await cutNative(wav.path, (await stat(wav.path)).size, name);
    if (!converted) throw new AudioError(`"${name}" has no sound track ffmpeg could read.`, 'unreadable');
    return { ...converted, via: 'ffmpeg', dispose: wav.dispose };
  } catch (err) {
    await wav.dispose();
    throw err;
  }
}

/** `length` bytes of the file from `at` (fewer at its end). */
async function readRange(path: string, at: number, length: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buf, 0, length, at);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function cutNative(
  path: string,
  size: number,
  name: string,
): Promise<Omit<PreparedAudio, 'via' | 'dispose'> | undefined> {
  const head = await readRange(path, 0, Math.min(size, HEAD_BYTES));
  const wav = parseWav(head, size);
  if (wav) {
    refuseTooLong(wav.seconds, name);
    await refuseSilence(path, wav, name);
    return { seconds: wav.seconds, pieces: wavPieces(path, wav) };
  }
  const frames = await mp3FramesOfFile((at, length) => readRange(path, at, length), size);
  if (frames.length < 2) return undefined;
  const seconds = frames.reduce((s, f) => s + f.seconds, 0);
  refuseTooLong(seconds, name);
  return { seconds, pieces: mp3Pieces(path, frames) };
}

function refuseTooLong(seconds: number, name: string): void {
  if (seconds > MAX_AUDIO_SECONDS)
    throw new AudioError(
      `"${name}" is ${Math.round(seconds / 60)} minutes long; zhi transcribes at most ${MAX_AUDIO_SECONDS / 3600} hours at a time. Ask the user to cut it into shorter recordings.`,
      'too_long',
    );
}

/** WAV pieces at sample boundaries, each a complete WAV with the file's own format chunk. */
function wavPieces(path: string, wav: WavInfo): AudioPiece[] {
  const step = wavStep(wav, PIECE_SECONDS, PIECE_BYTES);
  const pieces: AudioPiece[] = [];
  for (let at = 0, i = 1; at < wav.dataLength; at += step, i++) {
    const length = Math.min(step, wav.dataLength - at);
    const from = wav.dataStart + at;
    pieces.push({
      seconds: length / wav.byteRate,
      name: `part${i}.wav`,
      mime: 'audio/wav',
      read: async () => buildWav(wav.fmt, await readRange(path, from, length)),
    });
  }
  return pieces;
}

/** MP3 pieces of whole frames (junk between frames left out), each a valid MP3 on its own. */
function mp3Pieces(path: string, frames: Mp3Frame[]): AudioPiece[] {
  return mp3Runs(frames, PIECE_SECONDS, PIECE_BYTES).map(([first, end], i) => {
    const run = frames.slice(first, end);
    const from = run[0]!.offset;
    const last = run[run.length - 1]!;
    return {
      seconds: run.reduce((s, f) => s + f.seconds, 0),
      name: `part${i + 1}.mp3`,
      mime: 'audio/mpeg',
      read: async () => {
        const bytes = await readRange(path, from, last.offset + last.length - from);
        return Buffer.concat(run.map((f) => bytes.subarray(f.offset - from, f.offset - from + f.length)));
      },
    };
  });
}

/**
 * A WAV with no samples, or only digital silence (16-bit PCM within ±8 of zero, 8-bit at its
 * midpoint), has nothing to transcribe: said plainly and nothing paid, not "needs ffmpeg". The
 * samples are read a megabyte at a time and the first sound ends the check.
 */
async function refuseSilence(path: string, wav: WavInfo, name: string): Promise<void> {
  const format = wav.fmt.readUInt16LE(0);
  const bits = wav.fmt.readUInt16LE(14);
  let silent = wav.dataLength < wav.blockAlign;
  if (!silent && format === 1 && (bits === 16 || bits === 8)) {
    silent = true;
    const chunk = 1024 * 1024;
    for (let at = 0; at < wav.dataLength && silent; at += chunk) {
      const samples = await readRange(path, wav.dataStart + at, Math.min(chunk, wav.dataLength - at));
      silent = bits === 16 ? quiet16(samples) : samples.every((b) => Math.abs(b - 128) <= 1);
    }
  }
  if (silent)
    throw new AudioError(
      `"${name}" holds no sound (it is silent or has no samples); there is nothing to transcribe.`,
      'empty',
    );
}

function quiet16(samples: Buffer): boolean {
  for (let i = 0; i + 1 < samples.length; i += 2) if (Math.abs(samples.readInt16LE(i)) > 8) return false;
  return true;
}
