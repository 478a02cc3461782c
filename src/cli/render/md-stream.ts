import type { Token } from 'marked';

/**
 * Streaming Markdown: text arrives in deltas; blocks that are finished (followed by another
 * block) are rendered once and committed; only the unfinished last block is rendered again on
 * each update and shown as the live area. When the live block grows taller than the screen, its
 * top lines are committed too (they no longer change: wrapping is greedy and code is line by line).
 */
export interface StreamUpdate {
  /** Lines to print permanently, in order. */
  commit: string[];
  /** Lines of the unfinished block, to draw below them (replacing the previous live lines). */
  live: string[];
}

export type Lexer = (src: string) => Token[];
export type BlockRenderer = (tok: Token) => string[];

const SKIP = new Set(['space', 'def']);

export class MarkdownStream {
  private text = '';
  /** Where the unfinished part of `text` starts. */
  private offset = 0;
  /** Blocks committed so far (a blank line goes before every block but the first). */
  private blocks = 0;
  /** Lines of the current live block already committed because it outgrew the screen. */
  private frozen = 0;

  constructor(
    private readonly lex: Lexer,
    private readonly render: BlockRenderer,
  ) {}

  push(delta: string): void {
    this.text += delta;
  }

  get source(): string {
    return this.text;
  }

  get empty(): boolean {
    return this.text.trim() === '';
  }

  /**
   * Render what changed. `final`: the text is complete, so every block is committed.
   * `maxLive`: most lines the live area may hold (0 = show nothing live; commit only finished blocks).
   */
  update(final: boolean, maxLive: number): StreamUpdate {
    const rest = this.text.slice(this.offset);
    const located = this.locate(rest);
    const content = located.filter((b) => !SKIP.has(b.token.type));
    const commit: string[] = [];
    const finished = final ? content : content.slice(0, -1);
    for (const [k, b] of finished.entries()) {
      const lines = this.withSeparator(this.render(b.token));
      if (!lines.length) continue;
      commit.push(...lines.slice(k === 0 ? this.frozen : 0));
      this.blocks += 1;
    }
    if (finished.length) {
      this.frozen = 0;
      this.offset += finished[finished.length - 1]!.end;
    }
    const last = final ? undefined : content[content.length - 1];
    if (!last) return { commit, live: [] };
    const lines = this.withSeparator(this.render(last.token));
    let live = lines.slice(this.frozen);
    if (maxLive > 0 && live.length > maxLive) {
      const extra = live.length - maxLive;
      commit.push(...live.slice(0, extra));
      this.frozen += extra;
      live = live.slice(extra);
    }
    return { commit, live: maxLive > 0 ? live : [] };
  }

  private withSeparator(lines: string[]): string[] {
    return lines.length && this.blocks > 0 ? ['', ...lines] : lines;
  }

  /** The tokens of `src` with where each one ends in it. */
  private locate(src: string): { token: Token; end: number }[] {
    const out: { token: Token; end: number }[] = [];
    let pos = 0;
    for (const token of this.lex(src)) {
      const at = token.raw ? src.indexOf(token.raw, pos) : -1;
      const start = at >= 0 ? at : pos;
      pos = start + token.raw.length;
      out.push({ token, end: pos });
    }
    return out;
  }
}
