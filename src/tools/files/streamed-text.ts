/**
 * Text that file_write writes without holding it whole: its pieces are read one at a time (a
 * long document's joined result, read from the part store). Never comes from the model: zhi puts
 * it in a file_write call's `content` in place of a placeholder (agent/skills/long-doc.ts). Only
 * .md and .txt files take it; the bytes are those a string content would give (a final line
 * break added when missing).
 */
import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';

export interface MeasuredText {
  bytes: number;
  lines: number;
  sha256: string;
}

export class StreamedText {
  /** `pieces` is read again on every pass (measuring, then writing): it must give the same text. */
  constructor(private readonly read: () => AsyncIterable<string>) {}

  /** The text as given, a piece at a time (no line break added). */
  pieces(): AsyncIterable<string> {
    return this.read();
  }

  /** The bytes, ending with a line break. */
  async *chunks(): AsyncGenerator<Buffer> {
    let last: number | undefined;
    for await (const piece of this.read()) {
      if (!piece) continue;
      const b = Buffer.from(piece, 'utf8');
      last = b[b.length - 1];
      yield b;
    }
    if (last !== undefined && last !== 0x0a) yield Buffer.from('\n');
  }

  /** Size, lines and hash, read once through. */
  async measure(): Promise<MeasuredText> {
    const hash = createHash('sha256');
    let bytes = 0;
    let lines = 0;
    for await (const b of this.chunks()) {
      hash.update(b);
      bytes += b.length;
      for (let i = b.indexOf(0x0a); i >= 0; i = b.indexOf(0x0a, i + 1)) lines++;
    }
    return { bytes, lines, sha256: hash.digest('hex') };
  }

  /** Write it into a file just opened. */
  async writeTo(fh: FileHandle): Promise<void> {
    for await (const b of this.chunks()) {
      for (let at = 0; at < b.length; ) at += (await fh.write(b, at)).bytesWritten;
    }
  }

  /** The whole text as one string (for a file that must be built whole: Word, JSON). */
  async text(): Promise<string> {
    const out: string[] = [];
    for await (const piece of this.read()) out.push(piece);
    return out.join('');
  }
}
