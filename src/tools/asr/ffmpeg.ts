/**
 * ffmpeg, when installed, turns the audio formats zhi cannot cut itself (m4a/AAC, Ogg, Opus,
 * FLAC, AMR, WMA, video sound tracks…) into 16 kHz mono WAV — what speech recognition needs —
 * in a private temporary folder that is removed afterwards.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MessageKey } from '../../support/i18n/index.js';
import { findProgram } from '../find-program.js';

const TIMEOUT_MS = 600_000;

/** The ffmpeg program, or undefined. `ZHI_FFMPEG` names it, or `off` to do without. */
export function findFfmpeg(): string | undefined {
  return findProgram({
    env: 'ZHI_FFMPEG',
    names: process.platform === 'win32' ? ['ffmpeg.exe'] : ['ffmpeg'],
    places: {
      darwin: ['/opt/homebrew/bin/ffmpeg', '/usr/local/bin/ffmpeg'],
      win32: ['C:\\ffmpeg\\bin\\ffmpeg.exe'],
    },
  });
}

/** How to install ffmpeg here (Windows, macOS or Linux words), for an error or `zhi doctor`. */
export function ffmpegAdvice(): MessageKey {
  if (process.platform === 'win32') return 'asr.try.ffmpegWindows';
  return process.platform === 'darwin' ? 'asr.try.ffmpegMac' : 'asr.try.ffmpegLinux';
}

/** A converted recording in a temporary folder of its own, removed by `dispose`. */
export interface ConvertedAudio {
  path: string;
  dispose(): Promise<void>;
}

/**
 * The audio of `abs` as a 16 kHz mono 16-bit WAV file (an hour is about 115 MB: it stays on disk
 * and is read a piece at a time). Throws with ffmpeg's last line on failure.
 */
export async function toWavFile(ffmpeg: string, abs: string, signal?: AbortSignal): Promise<ConvertedAudio> {
  const dir = await mkdtemp(join(tmpdir(), 'zhi-audio-'));
  const out = join(dir, 'audio.wav');
  const dispose = () => rm(dir, { recursive: true, force: true }).catch(() => {});
  try {
    await new Promise<void>((resolve, reject) => {
      execFile(
        ffmpeg,
        [
          '-hide_banner',
          '-nostdin',
          '-loglevel',
          'error',
          '-i',
          abs,
          '-vn',
          '-ac',
          '1',
          '-ar',
          '16000',
          '-c:a',
          'pcm_s16le',
          '-f',
          'wav',
          out,
        ],
        {
          timeout: TIMEOUT_MS,
          killSignal: 'SIGKILL',
          windowsHide: true,
          maxBuffer: 1024 * 1024,
          ...(signal ? { signal } : {}),
        },
        (err, _stdout, stderr) =>
          err ? reject(new Error(stderr.trim().split('\n').pop() || err.message)) : resolve(),
      );
    });
    return { path: out, dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}
