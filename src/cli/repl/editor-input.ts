/**
 * Small pieces of state the line editor (editor.ts) keeps about its input: where the person is
 * in the history, a bracketed paste being collected, and Enters that arrive in one burst (and what
 * Enter at the prompt does with them).
 */
import type { Key } from 'node:readline';
import { pushAll } from '../../support/arrays.js';
import type { TextBuffer } from './buffer.js';
import { continues } from './input.js';

/** History browsing: index -1 is the draft being typed; the draft is kept while browsing. */
export class HistoryBrowser {
  entries: string[] = [];
  private index = -1;
  private draft = '';

  /** A new message is being read: browsing starts again from the draft. */
  start(entries: string[]): void {
    this.index = -1;
    this.entries = entries;
  }

  get browsing(): boolean {
    return this.index >= 0;
  }

  /**
   * Up and Down move between the lines of a multi-line draft, and into the history from its first
   * or last line (or while browsing); Ctrl+P and Ctrl+N always browse. The history is browsed only
   * while a message is read (`reading`), not while a question is asked.
   */
  key(buf: TextBuffer, action: 'older' | 'newer' | 'up' | 'down', reading: boolean): void {
    // An entry the person has changed is their draft now: Up must not throw it away, and Down
    // from the history brings it back.
    if (this.browsing && buf.text !== this.entries[this.index]) this.index = -1;
    const step = action === 'older' || action === 'up' ? 1 : -1;
    const withinText = action === 'up' ? !buf.onFirstLine : action === 'down' ? !buf.onLastLine : false;
    if (withinText && !this.browsing) buf.vertical(step === 1 ? -1 : 1);
    else if (reading) this.move(buf, step);
  }

  /** 1 is older, -1 newer; the draft comes back below the newest entry. */
  private move(buf: TextBuffer, step: 1 | -1): void {
    const next = this.index + step;
    if (next < -1 || next >= this.entries.length) return;
    if (this.index === -1) this.draft = buf.text;
    this.index = next;
    const text = next === -1 ? this.draft : this.entries[next]!;
    // Going up lands at the end of the entry's first line, so Up again keeps browsing.
    buf.set(text, step > 0 ? (text.indexOf('\n') < 0 ? text.length : text.indexOf('\n')) : text.length);
  }
}

/** The key was part of a paste still arriving. */
export const PASTING = Symbol('pasting');

/** Collects the keys between the terminal's paste-start and paste-end marks. */
export class PasteCollector {
  private pasting = false;
  private buffer = '';

  /** The whole pasted text at its end, PASTING while it arrives, undefined for an ordinary key. */
  feed(s: string | undefined, k: Key): string | typeof PASTING | undefined {
    if (this.pasting) {
      if (k.name !== 'paste-end') {
        this.buffer += s ?? k.sequence ?? '';
        return PASTING;
      }
      this.pasting = false;
      const text = this.buffer;
      this.buffer = '';
      return text;
    }
    if (k.name !== 'paste-start') return undefined;
    this.pasting = true;
    this.buffer = '';
    return PASTING;
  }
}

/**
 * Enters that arrive in one read of the terminal (lines pasted without bracketed paste): counted
 * until the microtask after the first, which is then told how many came.
 */
export class EnterBurst {
  count = 0;
  private scheduled = false;

  add(settle: (count: number) => void): void {
    this.count++;
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      const { count } = this;
      this.count = 0;
      this.scheduled = false;
      settle(count);
    });
  }
}

/**
 * Enter at the prompt sends — unless the line ends with `\` (it becomes a new line, still
 * editable), or more keys follow in the same read (lines pasted into a terminal without bracketed
 * paste). `to.reading()` is asked when the burst settles: the prompt may be gone by then.
 */
export function enterAtPrompt(
  b: TextBuffer,
  k: Key,
  enters: EnterBurst,
  to: { reading(): boolean; submit(): void; draw(): void },
): void {
  const before = b.text.slice(0, b.cursor);
  const cont = b.cursor === b.text.length ? continues(before) : undefined;
  if (cont !== undefined) {
    b.set(`${cont}\n`);
    to.draw();
    return;
  }
  // `\r\n` from a paste: the `\n` after a `\r` is the same line end.
  if (k.name === 'enter' && k.sequence === '\n' && enters.count > 0 && before.endsWith('\n')) return;
  const at = b.cursor;
  b.insert('\n');
  const textAtEnter = b.text;
  enters.add((count) => {
    if (!to.reading()) return;
    if (count === 1 && b.text === textAtEnter) {
      b.set(b.text.slice(0, at) + b.text.slice(at + 1));
      to.submit();
      return;
    }
    // Several lines at once: a paste. Keep them for editing, never send by their newlines.
    if (b.text.endsWith('\n') && b.cursor === b.text.length) b.set(b.text.slice(0, -1));
    to.draw();
  });
}

type QueuedKey = [string | undefined, Key | undefined];

/**
 * Keys typed while zhi works that must wait for the prompt: an Enter (the draft is sent as soon
 * as the prompt is back) and every key after it, and keys that act on the prompt (history,
 * completion, search).
 */
export class TypeAheadQueue {
  /** An Enter was typed ahead. */
  submit = false;
  private keys: QueuedKey[] = [];

  /** True when the key waits here; false when it edits the draft now. */
  hold(s: string | undefined, k: Key, hasText: boolean): boolean {
    if (this.submit) {
      this.keys.push([s, k]);
      return true;
    }
    if (k.name === 'return' || k.name === 'enter') {
      if (hasText) this.submit = true;
      return true;
    }
    if (k.name === 'up' || k.name === 'down' || k.name === 'tab' || (k.ctrl && k.name === 'r')) {
      this.keys.push([s, k]);
      return true;
    }
    return false;
  }

  push(s: string | undefined, k: Key): void {
    this.keys.push([s, k]);
  }

  /** Replay the keys while `reading()`; the rest wait for the next prompt. */
  replay(reading: () => boolean, onKey: (s: string | undefined, k: Key | undefined) => void): void {
    const pending = this.keys;
    this.keys = [];
    for (let i = 0; i < pending.length; i++) {
      const [s, k] = pending[i]!;
      if (!reading()) {
        pushAll(this.keys, pending.slice(i));
        return;
      }
      onKey(s, k);
    }
  }
}

/** Which key asked to stop: Ctrl+C (a second press while stopping leaves zhi) or Esc (only stops). */
export type StopKey = 'ctrl-c' | 'esc';

/** Ctrl+C or Esc while zhi works: the work's own interrupt, or one kept for the work about to start. */
export class BusyInterrupt {
  handler: ((key: StopKey) => void) | undefined;
  /** Between a line and the work it starts: stop that work as soon as it begins. */
  pending = false;

  set(handler: (key: StopKey) => void): void {
    this.handler = handler;
    if (this.pending) {
      this.pending = false;
      handler('ctrl-c');
    }
  }

  clear(): void {
    this.handler = undefined;
  }

  fire(): void {
    if (this.handler) this.handler('ctrl-c');
    else this.pending = true;
  }

  /**
   * Esc: stops the work running now, and nothing else. Never kept for later — an Esc between two
   * pieces of work (or a stray one from an escape sequence cut short) must not stop the next.
   */
  escape(): void {
    this.handler?.('esc');
  }
}
