import { pushAll } from '../../support/arrays.js';
import type { Theme } from './theme.js';
import { wrapSpans } from './wrap.js';

/**
 * The model's reasoning as it streams: dimmed and indented. Complete lines can be committed
 * (verbose) while the unfinished one stays live; `tail()` gives the last few lines for the
 * collapsed view.
 */
export class ThinkingText {
  private text = '';
  private committedUpTo = 0;
  readonly started: number;

  constructor(
    private readonly theme: Theme,
    now: number,
  ) {
    this.started = now;
  }

  push(delta: string): void {
    this.text += delta;
  }

  get empty(): boolean {
    return this.text.trim() === '';
  }

  private wrap(s: string, width: number): string[] {
    const lines: string[] = [];
    for (const para of s.split('\n')) {
      pushAll(lines, wrapSpans([{ text: para, paint: this.theme.dim }], width, { first: '  ', rest: '  ' }));
    }
    return lines;
  }

  /** Lines completed since the last call (everything when `final`), and the live remainder. */
  take(width: number, final: boolean): { commit: string[]; live: string[] } {
    const rest = this.text.slice(this.committedUpTo);
    const nl = final ? rest.length : rest.lastIndexOf('\n') + 1;
    const done = rest.slice(0, nl);
    this.committedUpTo += nl;
    const commit = done ? this.wrap(done.replace(/\n$/, ''), width) : [];
    const remainder = rest.slice(nl);
    return { commit, live: remainder ? this.wrap(remainder, width) : [] };
  }

  /** The last `n` wrapped lines of everything so far (the collapsed view while thinking). */
  tail(width: number, n: number): string[] {
    const trimmed = this.text.trimEnd();
    const from = Math.max(0, trimmed.length - width * n * 2);
    const lines = this.wrap(trimmed.slice(from).replace(/^\n+/, ''), width).filter((l) => l.trim() !== '');
    return lines.slice(-n);
  }
}
