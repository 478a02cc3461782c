import { createInterface, type Interface, type Key } from 'node:readline';
import type { Completion } from './complete.js';
import type { History } from './history.js';
import { continues } from './input.js';
import { ReverseSearch } from './search.js';

/** The terminal streams the editor reads keys from and echoes to. */
export interface EditorStreams {
  input: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?(mode: boolean): unknown };
  output: NodeJS.WritableStream & { columns?: number; isTTY?: boolean };
}

export type ReadResult = { kind: 'line'; text: string } | { kind: 'eof' } | { kind: 'interrupt' };

export interface EditorOptions {
  history: History;
  prompt: () => string;
  /** Prompt of a continued line (after a trailing `\`). */
  continuation: string;
  completer?: (line: string) => Promise<Completion>;
  /** Ask the terminal to mark pastes (\x1b[?2004h), so pasted newlines do not send. */
  bracketedPaste?: boolean;
  /** Prompt shown during Ctrl+R search; `failed` when nothing matches. */
  searchPrompt?: (query: string, failed: boolean) => string;
}

type Mode = 'idle' | 'read' | 'ask' | 'busy';
type Pending = { keys: [string | undefined, Key | undefined] } | { paste: string };

/** readline's line state, which it exposes as properties but does not type as writable. */
interface LineState {
  line: string;
  cursor: number;
  history: string[];
}

/**
 * The input line of the REPL, on Node's readline (so native scrollback, copy/paste and CJK input
 * methods behave as in any shell). On top of readline it adds: bracketed paste (a pasted block
 * with newlines stays one message, shown for editing, never sent by its newlines), `\`
 * continuation lines, Ctrl+R reverse search, Ctrl+C/Ctrl+D semantics, history kept in a
 * `History` (multi-line messages as one entry; question answers never stored), and a busy mode
 * in which keys are held back for the next prompt while Ctrl+C interrupts the work.
 *
 * It works by taking over readline's keypress listener: every key passes through `onKey()`,
 * which handles its own keys and hands the rest to readline.
 */
export class LineEditor {
  readonly rl: Interface;
  private readonly readlineKeypress: (s: string | undefined, key: Key | undefined) => void;
  private readonly ownKeypress = (s: string | undefined, key: Key | undefined) => this.onKey(s, key);
  private mode: Mode = 'idle';
  private parts: string[] = [];
  private pendingLines: string[] = [];
  private flushScheduled = false;
  private pasting = false;
  private pasteBuffer = '';
  private typeahead: Pending[] = [];
  private search: ReverseSearch | undefined;
  private readResolve: ((r: ReadResult) => void) | undefined;
  private askResolve: ((answer: string | null) => void) | undefined;
  private onBusyInterrupt: (() => void) | undefined;
  private interruptPending = false;
  private closed = false;

  constructor(
    private readonly io: EditorStreams,
    private readonly o: EditorOptions,
  ) {
    const before = new Set(io.input.listeners('keypress'));
    this.rl = createInterface({
      input: io.input,
      output: io.output,
      terminal: true,
      history: o.history.entries(),
      historySize: o.history.size + 1000,
      removeHistoryDuplicates: false,
      tabSize: 4,
      ...(o.completer ? { completer: this.completer } : {}),
    });
    const added = io.input.listeners('keypress').filter((l) => !before.has(l));
    const rlListener = added[added.length - 1] as
      | ((s: string | undefined, key: Key | undefined) => void)
      | undefined;
    if (!rlListener) throw new Error('readline did not listen for keys');
    this.readlineKeypress = rlListener;
    io.input.removeListener('keypress', rlListener);
    io.input.on('keypress', this.ownKeypress);
    this.rl.on('line', (line) => this.onLine(line));
    this.rl.on('close', () => this.onClose());
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

  private readonly completer = (line: string, cb: (err: null, result: Completion) => void): void => {
    this.o.completer!(line).then(
      (r) => cb(null, r),
      () => cb(null, [[], line]),
    );
  };

  private get state(): LineState {
    return this.rl as unknown as LineState;
  }

  /** Read one message: a line, continued lines joined, or a paste. */
  read(): Promise<ReadResult> {
    if (this.closed) return Promise.resolve({ kind: 'eof' });
    return new Promise((resolve) => {
      this.readResolve = resolve;
      this.mode = 'read';
      this.interruptPending = false;
      this.parts = [];
      this.state.history = this.o.history.entries();
      this.rl.setPrompt(this.o.prompt());
      this.setLine('');
      this.replayTypeahead();
    });
  }

  /** Ask a one-line question while the agent is busy (a permission prompt). Null when cancelled. */
  ask(question: string, signal?: AbortSignal): Promise<string | null> {
    if (this.closed || signal?.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      const previous = this.mode;
      const onAbort = () => this.endAsk(null);
      this.askResolve = (answer) => {
        signal?.removeEventListener('abort', onAbort);
        this.mode = previous === 'ask' ? 'busy' : previous;
        this.state.history = this.o.history.entries();
        resolve(answer);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.mode = 'ask';
      this.rl.setPrompt(question);
      this.setLine('');
    });
  }

  /** While the agent works: keys wait for the next prompt; Ctrl+C calls `onInterrupt`. */
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

  close(): void {
    if (this.closed) return;
    if (this.o.bracketedPaste) this.pasteOff();
    this.rl.close();
  }

  // — keys —

  private onKey(s: string | undefined, key: Key | undefined): void {
    const k = key ?? {};
    if (this.pasting) {
      if (k.name === 'paste-end') {
        this.pasting = false;
        const text = this.pasteBuffer;
        this.pasteBuffer = '';
        this.paste(text);
      } else {
        this.pasteBuffer += s ?? k.sequence ?? '';
      }
      return;
    }
    if (k.name === 'paste-start') {
      this.pasting = true;
      this.pasteBuffer = '';
      return;
    }
    const ctrlC = k.ctrl && k.name === 'c';
    if (this.mode === 'busy' || this.mode === 'idle') {
      if (!ctrlC) this.typeahead.push({ keys: [s, key] });
      else if (this.onBusyInterrupt) this.onBusyInterrupt();
      // Between a line and the work it starts: stop that work as soon as it begins.
      else this.interruptPending = true;
      return;
    }
    if (this.search) {
      this.searchKey(s, k, key);
      return;
    }
    if (this.mode === 'ask') {
      if (ctrlC) {
        this.endAsk(null);
        this.onBusyInterrupt?.();
        return;
      }
      if (k.ctrl && k.name === 'd' && this.state.line === '') {
        this.endAsk(null);
        return;
      }
      this.forward(s, key);
      return;
    }
    // mode === 'read'
    if (ctrlC) {
      if (this.state.line !== '' || this.parts.length) {
        this.parts = [];
        this.io.output.write('\n');
        this.rl.setPrompt(this.o.prompt());
        this.setLine('');
      } else {
        this.finishRead({ kind: 'interrupt' });
      }
      return;
    }
    if (k.ctrl && k.name === 'd' && this.state.line === '') {
      this.io.output.write('\n');
      if (this.parts.length) this.finishRead({ kind: 'line', text: this.parts.join('\n') });
      else this.finishRead({ kind: 'eof' });
      return;
    }
    if (k.ctrl && k.name === 'r') {
      this.search = new ReverseSearch(
        this.state.history.length ? this.state.history : this.o.history.entries(),
        this.state.line,
      );
      this.showSearch();
      return;
    }
    this.forward(s, key);
  }

  /**
   * Hand a key to readline — except text typed in the middle of the line. Node's readline (20.x
   * and 24.x, nodejs/node#60446) appends every character but the last of a multi-character input
   * chunk at the end of the line whatever the cursor, and a CJK input method commits a whole word
   * as one chunk: 在中间插入 would land scattered. Such text is inserted here instead.
   */
  private forward(s: string | undefined, key: Key | undefined): void {
    const k = key ?? {};
    const { line, cursor } = this.state;
    const printable = s !== undefined && s.length > 0 && !k.ctrl && !k.meta && !/[\x00-\x1f\x7f]/.test(s);
    if (printable && cursor < line.length) {
      this.setLine(line.slice(0, cursor) + s + line.slice(cursor), cursor + s.length);
      return;
    }
    this.readlineKeypress(s, key);
  }

  private searchKey(s: string | undefined, k: Key, key: Key | undefined): void {
    const search = this.search!;
    if (k.ctrl && k.name === 'r') {
      search.next();
      this.showSearch();
      return;
    }
    if ((k.ctrl && (k.name === 'g' || k.name === 'c')) || k.name === 'escape') {
      this.endSearch(search.original);
      return;
    }
    if (k.name === 'backspace') {
      search.backspace();
      this.showSearch();
      return;
    }
    const printable = s !== undefined && !k.ctrl && !k.meta && s.length > 0 && !/[\x00-\x1f\x7f]/.test(s);
    if (printable) {
      search.type(s);
      this.showSearch();
      return;
    }
    // Any other key accepts the match and then does its usual job (Enter sends it).
    this.endSearch(search.match);
    this.forward(s, key);
  }

  private showSearch(): void {
    const s = this.search!;
    const prompt = this.o.searchPrompt
      ? this.o.searchPrompt(s.query, s.failed)
      : `(${s.failed ? 'failed ' : ''}reverse-i-search)'${s.query}': `;
    this.rl.setPrompt(prompt);
    this.setLine(s.match, s.cursor());
  }

  private endSearch(line: string): void {
    this.search = undefined;
    this.rl.setPrompt(this.parts.length ? this.o.continuation : this.o.prompt());
    this.setLine(line);
  }

  /** A paste: newlines kept in the line being edited (never sent by themselves). */
  private paste(raw: string): void {
    const text = raw.replace(/\r\n?/g, '\n');
    if (this.mode === 'busy' || this.mode === 'idle') {
      this.typeahead.push({ paste: text });
      return;
    }
    const insert = this.mode === 'ask' ? text.split('\n')[0]! : text.replace(/\n+$/, '');
    const { line, cursor } = this.state;
    this.setLine(line.slice(0, cursor) + insert + line.slice(cursor), cursor + insert.length);
  }

  private replayTypeahead(): void {
    const pending = this.typeahead;
    this.typeahead = [];
    for (const p of pending) {
      if ('paste' in p) this.paste(p.paste);
      else this.onKey(p.keys[0], p.keys[1]);
      if (this.mode !== 'read') {
        // A replayed Enter sent a message: keep the rest for the prompt after it.
        this.typeahead.push(...pending.slice(pending.indexOf(p) + 1));
        return;
      }
    }
  }

  private setLine(text: string, cursor = text.length): void {
    this.state.line = text;
    this.state.cursor = cursor;
    this.rl.prompt(true);
  }

  // — lines —

  private onLine(line: string): void {
    if (this.mode === 'ask') {
      this.endAsk(line);
      return;
    }
    if (this.mode !== 'read') return;
    this.pendingLines.push(line);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // Lines that arrive in the same input chunk were pasted (a terminal without bracketed paste).
    setImmediate(() => this.flushLines());
  }

  private flushLines(): void {
    this.flushScheduled = false;
    const lines = this.pendingLines;
    this.pendingLines = [];
    if (!lines.length || this.mode !== 'read') return;
    if (lines.length > 1) {
      const rest = this.state.line;
      this.rl.setPrompt(this.parts.length ? this.o.continuation : this.o.prompt());
      this.setLine(lines.join('\n') + (rest ? `\n${rest}` : ''));
      return;
    }
    const line = lines[0]!;
    const cont = continues(line);
    if (cont !== undefined) {
      this.parts.push(cont);
      this.rl.setPrompt(this.o.continuation);
      this.setLine('');
      return;
    }
    const text = [...this.parts, line].join('\n');
    this.parts = [];
    this.finishRead({ kind: 'line', text });
  }

  private finishRead(result: ReadResult): void {
    const resolve = this.readResolve;
    this.readResolve = undefined;
    this.mode = 'idle';
    this.search = undefined;
    this.state.history = this.o.history.entries();
    resolve?.(result);
  }

  private endAsk(answer: string | null): void {
    const resolve = this.askResolve;
    if (!resolve) return;
    this.askResolve = undefined;
    if (answer === null && !this.closed) this.io.output.write('\n');
    resolve(answer);
  }

  private onClose(): void {
    this.closed = true;
    this.io.input.removeListener('keypress', this.ownKeypress);
    this.endAsk(null);
    if (this.readResolve) this.finishRead({ kind: 'eof' });
  }
}
