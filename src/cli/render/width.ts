import { maxBy } from '../../support/arrays.js';
/**
 * A cheap display width for short UI text (command output, tables of numbers and names):
 * escape codes ignored, East Asian wide and full-width characters count 2. Loads nothing, so
 * start-up code can use it; the Markdown renderer uses string-width (emoji-aware) instead.
 */
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

function wide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0x303e) ||
    (cp >= 0x3041 && cp <= 0x33ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

export function displayWidth(s: string): number {
  let w = 0;
  for (const ch of s.replace(ANSI, '')) {
    const cp = ch.codePointAt(0)!;
    if (
      cp < 0x20 ||
      (cp >= 0x7f && cp < 0xa0) ||
      (cp >= 0x300 && cp <= 0x36f) ||
      cp === 0x200d ||
      (cp >= 0xfe00 && cp <= 0xfe0f)
    )
      continue;
    w += wide(cp) ? 2 : 1;
  }
  return w;
}

export function padEnd(s: string, width: number): string {
  return s + ' '.repeat(Math.max(0, width - displayWidth(s)));
}

export function padStart(s: string, width: number): string {
  return ' '.repeat(Math.max(0, width - displayWidth(s))) + s;
}

/** Rows of cells as aligned columns (two spaces apart); `right` marks right-aligned columns. */
export function columns(rows: string[][], right: ReadonlySet<number> = new Set()): string[] {
  const n = maxBy(rows, (r) => r.length, 0);
  const widths = Array.from({ length: n }, (_, i) => maxBy(rows, (r) => displayWidth(r[i] ?? ''), 0));
  return rows.map((r) =>
    r
      .map((c, i) =>
        right.has(i) ? padStart(c, widths[i]!) : i === r.length - 1 ? c : padEnd(c, widths[i]!),
      )
      .join('  ')
      .trimEnd(),
  );
}

/** The width of the terminal on stderr, or undefined when it is not a terminal (nothing is wrapped then). */
export function stderrColumns(): number | undefined {
  return process.stderr.isTTY && process.stderr.columns ? process.stderr.columns : undefined;
}

/**
 * Wrap one paragraph of plain (possibly painted) text to `width` columns: at spaces, or between
 * CJK characters, never inside a word unless the word alone is longer than a line. The first line
 * follows `first`, the others `rest` (a hanging indent). Without a width the text is returned as is.
 */
export function wrapText(text: string, width: number | undefined, first = '', rest = ''): string[] {
  if (!width || displayWidth(first) + displayWidth(text) <= width) return [first + text];
  const room = (line: string) => width - displayWidth(line);
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const token of tokens(text)) {
    const w = displayWidth(token);
    const space = token === ' ';
    if (space && empty) continue;
    if (w <= room(line)) {
      line += token;
      empty = false;
      continue;
    }
    if (!empty) lines.push(line.trimEnd());
    line = rest;
    empty = true;
    if (space) continue;
    // A token longer than a whole line is cut where it must be.
    let part = token;
    while (displayWidth(part) > room(line) && room(line) > 0) {
      let cut = '';
      for (const ch of part) {
        if (displayWidth(cut + ch) > room(line)) break;
        cut += ch;
      }
      if (!cut) break;
      lines.push(line + cut);
      part = part.slice(cut.length);
    }
    line += part;
    empty = part === '';
  }
  if (!empty || !lines.length) lines.push(line.trimEnd());
  return lines;
}

/** Words, single spaces, and CJK characters one by one (closing punctuation kept with the one before). */
function tokens(text: string): string[] {
  const out: string[] = [];
  let word = '';
  const flush = () => {
    if (word) out.push(word);
    word = '';
  };
  for (const ch of text) {
    if (ch === ' ') {
      flush();
      out.push(' ');
    } else if (wide(ch.codePointAt(0)!)) {
      if (/[，。、；：？！）》」』】]/.test(ch) && out.length && !word) out[out.length - 1] += ch;
      else {
        flush();
        out.push(ch);
      }
    } else word += ch;
  }
  flush();
  return out;
}
