/**
 * The input files of a Batch API round, written to disk as its calls are queued — each JSONL line
 * at once, never kept in memory — inside a multipart body ready to upload, split where the API's
 * limits for one input file (bytes, lines) or the upload cap would be passed.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { multipartHead, multipartTail, uploadBoundary } from '../../llm/batch.js';

/** One upload at most this big (below the API's 100 MB): the run never holds more in memory. */
const UPLOAD_BYTES = 8 * 1024 * 1024;

export interface Chunk {
  path: string;
  fd: number;
  boundary: string;
  bytes: number;
  lines: number;
  /** custom_id → input file. */
  requests: Record<string, string>;
}

export class RoundFiles {
  private chunks: Chunk[] = [];

  constructor(private readonly o: { dir: string; skill: string; limits: { bytes: number; lines: number } }) {}

  /**
   * The line goes to the current file of round `round` (a new one when it would not fit); false
   * when it is larger than any input file may be (the call is then made online).
   */
  add(line: string, key: string, rel: string, round: number): boolean {
    const bytes = Buffer.byteLength(line, 'utf8');
    if (bytes > this.o.limits.bytes) return false;
    const cap = Math.min(this.o.limits.bytes, UPLOAD_BYTES);
    let c = this.chunks.at(-1);
    if (!c || (c.lines > 0 && (c.bytes + bytes > cap || c.lines >= this.o.limits.lines)))
      c = this.open(round);
    writeSync(c.fd, line);
    c.bytes += bytes;
    c.lines += 1;
    c.requests[`zhi-${key}`] = rel;
    return true;
  }

  /** The files queued so far, for the round that submits them; the next round starts new ones. */
  take(): Chunk[] {
    const taken = this.chunks;
    this.chunks = [];
    return taken;
  }

  /** Interrupted: the files still open are closed. */
  close(): void {
    for (const c of this.chunks) if (c.fd >= 0) closeSync(c.fd);
  }

  private open(round: number): Chunk {
    mkdirSync(this.o.dir, { recursive: true });
    const n = this.chunks.length + 1;
    const path = join(this.o.dir, `upload-${process.pid}-${round}-${n}.part`);
    const fd = openSync(path, 'w', 0o600);
    const boundary = uploadBoundary();
    writeSync(fd, multipartHead(boundary, `zhi-${this.o.skill}-${round}-${n}.jsonl`));
    const c: Chunk = { path, fd, boundary, bytes: 0, lines: 0, requests: {} };
    this.chunks.push(c);
    return c;
  }
}

/** The file's body closed and read back, ready to upload. */
export async function sealed(c: Chunk): Promise<Buffer> {
  writeSync(c.fd, multipartTail(c.boundary));
  closeSync(c.fd);
  c.fd = -1;
  return readFile(c.path);
}
