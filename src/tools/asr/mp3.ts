/**
 * MP3 read frame by frame from the frame headers (MPEG-1/2/2.5, layers I–III), without decoding
 * audio: each frame's length and sample count give the duration, and a piece is a run of whole
 * frames — a valid MP3 on its own. ID3 tags, a Xing/Info frame and junk between frames are
 * skipped by looking for the next frame that is followed by another one.
 */

export interface Mp3Frame {
  offset: number;
  length: number;
  seconds: number;
}

const BITRATES: Record<string, number[]> = {
  '1-1': [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  '1-2': [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  '1-3': [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  '2-1': [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  '2-2': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  '2-3': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const RATES: Record<number, number[]> = {
  3: [44100, 48000, 32000], // MPEG-1
  2: [22050, 24000, 16000], // MPEG-2
  0: [11025, 12000, 8000], // MPEG-2.5
};

/** The frame starting at `at`, or undefined when there is no valid frame header there. */
export function frameAt(buf: Buffer, at: number): Mp3Frame | undefined {
  if (at + 4 > buf.length || buf[at] !== 0xff || (buf[at + 1]! & 0xe0) !== 0xe0) return undefined;
  const b1 = buf[at + 1]!;
  const b2 = buf[at + 2]!;
  const version = (b1 >> 3) & 3;
  const layer = 4 - ((b1 >> 1) & 3);
  if (version === 1 || layer === 4) return undefined;
  const kbps = BITRATES[`${version === 3 ? 1 : 2}-${layer}`]![b2 >> 4];
  const rate = RATES[version]![(b2 >> 2) & 3];
  if (!kbps || !rate) return undefined; // free-format or a reserved value
  const pad = (b2 >> 1) & 1;
  const bitrate = kbps * 1000;
  let length: number;
  let samples: number;
  if (layer === 1) {
    length = (Math.floor((12 * bitrate) / rate) + pad) * 4;
    samples = 384;
  } else {
    const long = layer === 2 || version === 3;
    samples = long ? 1152 : 576;
    length = Math.floor(((long ? 144 : 72) * bitrate) / rate) + pad;
  }
  return { offset: at, length, seconds: samples / rate };
}

/** Where the audio starts: after an ID3v2 tag, if there is one (the tag's first 10 bytes suffice). */
export function audioStart(buf: Buffer): number {
  if (buf.length < 10 || buf.toString('latin1', 0, 3) !== 'ID3') return 0;
  const size =
    ((buf[6]! & 0x7f) << 21) | ((buf[7]! & 0x7f) << 14) | ((buf[8]! & 0x7f) << 7) | (buf[9]! & 0x7f);
  return 10 + size + (buf[5]! & 0x10 ? 10 : 0);
}

/**
 * Read frames from `buf` (which starts at `base` in the file) from `at` on, up to `limit`, into
 * `frames`; returns where it stopped. `atEnd`: `buf` reaches the end of the file.
 */
function scanFrames(
  buf: Buffer,
  base: number,
  at: number,
  limit: number,
  atEnd: boolean,
  frames: Mp3Frame[],
): number {
  while (at + 4 <= buf.length && at < limit) {
    const f = frameAt(buf, at);
    // A frame counts when the next one follows it (or the file ends there): false syncs inside
    // tags or junk are passed over one byte at a time.
    const end = f ? f.offset + f.length : 0;
    const fileEnds = atEnd && end + 4 > buf.length;
    if (f && end <= buf.length && (fileEnds || frameAt(buf, end) || frames.length > 0)) {
      frames.push({ ...f, offset: base + f.offset });
      at = end;
      continue;
    }
    at += 1;
  }
  return at;
}

/** Every frame of the file, in order (empty when it is not an MP3). */
export function mp3Frames(buf: Buffer): Mp3Frame[] {
  const frames: Mp3Frame[] = [];
  scanFrames(buf, 0, audioStart(buf), buf.length, true, frames);
  return frames;
}

/** The file is read this much at a time; a frame is at most about 3 KB, far under the margin. */
const WINDOW = 1024 * 1024;
const MARGIN = 16 * 1024;

/**
 * Every frame of an MP3 file read a window at a time, so a long recording is never held whole:
 * only the frame list (offsets and lengths) stays.
 */
export async function mp3FramesOfFile(
  read: (at: number, length: number) => Promise<Buffer>,
  size: number,
): Promise<Mp3Frame[]> {
  const frames: Mp3Frame[] = [];
  let at = audioStart(await read(0, Math.min(size, 10)));
  while (at + 4 <= size) {
    const buf = await read(at, Math.min(WINDOW, size - at));
    const atEnd = at + buf.length >= size;
    const next = scanFrames(buf, at, 0, atEnd ? buf.length : buf.length - MARGIN, atEnd, frames);
    if (next === 0) break; // nothing read (a short read): stop rather than loop
    at += next;
  }
  return frames;
}

/** The frames cut into runs of at most `seconds` (and `maxBytes`): [first, end) indexes. */
export function mp3Runs(frames: Mp3Frame[], seconds: number, maxBytes: number): [number, number][] {
  const out: [number, number][] = [];
  let first = 0;
  let time = 0;
  let bytes = 0;
  for (const [i, f] of frames.entries()) {
    if (i > first && (time + f.seconds > seconds || bytes + f.length > maxBytes)) {
      out.push([first, i]);
      first = i;
      time = 0;
      bytes = 0;
    }
    time += f.seconds;
    bytes += f.length;
  }
  if (frames.length > first) out.push([first, frames.length]);
  return out;
}

/** The frames cut into pieces of at most `seconds` (and `maxBytes`), each a valid MP3. */
export function splitMp3(buf: Buffer, frames: Mp3Frame[], seconds: number, maxBytes: number): Buffer[] {
  return mp3Runs(frames, seconds, maxBytes).map(([first, end]) =>
    Buffer.concat(frames.slice(first, end).map((f) => buf.subarray(f.offset, f.offset + f.length))),
  );
}
