import { maxBy } from '../../support/arrays.js';
/**
 * UI text laid out in columns and wrapped to the terminal (command output, tables of numbers and
 * names). Widths come from the one display width, support/width.ts.
 */
import { padToWidth, textWidth } from '../../support/width.js';
import { wrapSpans } from './wrap.js';

/** The narrowest last column worth wrapping under itself. */
const MIN_LAST = 20;

/**
 * Rows of cells as aligned columns (two spaces apart); `right` marks right-aligned columns. With a
 * `width`, a last cell too long for the line wraps at words under its own column (or, when that
 * column would be narrower than MIN_LAST, on indented lines below).
 */
export function columns(rows: string[][], right: ReadonlySet<number> = new Set(), width?: number): string[] {
  const n = maxBy(rows, (r) => r.length, 0);
  const widths = Array.from({ length: n }, (_, i) => maxBy(rows, (r) => textWidth(r[i] ?? ''), 0));
  return rows.flatMap((r) => {
    const cells = r.map((c, i) =>
      right.has(i) ? padToWidth(c, widths[i]!, 'right') : i === r.length - 1 ? c : padToWidth(c, widths[i]!),
    );
    const line = cells.join('  ').trimEnd();
    if (!width || textWidth(line) < width || r.length < 2) return [line];
    const head = `${cells.slice(0, -1).join('  ')}  `;
    const last = r[r.length - 1]!;
    if (width - textWidth(head) >= MIN_LAST)
      return wrapText(last, width - 1, head, ' '.repeat(textWidth(head)));
    return [head.trimEnd(), ...wrapText(last, width - 1, '    ', '    ')];
  });
}

/** The width of the terminal on stderr, or undefined when it is not a terminal (nothing is wrapped then). */
export function stderrColumns(): number | undefined {
  return process.stderr.isTTY && process.stderr.columns ? process.stderr.columns : undefined;
}

/**
 * Wrap one paragraph of plain (possibly painted) text to `width` columns — the REPL's one wrap,
 * `wrapSpans`: at spaces, or between CJK characters, never inside a word (`Ctrl+D`, `¥0.02`)
 * unless the word alone is longer than a line. The first line follows `first`, the others `rest`
 * (a hanging indent). Without a width the text is returned as is.
 */
export function wrapText(text: string, width: number | undefined, first = '', rest = ''): string[] {
  if (!width || textWidth(first) + textWidth(text) <= width) return [first + text];
  return wrapSpans([{ text }], width, { first, rest });
}

/**
 * Lines printed to a terminal `width` columns wide, each line longer than that wrapped at words
 * under its own indentation (plus two columns), so the terminal never cuts a word in two.
 */
export function fitLines(text: string, width: number | undefined): string {
  if (!width) return text;
  return text
    .split('\n')
    .flatMap((line) => {
      if (textWidth(line) <= width) return [line];
      const lead = /^ */.exec(line)![0];
      return wrapText(line.slice(lead.length), width - 1, lead, `${lead}  `);
    })
    .join('\n');
}
