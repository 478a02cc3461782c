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

  print(lines: string[]): void {
    if (!lines.length) return;
    const body = lines.map((l) => `${l}\n`).join('');
    if (!this.live.length) {
      this.term.write(body);
      return;
    }
    const live = this.live;
    this.term.write(SYNC_START + this.erase(0) + body + this.draw(live) + SYNC_END);
  }

  setLive(lines: string[]): void {
    const cols = this.term.columns();
    const next = lines.map((l) => cutToWidth(l, Math.max(1, cols - 1)));
    let same = 0;
    if (cols === this.drawnColumns) {
      while (same < next.length && same < this.live.length && next[same] === this.live[same]) same++;
      if (same === next.length && same === this.live.length) return;
    }
    this.term.write(
      SYNC_START + this.erase(cols === this.drawnColumns ? same : 0) + this.draw(next, same) + SYNC_END,
    );
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
