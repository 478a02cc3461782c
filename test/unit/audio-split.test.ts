import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_AUDIO_SECONDS, prepareAudio } from '../../src/tools/asr/audio.js';
import { frameAt, mp3Frames, mp3FramesOfFile, splitMp3 } from '../../src/tools/asr/mp3.js';
import { formatDuration } from '../../src/tools/asr/transcribe.js';
import { parseWav, splitWav } from '../../src/tools/asr/wav.js';
import { makeWav } from '../helpers/media.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

/** MPEG-1 layer III, 128 kbit/s, 44.1 kHz, no padding: 417 bytes and 1152 samples a frame. */
function mp3(frames: number, id3 = true): Buffer {
  const frame = Buffer.alloc(417, 0x55);
  frame.set([0xff, 0xfb, 0x90, 0x00]);
  const tag = Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 20, ...Buffer.alloc(20, 0xff)]);
  return Buffer.concat([...(id3 ? [tag] : []), ...Array.from({ length: frames }, () => frame)]);
}

describe('WAV', () => {
  it('reads the duration from the header and cuts whole samples into complete WAVs', () => {
    const wav = makeWav(70, 8000, 2);
    const info = parseWav(wav)!;
    expect(info.seconds).toBeCloseTo(70, 5);
    const pieces = splitWav(wav, info, 28, 25 * 1024 * 1024);
    expect(pieces).toHaveLength(3);
    const back = pieces.map((p) => parseWav(p)!);
    expect(back.map((b) => b.seconds)).toEqual([28, 28, 14]);
    for (const b of back) expect(b.dataLength % 4).toBe(0); // stereo 16-bit frames stay whole
    // The samples are the original ones, in order.
    const joined = Buffer.concat(pieces.map((p, i) => p.subarray(back[i]!.dataStart)));
    expect(joined.equals(wav.subarray(44))).toBe(true);
  });

  it('a recorder stopped early (data size 0) is read to the end; not a WAV is undefined', () => {
    const wav = makeWav(3);
    wav.writeUInt32LE(0, 40);
    expect(parseWav(wav)!.seconds).toBeCloseTo(3, 5);
    expect(parseWav(Buffer.from('ID3 not a wav'))).toBeUndefined();
  });

  it('a piece also stays under the byte limit', () => {
    const wav = makeWav(10, 8000);
    const pieces = splitWav(wav, parseWav(wav)!, 28, 64 * 1024);
    expect(pieces.length).toBeGreaterThan(2);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(64 * 1024);
  });
});

describe('MP3', () => {
  it('reads frame headers after an ID3 tag and sums their durations', () => {
    const f = frameAt(mp3(1, false), 0)!;
    expect(f.length).toBe(417);
    expect(f.seconds).toBeCloseTo(1152 / 44100, 8);
    const frames = mp3Frames(mp3(2000));
    expect(frames).toHaveLength(2000);
    expect(frames[0]!.offset).toBe(30);
  });

  it('cuts at frame boundaries into pieces of at most 28 s, each starting with a frame', () => {
    const buf = mp3(2000); // 52.2 s
    const pieces = splitMp3(buf, mp3Frames(buf), 28, 25 * 1024 * 1024);
    expect(pieces).toHaveLength(2);
    for (const p of pieces) {
      expect([p[0], p[1]]).toEqual([0xff, 0xfb]);
      expect(p.length % 417).toBe(0);
      expect((p.length / 417) * (1152 / 44100)).toBeLessThanOrEqual(28);
    }
    expect(pieces[0]!.length + pieces[1]!.length).toBe(2000 * 417);
  });

  it('junk is skipped and text is not taken for audio', () => {
    expect(mp3Frames(Buffer.from('hello, this is plain text and not audio at all'))).toHaveLength(0);
    const withJunk = Buffer.concat([Buffer.from([0xff, 0xfb, 0x00, 0x12, 0x34]), mp3(10, false)]);
    expect(mp3Frames(withJunk)).toHaveLength(10);
  });
});

describe('a long recording is read a piece at a time (issue 45)', () => {
  it('frames found a window at a time are the frames found in the whole file', async () => {
    // About 3.5 MB: several windows, with a frame across each window's end, junk and a tag.
    const buf = Buffer.concat([mp3(4000), Buffer.from([0xff, 0xfb, 0x00, 0x12]), mp3(4500, false)]);
    const read = async (at: number, length: number) => buf.subarray(at, at + length);
    const windowed = await mp3FramesOfFile(read, buf.length);
    expect(windowed).toEqual(mp3Frames(buf));
    expect(windowed).toHaveLength(8500);
  });

  it('pieces read from the file are the pieces cut from the whole bytes (WAV and MP3)', async () => {
    const dir = tempDir('zhi-audio-pieces-');
    try {
      const wav = makeWav(70, 8000, 2);
      writeFileSync(join(dir, 'a.wav'), wav);
      const fromFile = await prepareAudio(join(dir, 'a.wav'), 'a.wav');
      const whole = splitWav(wav, parseWav(wav)!, 28, 24 * 1024 * 1024);
      const same = async (got: { read(): Promise<Buffer> }[], want: Buffer[]) => {
        expect(got).toHaveLength(want.length);
        for (const [i, p] of got.entries())
          expect((await p.read()).equals(want[i]!), `piece ${i + 1}`).toBe(true);
      };
      await same(fromFile.pieces, whole);
      expect(fromFile.pieces.map((p) => p.seconds)).toEqual([28, 28, 14]);
      const mp = mp3(2000);
      writeFileSync(join(dir, 'a.mp3'), mp);
      const mpFile = await prepareAudio(join(dir, 'a.mp3'), 'a.mp3');
      const mpWhole = splitMp3(mp, mp3Frames(mp), 28, 24 * 1024 * 1024);
      await same(mpFile.pieces, mpWhole);
    } finally {
      cleanup(dir);
    }
  });

  it('a recording over 4 hours is refused before anything is read past its header', async () => {
    const dir = tempDir('zhi-audio-long-');
    try {
      // 4 h 1 min of 8 kHz mono 16-bit: a sparse file, so the test writes only the header.
      const seconds = MAX_AUDIO_SECONDS + 60;
      const head = makeWav(0.01);
      head.writeUInt32LE(seconds * 16000, 40);
      const path = join(dir, 'day.wav');
      writeFileSync(path, head.subarray(0, 44));
      truncateSync(path, 44 + seconds * 16000);
      const err = await prepareAudio(path, 'day.wav').catch((e) => e);
      expect(err.code).toBe('too_long');
      expect(err.message).toContain('241 minutes');
    } finally {
      cleanup(dir);
    }
  });
});

it('durations read as m:ss or h:mm:ss', () => {
  expect(formatDuration(70)).toBe('1:10');
  expect(formatDuration(3725)).toBe('1:02:05');
});

describe('a recording with nothing to hear (issue 45)', () => {
  it('a silent or sample-less WAV is refused as empty, not sent and not "needs ffmpeg"; a tone passes', async () => {
    const dir = tempDir('zhi-wav-');
    try {
      const tone = makeWav(1);
      const silent = Buffer.concat([tone.subarray(0, 44), Buffer.alloc(tone.length - 44)]);
      const headerOnly = Buffer.from(tone.subarray(0, 44));
      headerOnly.writeUInt32LE(0, 40);
      for (const [name, bytes] of [
        ['silent.wav', silent],
        ['header.wav', headerOnly],
      ] as const) {
        writeFileSync(join(dir, name), bytes);
        const err = await prepareAudio(join(dir, name), name).catch((e) => e);
        expect(err.code, name).toBe('empty');
        expect(err.message).toContain('holds no sound');
      }
      writeFileSync(join(dir, 'tone.wav'), tone);
      expect((await prepareAudio(join(dir, 'tone.wav'), 'tone.wav')).pieces.length).toBe(1);
    } finally {
      cleanup(dir);
    }
  });
});
