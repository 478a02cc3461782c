import { emitKeypressEvents, type Key } from 'node:readline';
import { visible } from '../../support/sanitize.js';
import { TextBuffer } from './buffer.js';
import { applyCompletion } from './editor-complete.js';
import { applyKey } from './editor-keys.js';
import type { Completion } from './complete.js';
import { EditorView } from './editor-view.js';
import type { History } from './history.js';
import { continues } from './input.js';
import { ReverseSearch } from './search.js';
import { pushAll } from '../../support/arrays.js';

/** The terminal streams the editor reads keys from and draws on. */
export interface EditorStreams {
  input: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?(mode: boolean): unknown };
  output: NodeJS.WritableStream & {
    columns?: number;
    isTTY?: boolean;
    on?(event: 'resize', fn: () => void): unknown;
    off?(event: 'resize', fn: () => void): unknown;
  };
}

export type ReadResult = { kind: 'line'; text: string } | { kind: 'eof' } | { kind: 'interrupt' };

export interface EditorOptions {
  history: History;
  prompt: () => string;
  /** Prompt of every further line of a multi-line message (after `\` + Enter or Alt+Enter). */
  continuation: string;
  completer?: (line: string) => Promise<Completion>;
  /** Ask the terminal to mark pastes (\x1b[?2004h), so pasted newlines do not send. */
  bracketedPaste?: boolean;
  /** Prompt shown during Ctrl+R search; `failed` when nothing matches. */
  searchPrompt?: (query: string, failed: boolean) => string;
  /** A line drawn under the input while a message is typed (model · mode · context · cost). */
  status?: () => string | undefined;
  /** Ctrl+X Ctrl+E: edit the text in an external editor; undefined keeps the text as it was. */
  externalEdit?: (text: string) => Promise<string | undefined>;
  /** Text typed while zhi works, as it changes (shown by the REPL under the answer). */
  onTypeahead?: (text: string) => void;
}

type Mode = 'idle' | 'read' | 'ask' | 'busy';

/**
 * The input line of the REPL. It reads keys itself (Node's keypress parser) and draws its own
 * text, so a long line that wraps, Chinese and emoji (two columns each), multi-line messages and a
 * terminal resize are drawn exactly — Node's readline redraws a wrapped CJK line in the wrong place.
 * It offers bracketed paste (a pasted block stays one message, never sent by its newlines), `\`
 * or Alt+Enter for a new line (the earlier lines stay editable: Up moves into them), history with
 * Up/Down, Ctrl+R search, Tab completion (case-insensitive, inside quotes), Ctrl+X Ctrl+E for an
 * external editor, and a busy mode: Ctrl+C interrupts the work, other keys are typed ahead into
 * the next message (and shown), an Enter among them sends it as soon as the prompt is back.
 */
export class LineEditor {
  private readonly buf = new TextBuffer();
  private readonly view: EditorView;
  private mode: Mode = 'idle';
  private search: ReverseSearch | undefined;
  private readResolve: ((r: ReadResult) => void) | undefined;
  private askResolve: ((answer: string | null) => void) | undefined;
  private onBusyInterrupt: (() => void) | undefined;
  private interruptPending = false;
  private closed = false;
  private pasting = false;
  private pasteBuffer = '';
  /** Keys that came after a typed-ahead Enter: replayed at the prompt after that message. */
  private queued: [string | undefined, Key | undefined][] = [];
  private submitQueued = false;
  /** History browsing: -1 is the draft being typed; the draft is kept while browsing. */
  private historyIndex = -1;
  private draft = '';
  private entries: string[] = [];
  private ctrlX = false;
  private lastTab = false;
  private enterInChunk: { count: number; scheduled: boolean } = { count: 0, scheduled: false };
  private suspended = false;

  constructor(
    private readonly io: EditorStreams,
    private readonly o: EditorOptions,
  ) {
    this.view = new EditorView(io.output);
    emitKeypressEvents(io.input);
    io.input.setRawMode?.(true);
    io.input.on('keypress', this.onKeypress);
    io.input.on('end', this.onEnd);
    io.input.resume();
    io.output.on?.('resize', this.onResize);
    if (o.bracketedPaste) {
      io.output.write('\x1b[?2004h');
      // Never leave the terminal in bracketed-paste mode, even when zhi ends abruptly.
      process.once('exit', this.pasteOff);
    }
  }

  private readonly pasteOff = (): void => {
    process.removeListener('exit', this.pasteOff);
    this.io.output.write('\x1b[?2004l');
  };

  private readonly onResize = (): void => {
    if (this.mode === 'read' || this.mode === 'ask') this.view.resized();
    this.draw();
  };

  private readonly onEnd = (): void => this.close();

  /** Read one message: typed, pasted, or several lines joined. */
  read(): Promise<ReadResult> {
    if (this.closed) return Promise.resolve({ kind: 'eof' });
    return new Promise((resolve) => {
      this.readResolve = resolve;
      this.mode = 'read';
      this.interruptPending = false;
      this.historyIndex = -1;
      this.entries = this.o.history.entries();
      this.view.reset();
      this.draw();
      if (this.submitQueued) {
        this.submitQueued = false;
        this.submit();
      }
      this.replayQueued();
    });
  }

  /** Draw the prompt and status line again (what they show has changed: the chat is ready). */
  redraw(): void {
    if (this.mode === 'read' && !this.closed && !this.suspended) this.draw();
  }

  /** Put text on the next prompt (/editor, a message to fix). */
  prefill(text: string): void {
    this.buf.set(text);
    this.o.onTypeahead?.(text);
  }

  /** Ask a one-line question while the agent is busy (a permission prompt). Null when cancelled. */
  ask(question: string, signal?: AbortSignal): Promise<string | null> {
    if (this.closed || signal?.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      const previous = this.mode;
      const saved = { text: this.buf.text, cursor: this.buf.cursor };
      const onAbort = () => this.endAsk(null);
      this.askResolve = (answer) => {
        signal?.removeEventListener('abort', onAbort);
        this.mode = previous === 'ask' ? 'busy' : previous;
        this.buf.set(saved.text, saved.cursor);
        this.askPrompt = undefined;
        resolve(answer);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.mode = 'ask';
      this.askPrompt = question;
      this.buf.set('');
      this.view.reset();
      this.draw();
    });
  }

  private askPrompt: string | undefined;

  /** While the agent works: Ctrl+C calls `onInterrupt`; other keys are typed ahead. */
  busy(onInterrupt: () => void): void {
    this.mode = 'busy';
    this.onBusyInterrupt = onInterrupt;
    if (this.interruptPending) {
      this.interruptPending = false;
      onInterrupt();
    }
  }

  idle(): void {
    this.mode = 'idle';
    this.onBusyInterrupt = undefined;
  }

  /** The terminal is handed to another program (an editor): stop reading keys until resumed. */
  suspend(): void {
    this.suspended = true;
    this.io.input.setRawMode?.(false);
    if (this.o.bracketedPaste) this.io.output.write('\x1b[?2004l');
  }

  resume(): void {
    this.suspended = false;
    this.io.input.setRawMode?.(true);
    if (this.o.bracketedPaste) this.io.output.write('\x1b[?2004h');
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.o.bracketedPaste) this.pasteOff();
    this.io.input.removeListener('keypress', this.onKeypress);
    this.io.input.removeListener('end', this.onEnd);
    this.io.output.off?.('resize', this.onResize);
    this.io.input.setRawMode?.(false);
    this.io.input.pause();
    this.endAsk(null);
    if (this.readResolve) this.finishRead({ kind: 'eof' });
  }

  // — drawing —

  private promptText(): string {
    if (this.mode === 'ask') return this.askPrompt ?? '';
    if (this.search) {
      const s = this.search;
      return this.o.searchPrompt
        ? this.o.searchPrompt(s.query, s.failed)
        : `(${s.failed ? 'failed ' : ''}reverse-i-search)'${s.query}': `;
    }
    return this.o.prompt();
  }

  private draw(withStatus = true): void {
    if (this.closed || this.suspended || (this.mode !== 'read' && this.mode !== 'ask')) {
      if (this.mode === 'busy' || this.mode === 'idle') this.o.onTypeahead?.(this.buf.text);
      return;
    }
    const status = withStatus && this.mode === 'read' && !this.search ? this.o.status?.() : undefined;
    this.view.draw(this.promptText(), this.o.continuation, this.buf.text, this.buf.cursor, status);
  }

  // — keys —

  private readonly onKeypress = (s: string | undefined, key: Key | undefined): void => {
    if (this.suspended || this.closed) return;
    const k = key ?? {};
    if (this.pasting) {
      if (k.name === 'paste-end') {
        this.pasting = false;
        this.paste(this.pasteBuffer);
        this.pasteBuffer = '';
      } else this.pasteBuffer += s ?? k.sequence ?? '';
      return;
    }
    if (k.name === 'paste-start') {
      this.pasting = true;
      this.pasteBuffer = '';
      return;
    }
    this.onKey(s, key);
  };

  private onKey(s: string | undefined, key: Key | undefined): void {
    const k = key ?? {};
    const ctrlC = Boolean(k.ctrl && k.name === 'c');
    if (this.mode === 'busy' || this.mode === 'idle') {
      this.typeAhead(s, k, ctrlC);
      return;
    }
    if (this.search) {
      this.searchKey(s, k);
      return;
    }
    if (ctrlC) {
      if (this.mode === 'ask') {
        this.endAsk(null);
        this.onBusyInterrupt?.();
      } else if (this.buf.text !== '') {
        this.draw(false);
        this.io.output.write('\n');
        this.buf.set('');
        this.view.reset();
        this.draw();
      } else this.finishRead({ kind: 'interrupt' });
      return;
    }
    if (k.ctrl && k.name === 'd' && this.buf.text === '') {
      if (this.mode === 'ask') this.endAsk(null);
      else this.finishRead({ kind: 'eof' });
      return;
    }
    this.edit(s, k);
  }

  /** Keys that arrive while zhi works: the draft grows (and is shown); Enter queues a send. */
  private typeAhead(s: string | undefined, k: Key, ctrlC: boolean): void {
    if (ctrlC) {
      if (this.onBusyInterrupt) this.onBusyInterrupt();
      // Between a line and the work it starts: stop that work as soon as it begins.
      else this.interruptPending = true;
      return;
    }
    if (this.submitQueued) {
      this.queued.push([s, k]);
      return;
    }
    if (k.name === 'return' || k.name === 'enter') {
      if (this.buf.text.trim()) this.submitQueued = true;
      return;
    }
    if (k.name === 'up' || k.name === 'down' || k.name === 'tab' || (k.ctrl && k.name === 'r')) {
      this.queued.push([s, k]);
      return;
    }
    this.edit(s, k);
  }

  private replayQueued(): void {
    const pending = this.queued;
    this.queued = [];
    for (let i = 0; i < pending.length; i++) {
      const [s, k] = pending[i]!;
      if (this.mode !== 'read') {
        pushAll(this.queued, pending.slice(i));
        return;
      }
      this.onKey(s, k);
    }
  }

  /** Editing keys, shared by reading, asking and typing ahead. */
  private edit(s: string | undefined, k: Key): void {
    const wasTab = this.lastTab;
    this.lastTab = false;
    if (this.ctrlX) {
      this.ctrlX = false;
      if (k.ctrl && k.name === 'e') {
        void this.openExternal();
        return;
      }
    }
    const b = this.buf;
    switch (applyKey(b, s, k)) {
      case 'ignored':
        return;
      case 'enter':
        this.enter(k);
        return;
      case 'tab':
        void this.tab(wasTab);
        return;
      case 'ctrl-x':
        this.ctrlX = true;
        return;
      case 'clear':
        this.io.output.write('\x1b[H\x1b[2J');
        this.view.reset();
        break;
      case 'search':
        if (this.mode === 'read') this.search = new ReverseSearch(this.entries, b.text);
        break;
      case 'older':
        this.historyMove(1);
        break;
      case 'newer':
        this.historyMove(-1);
        break;
      case 'up':
        if (b.onFirstLine || this.historyIndex >= 0) this.historyMove(1);
        else b.vertical(-1);
        break;
      case 'down':
        if (b.onLastLine || this.historyIndex >= 0) this.historyMove(-1);
        else b.vertical(1);
        break;
      default:
        break;
    }
    this.draw();
  }

  /** Browse the history: 1 is older, -1 newer; the draft comes back below the newest entry. */
  private historyMove(step: 1 | -1): void {
    if (this.mode !== 'read') return;
    const next = this.historyIndex + step;
    if (next < -1 || next >= this.entries.length) return;
    if (this.historyIndex === -1) this.draft = this.buf.text;
    this.historyIndex = next;
    const text = next === -1 ? this.draft : this.entries[next]!;
    // Going up lands at the end of the entry's first line, so Up again keeps browsing.
    this.buf.set(text, step > 0 ? (text.indexOf('\n') < 0 ? text.length : text.indexOf('\n')) : text.length);
  }

  /**
   * Enter sends — unless the line ends with `\` (it becomes a new line, still editable), or more
   * keys follow in the same read (lines pasted into a terminal without bracketed paste).
   */
  private enter(k: Key): void {
    if (this.mode === 'ask') {
      this.endAsk(this.buf.text);
      return;
    }
    const b = this.buf;
    const before = b.text.slice(0, b.cursor);
    const cont = b.cursor === b.text.length ? continues(before) : undefined;
    if (cont !== undefined) {
      b.set(`${cont}\n`);
      this.draw();
      return;
    }
    // `\r\n` from a paste: the `\n` after a `\r` is the same line end.
    if (k.name === 'enter' && k.sequence === '\n' && this.enterInChunk.count > 0 && before.endsWith('\n'))
      return;
    const at = b.cursor;
    b.insert('\n');
    this.enterInChunk.count++;
    if (this.enterInChunk.scheduled) return;
    this.enterInChunk.scheduled = true;
    const textAtEnter = b.text;
    queueMicrotask(() => {
      const { count } = this.enterInChunk;
      this.enterInChunk = { count: 0, scheduled: false };
      if (this.mode !== 'read') return;
      if (count === 1 && b.text === textAtEnter) {
        b.set(b.text.slice(0, at) + b.text.slice(at + 1));
        this.submit();
        return;
      }
      // Several lines at once: a paste. Keep them for editing, never send by their newlines.
      if (b.text.endsWith('\n') && b.cursor === b.text.length) b.set(b.text.slice(0, -1));
      this.draw();
    });
  }

  private submit(): void {
    const text = this.buf.text;
    this.finishRead({ kind: 'line', text });
  }

  private async tab(again: boolean): Promise<void> {
    if (!this.o.completer || this.mode !== 'read') return;
    const b = this.buf;
    const before = b.text.slice(0, b.cursor);
    let hits: string[];
    let sub: string;
    try {
      [hits, sub] = await this.o.completer(before);
    } catch {
      return;
    }
    if (this.mode !== 'read' || b.text.slice(0, b.cursor) !== before || !hits.length) return;
    if (applyCompletion(b, hits, sub)) {
      this.draw();
      return;
    }
    this.lastTab = true;
    if (!again) return;
    // Second Tab: list the candidates (names from disk: shown, never executed) above the prompt.
    this.draw(false);
    this.view.leave();
    this.io.output.write(`${hits.map((h) => visible(h)).join('  ')}\n`);
    this.view.reset();
    this.draw();
  }

  private async openExternal(): Promise<void> {
    if (!this.o.externalEdit || this.mode !== 'read') return;
    this.draw(false);
    this.view.leave();
    const edited = await this.o.externalEdit(this.buf.text);
    if (edited !== undefined) this.buf.set(edited.replace(/\n+$/, ''));
    this.view.reset();
    this.draw();
  }

  private searchKey(s: string | undefined, k: Key): void {
    const search = this.search!;
    if (k.ctrl && k.name === 'r') search.next();
    else if ((k.ctrl && (k.name === 'g' || k.name === 'c')) || k.name === 'escape') {
      this.search = undefined;
      this.buf.set(search.original);
    } else if (k.name === 'backspace') search.backspace();
    else if (s && !k.ctrl && !k.meta && !/[\x00-\x1f\x7f]/.test(s)) search.type(s);
    else {
      // Any other key accepts the match and then does its usual job (Enter sends it).
      this.search = undefined;
      this.buf.set(search.match);
      this.edit(s, k);
      return;
    }
    if (this.search) this.buf.set(search.match, search.cursor());
    this.draw();
  }

  /** A paste: newlines kept in the text being edited (never sent by themselves). */
  private paste(raw: string): void {
    const text = raw.replace(/\r\n?/g, '\n');
    if (this.mode === 'ask') this.buf.insert(text.split('\n')[0]!);
    else if (this.mode === 'read' || !this.submitQueued) this.buf.insert(text.replace(/\n+$/, ''));
    else this.queued.push([text, { name: 'paste', sequence: text }]);
    this.draw();
  }

  private finishRead(result: ReadResult): void {
    const resolve = this.readResolve;
    this.readResolve = undefined;
    this.search = undefined;
    // The message stays on screen as typed, without the status line; the cursor goes below it.
    if (!this.closed) {
      this.draw(false);
      this.view.leave();
    }
    this.mode = 'idle';
    this.buf.set('');
    resolve?.(result);
  }

  private endAsk(answer: string | null): void {
    const resolve = this.askResolve;
    if (!resolve) return;
    this.askResolve = undefined;
    if (!this.closed) {
      this.draw(false);
      this.view.leave();
    }
    resolve(answer);
  }
}
