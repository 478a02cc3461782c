import { graphemes as splitGraphemes } from '../../support/graphemes.js';

/**
 * The text being edited and the cursor in it (a UTF-16 offset that always sits between grapheme
 * clusters, so Left, Right and Backspace never split a Chinese character, an emoji or a flag).
 * Newlines make a multi-line message; Up and Down move between its lines.
 */
export class TextBuffer {
  text = '';
  cursor = 0;

  set(text: string, cursor = text.length): void {
    this.text = text;
    this.cursor = Math.max(0, Math.min(cursor, text.length));
  }

  insert(s: string): void {
    this.text = this.text.slice(0, this.cursor) + s + this.text.slice(this.cursor);
    this.cursor += s.length;
  }

  private prevBoundary(): number {
    const before = splitGraphemes(this.text.slice(0, this.cursor));
    return this.cursor - (before.at(-1)?.length ?? 0);
  }

  private nextBoundary(): number {
    const first = splitGraphemes(this.text.slice(this.cursor, this.cursor + 64))[0];
    return this.cursor + (first?.length ?? 0);
  }

  left(): void {
    this.cursor = this.prevBoundary();
  }

  right(): void {
    this.cursor = this.nextBoundary();
  }

  backspace(): void {
    const at = this.prevBoundary();
    this.text = this.text.slice(0, at) + this.text.slice(this.cursor);
    this.cursor = at;
  }

  deleteForward(): void {
    const to = this.nextBoundary();
    this.text = this.text.slice(0, this.cursor) + this.text.slice(to);
  }

  /** Start of the line the cursor is on (a multi-line message has several). */
  lineStart(at = this.cursor): number {
    // lastIndexOf takes a negative start as 0: at 0, a draft whose first line is empty would
    // find its own first newline and put the line start after it.
    if (at <= 0) return 0;
    return this.text.lastIndexOf('\n', at - 1) + 1;
  }

  lineEnd(at = this.cursor): number {
    const i = this.text.indexOf('\n', at);
    return i < 0 ? this.text.length : i;
  }

  home(): void {
    this.cursor = this.lineStart();
  }

  end(): void {
    this.cursor = this.lineEnd();
  }

  get onFirstLine(): boolean {
    return this.lineStart() === 0;
  }

  get onLastLine(): boolean {
    return this.lineEnd() === this.text.length;
  }

  /** Move to the line above (or below), keeping the column as far as the line allows. */
  vertical(direction: -1 | 1): void {
    const start = this.lineStart();
    const column = splitGraphemes(this.text.slice(start, this.cursor)).length;
    const targetStart = direction < 0 ? this.lineStart(start - 1) : this.lineEnd() + 1;
    const targetEnd = this.lineEnd(targetStart);
    const target = splitGraphemes(this.text.slice(targetStart, targetEnd));
    this.cursor = targetStart + target.slice(0, column).join('').length;
  }

  /** Ctrl+U: delete from the start of the line to the cursor. */
  killBefore(): void {
    const start = this.lineStart();
    this.text = this.text.slice(0, start) + this.text.slice(this.cursor);
    this.cursor = start;
  }

  /** Ctrl+K: delete from the cursor to the end of the line. */
  killAfter(): void {
    this.text = this.text.slice(0, this.cursor) + this.text.slice(this.lineEnd());
  }

  private wordStart(): number {
    const before = this.text.slice(0, this.cursor);
    const m = /(\S+\s*|\s+)$/u.exec(before);
    return m ? this.cursor - m[0].length : this.cursor;
  }

  /** Ctrl+W / Alt+Backspace: delete the word before the cursor. */
  killWord(): void {
    const at = this.wordStart();
    this.text = this.text.slice(0, at) + this.text.slice(this.cursor);
    this.cursor = at;
  }

  wordLeft(): void {
    this.cursor = this.wordStart();
  }

  wordRight(): void {
    const m = /^(\s*\S+|\s+)/u.exec(this.text.slice(this.cursor));
    if (m) this.cursor += m[0].length;
  }
}
