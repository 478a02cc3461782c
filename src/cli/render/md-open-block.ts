import type { Token, Tokens } from 'marked';
import { pushAll } from '../../support/arrays.js';
import { highlight } from './highlight.js';
import type { BlockContext } from './markdown.js';
import { rowCells } from './table.js';
import { LiveTable } from './table-stream.js';
import type { Theme } from './theme.js';
import { wrapSpans } from './wrap.js';

/**
 * A block that can grow without end while it streams — a table or a fenced code block —
 * followed one complete line at a time, so each update costs only what arrived since the last.
 */
export interface OpenBlock {
  /** Something of this block has been committed already (so its separator has been printed). */
  started: boolean;
  /**
   * Take the complete lines at the start of `text` (the part of the block not taken yet; all of
   * it when `final`). Returns lines to commit, how many characters were taken, and `ended` once
   * the block is over (the text after `consumed` belongs to what follows). `maxLines`: the most
   * lines its live view may hold (0: nothing is shown live, so nothing settles before the end).
   */
  feed(text: string, final: boolean, ctx: BlockContext, maxLines: number): FeedStep;
  /** The live view of what is not committed, at most `maxLines` lines. */
  live(ctx: BlockContext, maxLines: number): string[];
}

export interface FeedStep {
  commit: string[];
  consumed: number;
  ended: boolean;
}

/** The next line of `text` from `from`: its text and where the one after starts (or none yet). */
function nextLine(text: string, from: number, final: boolean): { line: string; next: number } | undefined {
  const nl = text.indexOf('\n', from);
  if (nl >= 0) return { line: text.slice(from, nl), next: nl + 1 };
  if (final && from < text.length) return { line: text.slice(from), next: text.length };
  return undefined;
}

function lineEnd(text: string, from: number): number {
  const nl = text.indexOf('\n', from);
  return nl < 0 ? -1 : nl + 1;
}

/** A table whose header and delimiter row are complete (`text` starts with it): rows are read one line at a time. */
export function openTable(
  token: Tokens.Table,
  text: string,
  theme: Theme,
  lex: (src: string) => Token[],
): OpenBlock | undefined {
  const headerEnd = lineEnd(text, 0);
  const delimiterEnd = headerEnd < 0 ? -1 : lineEnd(text, headerEnd);
  if (delimiterEnd < 0 || !token.header.length) return undefined;
  return new OpenTable(text.slice(0, delimiterEnd), token, theme, lex);
}

class OpenTable implements OpenBlock {
  started = false;
  private headTaken = false;
  private readonly table: LiveTable;

  constructor(
    /** The header and delimiter lines: each new line is read as a row under them. */
    private readonly head: string,
    token: Tokens.Table,
    theme: Theme,
    private readonly lex: (src: string) => Token[],
  ) {
    const cols = token.header.length;
    this.table = new LiveTable(
      rowCells(token.header, cols, theme),
      Array.from({ length: cols }, (_, i) => token.align[i] ?? null),
      theme,
    );
  }

  feed(text: string, final: boolean, ctx: BlockContext, maxLines: number): FeedStep {
    const { consumed, ended } = this.take(text, final, ctx);
    if (ended) return { commit: this.table.end(ctx.width), consumed, ended };
    return { commit: maxLines > 0 ? this.table.settle(ctx.width, maxLines) : [], consumed, ended };
  }

  /** Add the rows at the start of `text`; `ended` once a line that is not a row (or `final`) ends the table. */
  private take(text: string, final: boolean, ctx: BlockContext): { consumed: number; ended: boolean } {
    let at = this.headTaken ? 0 : this.head.length;
    this.headTaken = true;
    for (let next = nextLine(text, at, final); next; next = nextLine(text, at, final)) {
      const row = next.line.trim() === '' ? undefined : this.row(next.line);
      if (!row) return { consumed: at, ended: true };
      this.table.add(rowCells(row, this.table.data.header.length, ctx.theme));
      at = next.next;
    }
    return { consumed: at, ended: final };
  }

  /** The cells of `line` if, under this header, it continues the table (as marked would read it). */
  private row(line: string): Tokens.TableCell[] | undefined {
    const tokens = this.lex(this.head + line).filter((t) => t.type !== 'space');
    const table = tokens[0] as Tokens.Table | undefined;
    if (tokens.length !== 1 || table?.type !== 'table' || table.rows.length !== 1) return undefined;
    return table.rows[0];
  }

  live(ctx: BlockContext, maxLines: number): string[] {
    return this.table.live(ctx.width, maxLines);
  }
}

const FENCE = /^ {0,3}(`{3,}|~{3,})[^\n]*\n/;

/** A fenced code block whose opening line is complete: each finished line is committed at once. */
export function openCode(token: Tokens.Code, text: string): OpenBlock | undefined {
  const m = FENCE.exec(text.slice(0, 1000));
  if (!m) return undefined;
  const fence = m[1]!;
  const close = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
  return new OpenCode(token.lang?.trim() || undefined, close, m[0].length);
}

class OpenCode implements OpenBlock {
  started = false;
  private opened = false;
  /** Blank lines held back: trailing blank lines of a block are not shown. */
  private blanks = 0;
  private partial = '';

  constructor(
    private readonly lang: string | undefined,
    private readonly close: RegExp,
    /** Length of the opening fence line, taken on the first feed. */
    private fenceLength: number,
  ) {}

  feed(text: string, final: boolean, ctx: BlockContext): FeedStep {
    const commit: string[] = [];
    if (!this.opened) {
      pushAll(commit, codeHeader(this.lang, ctx.theme));
      this.opened = true;
    }
    let at = this.fenceLength;
    this.fenceLength = 0;
    for (let next = nextLine(text, at, final); next; next = nextLine(text, at, final)) {
      at = next.next;
      if (this.close.test(next.line))
        return { commit: [...commit, ...codeFooter(ctx.theme)], consumed: at, ended: true };
      if (next.line.trim() === '') {
        this.blanks += 1;
        continue;
      }
      for (; this.blanks > 0; this.blanks--) pushAll(commit, codeLine('', this.lang, ctx));
      pushAll(commit, codeLine(next.line, this.lang, ctx));
    }
    if (final) return { commit: [...commit, ...codeFooter(ctx.theme)], consumed: at, ended: true };
    this.partial = text.slice(at);
    return { commit, consumed: at, ended: false };
  }

  live(ctx: BlockContext, maxLines: number): string[] {
    if (!this.partial || this.close.test(this.partial) || maxLines <= 0) return [];
    return codeLine(this.partial, this.lang, ctx).slice(-maxLines);
  }
}

/** The line above a code block: its language (with colour) or the opening fence (without). */
export function codeHeader(lang: string | undefined, theme: Theme): string[] {
  if (!theme.enabled) return [`\`\`\`${lang ?? ''}`];
  return lang ? [theme.dim(`  ${lang}`)] : [];
}

export function codeFooter(theme: Theme): string[] {
  return theme.enabled ? [] : ['```'];
}

/** One source line of code, highlighted on its own and wrapped anywhere. */
export function codeLine(line: string, lang: string | undefined, ctx: BlockContext): string[] {
  const { theme, width } = ctx;
  if (!theme.enabled) return wrapSpans([{ text: line }], width, { anywhere: true });
  const spans = highlight(line, lang, theme)[0] ?? [];
  return wrapSpans(spans, width, { first: '  ', rest: '  ', anywhere: true });
}
