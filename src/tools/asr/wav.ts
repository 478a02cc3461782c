/**
 * WAV (RIFF) read from its header, and cut into pieces at sample boundaries: every piece is a
 * complete WAV with the same format chunk, so any PCM layout (mono, stereo, 8–32 bit, float,
 * WAVE_FORMAT_EXTENSIBLE) splits the same way without decoding a sample.
 */

export interface WavInfo {
  /** The `fmt ` chunk's body, copied into every piece. */
  fmt: Buffer;
  channels: number;
  sampleRate: number;
  byteRate: number;
  blockAlign: number;
  dataStart: number;
  dataLength: number;
  seconds: number;
}

/**
 * The header of a WAV file, or undefined when the bytes are not one zhi can cut. `buf` may be only
 * the file's beginning (up to its `data` chunk's header) when `fileSize` gives the whole size.
 */
export function parseWav(buf: Buffer, fileSize = buf.length): WavInfo | undefined {
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== 'RIFF' || buf.toString('latin1', 8, 12) !== 'WAVE')
    return undefined;
  let fmt: Buffer | undefined;
  let at = 12;
  while (at + 8 <= buf.length) {
    const id = buf.toString('latin1', at, at + 4);
    const size = buf.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ') fmt = buf.subarray(body, body + size);
    if (id === 'data') {
      if (!fmt || fmt.length < 16) return undefined;
      // A recorder that was stopped early leaves the size 0 or 0xFFFFFFFF: the data is the rest.
      const rest = fileSize - body;
      const dataLength = size === 0 || size > rest ? rest : size;
      const byteRate = fmt.readUInt32LE(8);
      const blockAlign = fmt.readUInt16LE(12);
      if (!byteRate || !blockAlign) return undefined;
      return {
        fmt,
        channels: fmt.readUInt16LE(2),
        sampleRate: fmt.readUInt32LE(4),
        byteRate,
        blockAlign,
        dataStart: body,
        dataLength,
        seconds: dataLength / byteRate,
      };
    }
    at = body + size + (size % 2);
  }
  return undefined;
}

/** A WAV file holding `data` in the format `fmt`. */
export function buildWav(fmt: Buffer, data: Buffer): Buffer {
  const head = Buffer.alloc(12 + 8 + fmt.length + 8);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(4 + 8 + fmt.length + 8 + data.length, 4);
  head.write('WAVE', 8, 'latin1');
  head.write('fmt ', 12, 'latin1');
  head.writeUInt32LE(fmt.length, 16);
  fmt.copy(head, 20);
  head.write('data', 20 + fmt.length, 'latin1');
  head.writeUInt32LE(data.length, 24 + fmt.length);
  return Buffer.concat([head, data]);
}

/** Bytes of samples per piece: at most `seconds` and `maxBytes` (with its header), whole sample frames. */
export function wavStep(info: WavInfo, seconds: number, maxBytes: number): number {
  const byTime = Math.floor((seconds * info.byteRate) / info.blockAlign) * info.blockAlign;
  const bySize = Math.floor((maxBytes - 64 - info.fmt.length) / info.blockAlign) * info.blockAlign;
  return Math.max(info.blockAlign, Math.min(byTime, bySize));
}

/** The WAV cut into pieces of at most `seconds` each (and at most `maxBytes`), in order. */
export function splitWav(buf: Buffer, info: WavInfo, seconds: number, maxBytes: number): Buffer[] {
  const step = wavStep(info, seconds, maxBytes);
  const data = buf.subarray(info.dataStart, info.dataStart + info.dataLength);
  const out: Buffer[] = [];
  for (let at = 0; at < data.length; at += step) out.push(buildWav(info.fmt, data.subarray(at, at + step)));
  return out;
}
