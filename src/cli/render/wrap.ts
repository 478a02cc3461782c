import { graphemes } from '../../support/graphemes.js';
import { textWidth } from '../../support/width.js';
import type { Paint } from './theme.js';

/** A run of text with one look. Wrapping works on the text; the paint is applied per line. */
export interface Span {
  text: string;
  paint?: Paint | undefined;
}

/** No line may start with these (CJK and Latin closing punctuation). */
const NO_START = new Set([...'，。、；：？！）》」』】〉〕〗…—‥·％,.;:?!)]}%’”']);
/** No line may end with these (opening brackets and quotes). */
const NO_END = new Set([...'（《「『【〈〔〖([{‘“']);

interface Unit {
  text: string;
  width: number;
  paint: Paint | undefined;
  space: boolean;
  wide: boolean;
  newline: boolean;
}

/** Colour and link escape codes in already painted text: kept whole, zero columns wide. */
const ESCAPE = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

/** The text of a span and the escape codes in it, in order. */
function pieces(text: string): { text: string; escape: boolean }[] {
  if (!text.includes('\x1b')) return [{ text, escape: false }];
  const out: { text: string; escape: boolean }[] = [];
  let at = 0;
  for (const m of text.matchAll(ESCAPE)) {
    if (m.index > at) out.push({ text: text.slice(at, m.index), escape: false });
    out.push({ text: m[0], escape: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at), escape: false });
  return out;
}

function units(spans: Span[]): Unit[] {
  const out: Unit[] = [];
  for (const span of spans) {
    for (const piece of pieces(span.text)) {
      if (piece.escape) {
        out.push({
          text: piece.text,
          width: 0,
          paint: span.paint,
          space: false,
          wide: false,
          newline: false,
        });
        continue;
      }
      pushGraphemes(out, piece.text, span.paint);
    }
  }
  return out;
}

function pushGraphemes(out: Unit[], text: string, paint: Paint | undefined): void {
  for (const g of graphemes(text)) {
    if (g === '\n' || g === '\r\n') {
      out.push({ text: '', width: 0, paint, space: false, wide: false, newline: true });
      continue;
    }
    if (g === '\r') continue;
    const width = textWidth(g);
    const space = g === ' ' || g === '\t';
    out.push({ text: g === '\t' ? '    ' : g, width, paint, space, wide: width > 1, newline: false });
  }
}

/** May a line break fall just before units[i]? */
function canBreakBefore(prev: Unit, cur: Unit): boolean {
  if (NO_START.has(cur.text) || NO_END.has(prev.text)) return false;
  if (prev.space || cur.space) return true;
  return prev.wide || cur.wide;
}

function paintLine(line: Unit[]): string {
  let out = '';
  let run = '';
  let paint: Paint | undefined;
  for (const u of line) {
    if (u.paint !== paint) {
      if (run) out += paint ? paint(run) : run;
      run = '';
      paint = u.paint;
    }
    run += u.text;
  }
  if (run) out += paint ? paint(run) : run;
  return out;
}

export interface WrapOptions {
  /** Prefix of the first line (may contain escape codes). */
  first?: string;
  /** Prefix of the following lines. Defaults to spaces as wide as `first`. */
  rest?: string;
  /** Break anywhere (code) instead of at spaces and between CJK characters. */
  anywhere?: boolean;
}

/**
 * Wrap styled text to `width` columns: at spaces for Latin text, between any two CJK characters
 * (never putting closing punctuation such as ，。at the start of a line), hard-breaking words
 * longer than a line. Newlines in the text are kept. Returns the painted lines.
 */
export function wrapSpans(spans: Span[], width: number, o: WrapOptions = {}): string[] {
  const first = o.first ?? '';
  const firstWidth = textWidth(first);
  const rest = o.rest ?? ' '.repeat(firstWidth);
  const restWidth = textWidth(rest);
  const all = units(spans);
  const lines: string[] = [];
  let prefix = first;
  // Text after a prefix keeps a few columns however narrow the window; a bare column (a table's
  // cell) is exactly as wide as asked.
  const least = firstWidth || restWidth ? 4 : 1;
  let avail = Math.max(least, width - firstWidth);
  let line: Unit[] = [];
  let used = 0;
  /** The current line began at a wrap (so its leading spaces are dropped), not at a newline. */
  let soft = false;

  const emit = (content: Unit[]) => {
    let end = content.length;
    while (end > 0 && content[end - 1]!.space) end--;
    lines.push(prefix + paintLine(content.slice(0, end)));
    prefix = rest;
    avail = Math.max(least, width - restWidth);
  };

  for (const u of all) {
    if (u.newline) {
      emit(line);
      line = [];
      used = 0;
      soft = false;
      continue;
    }
    if (used + u.width <= avail) {
      if (!(u.space && line.length === 0 && soft && !o.anywhere)) {
        line.push(u);
        used += u.width;
      }
      continue;
    }
    // Overflow: break at the last opportunity in this line, or hard-break here.
    soft = true;
    if (u.space && !o.anywhere) {
      emit(line);
      line = [];
      used = 0;
      continue;
    }
    let cut = -1;
    if (!o.anywhere) {
      if (line.length > 0 && canBreakBefore(line[line.length - 1]!, u)) cut = line.length;
      for (let i = line.length - 1; cut < 0 && i > 0; i--) {
        if (canBreakBefore(line[i - 1]!, line[i]!)) cut = i;
      }
    }
    if (cut < 0) cut = line.length;
    const carry = line.slice(cut);
    emit(line.slice(0, cut));
    while (carry.length && carry[0]!.space && !o.anywhere) carry.shift();
    line = [...carry, u];
    used = line.reduce((n, x) => n + x.width, 0);
    // A single carried run may still be too long (a CJK closing mark after a long word): hard split.
    while (used > avail && line.length > 1) {
      let n = 0;
      let k = 0;
      while (k < line.length && n + line[k]!.width <= avail) n += line[k++]!.width;
      emit(line.slice(0, Math.max(1, k)));
      line = line.slice(Math.max(1, k));
      used = line.reduce((m, x) => m + x.width, 0);
    }
  }
  if (line.length || lines.length === 0) emit(line);
  return lines;
}
