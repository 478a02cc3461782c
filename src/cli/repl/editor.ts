import { emitKeypressEvents, type Key } from 'node:readline';
import { visible } from '../../support/sanitize.js';
import { TextBuffer } from './buffer.js';
import { completeAtCursor } from './editor-complete.js';
import {
  BusyInterrupt,
  EnterBurst,
  enterAtPrompt,
  HistoryBrowser,
  PASTING,
  PasteCollector,
  type StopKey,
  TypeAheadQueue,
} from './editor-input.js';
import { applyKey } from './editor-keys.js';
import type { EditorOptions, EditorStreams, ReadResult } from './editor-types.js';
import { EditorView } from './editor-view.js';
import { ReverseSearch, searchAction, searchPrompt } from './search.js';

export type { EditorOptions, EditorStreams, ReadResult } from './editor-types.js';

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
  private readonly interrupt = new BusyInterrupt();
  private closed = false;
  private readonly pastes = new PasteCollector();
  private readonly typed = new TypeAheadQueue();
  private readonly history = new HistoryBrowser();
  private ctrlX = false;
  private lastTab = false;
  private readonly enters = new EnterBurst();
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
      this.interrupt.pending = false;
      this.history.start(this.o.history.entries());
      this.view.reset();
      this.draw();
      if (this.typed.submit) {
        this.typed.submit = false;
        this.submit();
      }
      const reading = () => this.mode === 'read';
      this.typed.replay(reading, (key, k) => this.onKey(key, k));
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

  /** While the agent works: Ctrl+C and Esc call `onInterrupt`; other keys are typed ahead. */
  busy(onInterrupt: (key: StopKey) => void): void {
    this.mode = 'busy';
    this.interrupt.set(onInterrupt);
  }

  idle(): void {
    this.mode = 'idle';
    this.interrupt.clear();
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
      const prompt = this.o.searchPrompt ?? searchPrompt;
      return prompt(this.search.query, this.search.failed);
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
    if (this.mode === 'read') this.o.onTyping?.();
    const pasted = this.pastes.feed(s, key ?? {});
    if (pasted === undefined) this.onKey(s, key);
    else if (pasted !== PASTING) this.paste(pasted);
  };

  private onKey(s: string | undefined, key: Key | undefined): void {
    const k = key ?? {};
    const ctrlC = Boolean(k.ctrl && k.name === 'c');
    // A lone Esc, as the keypress parser tells it from the start of an arrow key (its timeout).
    const esc = k.name === 'escape';
    if (this.mode === 'busy' || this.mode === 'idle') {
      if (esc) this.interrupt.escape();
      else this.typeAhead(s, k, ctrlC);
      return;
    }
    if (this.search) {
      this.searchKey(s, k);
      return;
    }
    // Esc at a question stops the work like Ctrl+C; at the prompt it does nothing.
    if (esc && this.mode === 'ask') {
      this.endAsk(null);
      this.interrupt.handler?.('esc');
      return;
    }
    if (ctrlC) {
      if (this.mode === 'ask') {
        this.endAsk(null);
        this.interrupt.handler?.('ctrl-c');
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
    if (ctrlC) this.interrupt.fire();
    else if (!this.typed.hold(s, k, this.buf.text.trim() !== '')) this.edit(s, k);
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
    const action = applyKey(b, s, k);
    switch (action) {
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
      case 'paste-image':
        // Only at the prompt: the REPL reads the clipboard, then gives the draft back.
        if (this.mode === 'read') this.finishRead({ kind: 'paste-image', draft: b.text });
        return;
      case 'clear':
        this.io.output.write('\x1b[H\x1b[2J');
        this.view.reset();
        break;
      case 'search':
        if (this.mode === 'read') this.search = new ReverseSearch(this.history.entries, b.text);
        break;
      case 'older':
      case 'newer':
      case 'up':
      case 'down':
        this.history.key(b, action, this.mode === 'read');
        break;
      default:
        break;
    }
    this.draw();
  }

  /** Enter answers a question; at the prompt it sends, or starts a new line (enterAtPrompt). */
  private enter(k: Key): void {
    if (this.mode === 'ask') {
      this.endAsk(this.buf.text);
      return;
    }
    enterAtPrompt(this.buf, k, this.enters, {
      reading: () => this.mode === 'read',
      submit: () => this.submit(),
      draw: () => this.draw(),
    });
  }

  private submit(): void {
    this.finishRead({ kind: 'line', text: this.buf.text });
  }

  private async tab(again: boolean): Promise<void> {
    if (!this.o.completer || this.mode !== 'read') return;
    const done = await completeAtCursor(this.buf, this.o.completer, () => this.mode === 'read');
    if (done === 'inserted') this.draw();
    if (done === 'inserted' || !done) return;
    this.lastTab = true;
    if (!again) return;
    // Second Tab: list the candidates (names from disk: shown, never executed) above the prompt.
    this.leavePrompt();
    this.io.output.write(`${done.map((h) => visible(h)).join('  ')}\n`);
    this.backToPrompt();
  }

  /** Leave the input as it is on screen (without the status line), the cursor below it. */
  private leavePrompt(): void {
    this.draw(false);
    this.view.leave();
  }

  /** Draw the prompt afresh below what was written since leavePrompt(). */
  private backToPrompt(): void {
    this.view.reset();
    this.draw();
  }

  private async openExternal(): Promise<void> {
    if (!this.o.externalEdit || this.mode !== 'read') return;
    this.leavePrompt();
    const edited = await this.o.externalEdit(this.buf.text);
    if (edited !== undefined) this.buf.set(edited.replace(/\n+$/, ''));
    this.backToPrompt();
  }

  private searchKey(s: string | undefined, k: Key): void {
    const search = this.search!;
    const action = searchAction(search, s, k);
    if (action === 'search') this.buf.set(search.match, search.cursor());
    else {
      this.search = undefined;
      this.buf.set(action === 'cancel' ? search.original : search.match);
      // Any other key accepts the match and then does its usual job (Enter sends it).
      if (action === 'accept') {
        this.edit(s, k);
        return;
      }
    }
    this.draw();
  }

  /** A paste: newlines kept in the text being edited (never sent by themselves). */
  private paste(raw: string): void {
    const text = raw.replace(/\r\n?/g, '\n');
    if (this.mode === 'ask') this.buf.insert(text.split('\n')[0]!);
    else if (this.mode === 'read' || !this.typed.submit) this.buf.insert(text.replace(/\n+$/, ''));
    else this.typed.push(text, { name: 'paste', sequence: text });
    this.draw();
  }

  private finishRead(result: ReadResult): void {
    const resolve = this.readResolve;
    this.readResolve = undefined;
    this.search = undefined;
    // The message stays on screen as typed, without the status line; the cursor goes below it.
    if (!this.closed) this.leavePrompt();
    this.mode = 'idle';
    this.buf.set('');
    resolve?.(result);
  }

  private endAsk(answer: string | null): void {
    const resolve = this.askResolve;
    if (!resolve) return;
    this.askResolve = undefined;
    if (!this.closed) this.leavePrompt();
    resolve(answer);
  }
}
