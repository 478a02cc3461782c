/**
 * The session file on disk: under its name from the first line written (so starting the REPL and
 * leaving leaves no session), one `write` per line on an append-only file (a killed process loses
 * at most the line being written), synced where a line matters.
 */
import {
  closeSync,
  fdatasyncSync,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { type SessionLine, serialiseLine } from './format.js';
import { removeDeadPending } from './pending.js';

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
  /** A new file made ahead by `prepare`, under a name no listing reads, until the first line. */
  private pending: { fd: number; path: string } | undefined;
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
   * While nothing waits (the REPL's prompt): make the folder, and a new session's file with its
   * first lines, written and synced, in `.pending/` where no listing looks. The first line then
   * only renames it into place and appends, as a later line does (creating and first syncing a
   * file costs about four times an append). Leaving without a message removes it; one left by a
   * killed zhi is removed by the next prepare.
   */
  prepare(): void {
    if (this.fd !== undefined || this.stopped || this.head !== undefined || this.pending) return;
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      this.head = this.hooks.head().map(serialiseLine).join('');
      if (this.hooks.append) return;
      const folder = join(this.dir, '.pending');
      removeDeadPending(folder);
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      const path = join(folder, `${process.pid}-${basename(this.path)}`);
      const fd = openSync(path, 'ax+', 0o600);
      this.pending = { fd, path };
      process.once('exit', this.dropPending);
      writeSync(fd, this.head);
      fdatasyncSync(fd);
      this.head = undefined;
    } catch {
      // The first write makes the file as it would have, and reports what fails.
      this.dropPending();
    }
  }

  /** The file made ahead, into place: true when it now is the session file. */
  private adopt(): boolean {
    const p = this.pending;
    if (!p) return false;
    try {
      renameSync(p.path, this.path);
    } catch {
      this.dropPending();
      return false;
    }
    this.pending = undefined;
    process.removeListener('exit', this.dropPending);
    this.fd = p.fd;
    this.hooks.opened();
    return true;
  }

  private readonly dropPending = (): void => {
    const p = this.pending;
    this.pending = undefined;
    process.removeListener('exit', this.dropPending);
    if (!p) return;
    for (const undo of [() => closeSync(p.fd), () => unlinkSync(p.path)]) {
      try {
        undo();
      } catch {
        // gone already
      }
    }
  };

  /** Close it for good (later writes are ignored). */
  close(): void {
    this.release();
    this.dropPending();
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
    if (this.adopt()) return this.fd;
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
