/**
 * The session file on disk: opened on the first line written (so starting the REPL and leaving
 * leaves no empty file), one `write` per line on an append-only file (a killed process loses at
 * most the line being written), synced where a line matters.
 */
import { closeSync, fdatasyncSync, fstatSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { type SessionLine, serialiseLine } from './format.js';

export interface SessionFileHooks {
  /** Appending to a file that exists (a resumed session). */
  append: boolean;
  /** The lines the file starts with when opened (a new file's header; a resumed one's `resume`). */
  head(): SessionLine[];
  /** The file was just opened, before its first line is written. */
  opened(): void;
  /** Opening or writing failed: nothing more is written to this file. */
  fail(err: unknown): void;
  /** The file was closed after something was written to it. */
  closed(): void;
}

export class SessionFile {
  private fd: number | undefined;
  private stopped = false;
  /** The first lines, serialised ahead of the first write by `prepare`. */
  private head: string | undefined;
  /** Lines held until the next turn of the event loop (`defer`), and whether a sync was asked. */
  private held: SessionLine[] | undefined;
  private syncHeld = false;

  constructor(
    readonly path: string,
    private readonly dir: string,
    private readonly hooks: SessionFileHooks,
  ) {}

  /** Whether anything was written. */
  get started(): boolean {
    return this.fd !== undefined;
  }

  write(line: SessionLine): void {
    if (this.held) this.held.push(line);
    else this.writeNow(line);
  }

  sync(): void {
    if (this.held) this.syncHeld = true;
    else this.syncNow();
  }

  /**
   * Hold the lines written from now until the next turn of the event loop, then write them in
   * order (and sync, if asked meanwhile); at once if the file is closed or the process exits
   * first. A run stopped with Ctrl+C saves its partial answer this way, after the prompt is back:
   * serialising and syncing a long answer must not make stopping slower.
   */
  defer(): void {
    if (this.held || this.stopped) return;
    this.held = [];
    process.once('exit', this.release);
    setImmediate(this.release);
  }

  private readonly release = (): void => {
    const held = this.held;
    if (!held) return;
    this.held = undefined;
    process.removeListener('exit', this.release);
    for (const line of held) this.writeNow(line);
    if (this.syncHeld) {
      this.syncHeld = false;
      this.syncNow();
    }
  };

  private writeNow(line: SessionLine): void {
    const fd = this.open();
    if (fd === undefined) return;
    try {
      writeSync(fd, serialiseLine(line));
    } catch (err) {
      this.hooks.fail(err);
    }
  }

  private syncNow(): void {
    if (this.fd === undefined) return;
    try {
      fdatasyncSync(this.fd);
    } catch {
      // fsync is a best effort (some file systems refuse it); the data is written already.
    }
  }

  /**
   * Make the folder and serialise the first lines now, while nothing waits (the REPL's prompt):
   * the first write then only opens the file and writes them. Nothing is written before it.
   */
  prepare(): void {
    if (this.fd !== undefined || this.stopped || this.head !== undefined) return;
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      this.head = this.hooks.head().map(serialiseLine).join('');
    } catch {
      // The first write tries again and reports what fails.
    }
  }

  /** Close it for good (later writes are ignored). */
  close(): void {
    this.release();
    this.stopped = true;
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    this.fd = undefined;
    this.hooks.closed();
  }

  private open(): number | undefined {
    if (this.fd !== undefined || this.stopped) return this.fd;
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const fd = openSync(this.path, 'a+', 0o600);
      this.fd = fd;
      this.hooks.opened();
      if (this.hooks.append && !endsWithNewline(fd)) writeSync(fd, '\n');
      writeSync(fd, this.head ?? this.hooks.head().map(serialiseLine).join(''));
      this.head = undefined;
      return fd;
    } catch (err) {
      this.hooks.fail(err);
      return undefined;
    }
  }
}

function endsWithNewline(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return true;
  const b = Buffer.alloc(1);
  readSync(fd, b, 0, 1, size - 1);
  return b[0] === 0x0a;
}
