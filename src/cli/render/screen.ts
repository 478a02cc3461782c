import { cutToWidth, textWidth } from '../../support/width.js';

/** Where the screen draws: a terminal stream and its size. */
export interface Terminal {
  write(s: string): void;
  columns(): number;
  rows(): number;
}

const SYNC_START = '\x1b[?2026h';
const SYNC_END = '\x1b[?2026l';

/**
 * Output above, a small live area below. `print()` adds lines permanently (terminal scrollback
 * keeps them); `setLive()` replaces the live lines, rewriting only from the first line that
 * changed, inside a synchronized update so the terminal never shows a half-drawn frame. Live
 * lines are clipped to the width so each takes exactly one row; the cursor rests at the start of
 * the row below them.
 */
export class Screen {
  private live: string[] = [];
  /** Display widths of the live lines as drawn (to count rows after a resize). */
  private widths: number[] = [];
  private drawnColumns: number;

  constructor(private readonly term: Terminal) {
    this.drawnColumns = term.columns();
  }

  /** Most lines the live area should hold so it never scrolls out of reach. */
  maxLive(): number {
    return Math.max(1, this.term.rows() - 2);
  }

  get liveLines(): readonly string[] {
    return this.live;
  }

  /**
   * Add `lines` above the live area. `live`, when given, is the live area drawn under them (what
   * the caller would set next): drawing the old live lines only to replace them at once doubled
   * what a streamed answer wrote to the terminal.
   */
  print(lines: string[], live?: string[]): void {
    if (!lines.length) {
      if (live) this.setLive(live);
      return;
    }
    const body = lines.map((l) => `${l}\n`).join('');
    const next = live ? this.fitToWidth(live) : [...this.live];
    if (!this.live.length && !next.length) {
      this.term.write(body);
      return;
    }
    // Live lines that become permanent unchanged are already on the screen: keep them rather than
    // erase and write them again (a finished paragraph or list moved up into the output).
    // The last live line, when it only grew, gets just its new text.
    const cols = this.term.columns();
    let kept = cols === this.drawnColumns ? this.samePrefix(lines) : 0;
    let grown = '';
    if (cols === this.drawnColumns && kept === this.live.length - 1 && kept < lines.length) {
      grown = this.growLast(lines[kept]!, cols) ?? '';
      if (grown) kept++;
    }
    const rest = kept
      ? lines
          .slice(kept)
          .map((l) => `${l}\n`)
          .join('')
      : body;
    this.term.write(SYNC_START + grown + this.erase(kept) + rest + this.draw(next) + SYNC_END);
  }

  /** How many of `lines` are, from the top, the live lines exactly as drawn. */
  private samePrefix(lines: string[]): number {
    let n = 0;
    while (n < lines.length && n < this.live.length && lines[n] === this.live[n]) n++;
    return n;
  }

  /** Live lines clipped to the width, so each takes exactly one row. */
  private fitToWidth(lines: string[]): string[] {
    const cols = this.term.columns();
    return lines.map((l) => cutToWidth(l, Math.max(1, cols - 1)));
  }

  setLive(lines: string[]): void {
    const cols = this.term.columns();
    const next = this.fitToWidth(lines);
    let same = 0;
    if (cols === this.drawnColumns) {
      while (same < next.length && same < this.live.length && next[same] === this.live[same]) same++;
      if (same === next.length && same === this.live.length) return;
      if (this.appendLast(next, same, cols)) return;
    }
    this.term.write(
      SYNC_START + this.erase(cols === this.drawnColumns ? same : 0) + this.draw(next, same) + SYNC_END,
    );
  }

  /**
   * The usual frame of a streamed answer: only the last live line grew, by text appended to it.
   * Then only the new text is written (up one row, to the old end, the text, back down), not the
   * whole line: a paced answer wrote 3.8× its bytes to the terminal (issue 31: ≤ 3×). Only when
   * the old line ends in plain text (no escape sequence that the new text would follow) and the
   * line still fits its row.
   */
  private appendLast(next: string[], same: number, cols: number): boolean {
    if (same !== this.live.length - 1 || next.length !== this.live.length) return false;
    const grown = this.growLast(next[same]!, cols);
    if (grown) this.term.write(grown);
    return grown !== undefined;
  }

  /**
   * When `now` is the last live line with text appended (the old line ending in plain text, so
   * the new text cannot follow an open escape sequence, and still fitting its row): the bytes that
   * write only that text, from the row below the live area and back to it. The live line is
   * updated as if drawn.
   */
  private growLast(now: string, cols: number): string | undefined {
    const last = this.live.length - 1;
    const old = this.live[last];
    if (!old || !now.startsWith(old) || /\x1b\[[0-9;]*m$/.test(old)) return undefined;
    const width = textWidth(now);
    if (width >= cols || this.widths[last]! >= cols) return undefined;
    const added = now.slice(old.length);
    const bytes = `\x1b[1A\x1b[${this.widths[last]! + 1}G${added}\r\n`;
    this.live[last] = now;
    this.widths[last] = width;
    return bytes;
  }

  clear(): void {
    if (!this.live.length) return;
    this.term.write(this.erase(0));
    this.live = [];
    this.widths = [];
  }

  /** Move up over the live lines from index `from` on and clear to the end of the screen. */
  private erase(from: number): string {
    const cols = Math.max(1, this.term.columns());
    let rows = 0;
    for (let i = from; i < this.widths.length; i++) rows += Math.max(1, Math.ceil(this.widths[i]! / cols));
    this.live = this.live.slice(0, from);
    this.widths = this.widths.slice(0, from);
    return rows ? `\r\x1b[${rows}A\x1b[J` : '\r\x1b[J';
  }

  private draw(lines: string[], from = 0): string {
    const part = lines.slice(from);
    this.live = [...this.live.slice(0, from), ...part];
    this.widths = [...this.widths.slice(0, from), ...part.map(textWidth)];
    this.drawnColumns = this.term.columns();
    return part.map((l) => `${l}\n`).join('');
  }
}
