import stringWidth from 'string-width';
import type { Paint } from './theme.js';

/** A run of text with one look. Wrapping works on the text; the paint is applied per line. */
export interface Span {
  text: string;
  paint?: Paint | undefined;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const widthCache = new Map<string, number>();

/** Columns a single grapheme takes in a terminal: 2 for CJK and other wide characters. */
export function graphemeWidth(g: string): number {
  if (g.length === 1) {
    const code = g.charCodeAt(0);
    if (code >= 0x20 && code < 0x7f) return 1;
    if (g === '\t') return 4;
    if (code < 0xd800 || code > 0xdfff) return unitWidth(code);
  }
  let w = widthCache.get(g);
  if (w === undefined) {
    w = stringWidth(g);
    if (widthCache.size < 5000) widthCache.set(g, w);
  }
  return w;
}

/**
 * Widths of single UTF-16 units, measured once with string-width (stored as width + 1; 0 = not
 * yet measured). Most text in answers — ASCII, CJK, box drawing, punctuation — is made of units
 * that are each a whole grapheme, and measuring those one by one is far cheaper than the
 * segmenter and string-width's regular expressions on every call.
 */
const unitWidths = new Uint8Array(0x10000);

function unitWidth(code: number): number {
  let w = unitWidths[code]!;
  if (!w) {
    w = stringWidth(String.fromCharCode(code)) + 1;
    unitWidths[code] = w;
  }
  return w - 1;
}

const ESCAPES = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

/**
 * The width of `s` if every unit in it is a grapheme on its own (no surrogate pairs, combining
 * marks, joiners, variation selectors or control characters), else -1.
 */
function simpleWidth(s: string): number {
  let w = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) w += 1;
    else if (c === 9) w += 4;
    else if (c >= 0xd800 && c <= 0xdfff) return -1;
    else {
      const u = unitWidth(c);
      if (u === 0) return -1;
      w += u;
    }
  }
  return w;
}

/** Columns a string takes (escape codes ignored, CJK counted double). */
export function textWidth(s: string): number {
  const bare = s.includes('\x1b') ? s.replace(ESCAPES, '') : s;
  const w = simpleWidth(bare);
  return w >= 0 ? w : stringWidth(bare.replace(/\t/g, '    '));
}

export function splitGraphemes(s: string): string[] {
  if (simpleWidth(s) >= 0) return s.split('');
  const out: string[] = [];
  for (const { segment } of graphemes.segment(s)) out.push(segment);
  return out;
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

function units(spans: Span[]): Unit[] {
  const out: Unit[] = [];
  for (const span of spans) {
    for (const g of splitGraphemes(span.text)) {
      if (g === '\n' || g === '\r\n') {
        out.push({ text: '', width: 0, paint: span.paint, space: false, wide: false, newline: true });
        continue;
      }
      if (g === '\r') continue;
      const text = g === '\t' ? '    ' : g;
      const width = graphemeWidth(g);
      out.push({
        text,
        width,
        paint: span.paint,
        space: g === ' ' || g === '\t',
        wide: width > 1,
        newline: false,
      });
    }
  }
  return out;
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
  let avail = Math.max(4, width - firstWidth);
  let line: Unit[] = [];
  let used = 0;
  /** The current line began at a wrap (so its leading spaces are dropped), not at a newline. */
  let soft = false;

  const emit = (content: Unit[]) => {
    let end = content.length;
    while (end > 0 && content[end - 1]!.space) end--;
    lines.push(prefix + paintLine(content.slice(0, end)));
    prefix = rest;
    avail = Math.max(4, width - restWidth);
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

/** Cut a painted string to at most `width` columns, ending with `…` when cut. */
export function clip(s: string, width: number): string {
  if (textWidth(s) <= width) return s;
  // Walk the string keeping escape codes, counting only visible graphemes.
  let out = '';
  let used = 0;
  const re = /\x1b\[[0-9;?]*[A-Za-z]/y;
  let i = 0;
  while (i < s.length) {
    re.lastIndex = i;
    const m = re.exec(s);
    if (m) {
      out += m[0];
      i += m[0].length;
      continue;
    }
    const cp = s.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    const w = graphemeWidth(ch);
    if (used + w > width - 1) break;
    out += ch;
    used += w;
    i += ch.length;
  }
  return `${out}…${s.includes('\x1b[') ? '\x1b[0m' : ''}`;
}

/** Pad a painted string with spaces to `width` columns, aligned left, right or centred. */
export function pad(s: string, width: number, align: 'left' | 'right' | 'center' | null = 'left'): string {
  const gap = Math.max(0, width - textWidth(s));
  if (align === 'right') return ' '.repeat(gap) + s;
  if (align === 'center') return ' '.repeat(Math.floor(gap / 2)) + s + ' '.repeat(gap - Math.floor(gap / 2));
  return s + ' '.repeat(gap);
}
