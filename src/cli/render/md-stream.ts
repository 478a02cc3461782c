import type { Token, Tokens } from 'marked';
import { pushAll } from '../../support/arrays.js';
import type { BlockContext } from './markdown.js';
import { type OpenBlock, openCode, openTable } from './md-open-block.js';

/**
 * Streaming Markdown: text arrives in deltas; blocks that are finished (followed by another
 * block) are rendered once and committed; only the unfinished last block is shown as the live
 * area. Most blocks are short and simply rendered again on each update. The two that can grow
 * without end — tables and fenced code — are followed line by line instead (md-open-block.ts),
 * so each update costs what arrived, not what came before. When the live block grows taller than
 * the screen, its top lines are committed (they no longer change: wrapping is greedy and code is
 * line by line); so is a table, in columns settled then, each later row printed once.
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
  /**
   * The text not committed yet. Committed text is dropped: a long answer is never searched or
   * copied again (searching a string built by appending makes V8 flatten all of it each time).
   */
  private pending = '';
  private blank = true;
  /** Blocks committed so far (a blank line goes before every block but the first). */
  private blocks = 0;
  /** Lines of the current live block already committed because it outgrew the screen. */
  private frozen = 0;
  /** A table or code block being followed line by line, starting at the start of `pending`. */
  private open: OpenBlock | undefined;

  /**
   * `context`, when given, lets tables and fenced code be followed incrementally (they need the
   * width and theme); without it every update re-renders the unfinished block with `render`.
   */
  constructor(
    private readonly lex: Lexer,
    private readonly render: BlockRenderer,
    private readonly context?: () => BlockContext,
  ) {}

  push(delta: string): void {
    this.pending += delta;
    if (this.blank && delta.trim()) this.blank = false;
  }

  get empty(): boolean {
    return this.blank;
  }

  /**
   * Render what changed. `final`: the text is complete, so every block is committed.
   * `maxLive`: most lines the live area may hold (0 = show nothing live; commit only finished blocks).
   */
  update(final: boolean, maxLive: number): StreamUpdate {
    const commit: string[] = [];
    for (;;) {
      if (this.open) {
        const live = this.followOpen(final, maxLive, commit);
        if (live) return { commit, live };
      }
      const live = this.updateBlocks(final, maxLive, commit);
      if (!this.open) return { commit, live };
    }
  }

  /** Feed new complete lines to the open block; `undefined` once it has ended (and is committed). */
  private followOpen(final: boolean, maxLive: number, commit: string[]): string[] | undefined {
    const open = this.open!;
    const ctx = this.context!();
    const gap = !open.started && this.blocks > 0 ? [''] : [];
    const step = open.feed(this.pending, final, ctx, maxLive - gap.length);
    if (step.consumed) this.pending = this.pending.slice(step.consumed);
    if (step.commit.length) {
      if (!open.started && this.blocks > 0) commit.push('');
      pushAll(commit, step.commit);
      open.started = true;
    }
    if (!step.ended) {
      if (maxLive <= 0) return [];
      const space = open.started ? [] : gap;
      return [...space, ...open.live(ctx, maxLive - space.length)];
    }
    this.open = undefined;
    this.blocks += 1;
    this.frozen = 0;
    return undefined;
  }

  /** The general path: lex the unfinished text, commit finished blocks, render the last one. */
  private updateBlocks(final: boolean, maxLive: number, commit: string[]): string[] {
    const rest = this.pending;
    const content = this.locate(rest).filter((b) => !SKIP.has(b.token.type));
    const finished = final ? content : content.slice(0, -1);
    for (const [k, b] of finished.entries()) {
      const lines = this.withSeparator(this.render(b.token));
      if (!lines.length) continue;
      pushAll(commit, lines.slice(k === 0 ? this.frozen : 0));
      this.blocks += 1;
    }
    if (finished.length) {
      this.frozen = 0;
      this.pending = rest.slice(finished[finished.length - 1]!.end);
    }
    const last = final ? undefined : content[content.length - 1];
    if (!last) return [];
    if (this.context && this.frozen === 0) {
      const consumed = rest.length - this.pending.length;
      const open = this.tryOpen(last.token, this.pending, last.start - consumed);
      if (open) {
        this.pending = this.pending.slice(last.start - consumed);
        this.open = open;
        return [];
      }
    }
    const lines = this.withSeparator(this.render(last.token));
    let live = lines.slice(this.frozen);
    if (maxLive > 0 && live.length > maxLive) {
      const extra = live.length - maxLive;
      pushAll(commit, live.slice(0, extra));
      this.frozen += extra;
      live = live.slice(extra);
    }
    return maxLive > 0 ? live : [];
  }

  private tryOpen(token: Token, text: string, at: number): OpenBlock | undefined {
    const theme = this.context!().theme;
    if (token.type === 'table') return openTable(token as Tokens.Table, text.slice(at), theme, this.lex);
    if (token.type === 'code') return openCode(token as Tokens.Code, text.slice(at));
    return undefined;
  }

  private withSeparator(lines: string[]): string[] {
    return lines.length && this.blocks > 0 ? ['', ...lines] : lines;
  }

  /** The tokens of `src` with where each one starts and ends in it. */
  private locate(src: string): { token: Token; start: number; end: number }[] {
    const out: { token: Token; start: number; end: number }[] = [];
    let pos = 0;
    for (const token of this.lex(src)) {
      const at = token.raw ? src.indexOf(token.raw, pos) : -1;
      const start = at >= 0 ? at : pos;
      pos = start + token.raw.length;
      out.push({ token, start, end: pos });
    }
    return out;
  }
}
