import { maxBy } from '../../support/arrays.js';
/**
 * UI text laid out in columns and wrapped to the terminal (command output, tables of numbers and
 * names). Widths come from the one display width, support/width.ts.
 */
import { padToWidth, textWidth } from '../../support/width.js';

/** Rows of cells as aligned columns (two spaces apart); `right` marks right-aligned columns. */
export function columns(rows: string[][], right: ReadonlySet<number> = new Set()): string[] {
  const n = maxBy(rows, (r) => r.length, 0);
  const widths = Array.from({ length: n }, (_, i) => maxBy(rows, (r) => textWidth(r[i] ?? ''), 0));
  return rows.map((r) =>
    r
      .map((c, i) =>
        right.has(i)
          ? padToWidth(c, widths[i]!, 'right')
          : i === r.length - 1
            ? c
            : padToWidth(c, widths[i]!),
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
  if (!width || textWidth(first) + textWidth(text) <= width) return [first + text];
  const room = (line: string) => width - textWidth(line);
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const token of tokens(text)) {
    const w = textWidth(token);
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
    while (textWidth(part) > room(line) && room(line) > 0) {
      let cut = '';
      for (const ch of part) {
        if (textWidth(cut + ch) > room(line)) break;
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
    } else if (textWidth(ch) === 2) {
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
