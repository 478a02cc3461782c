import type { Tokens } from 'marked';
import { type BlockContext, inline } from './markdown.js';
import { pad, type Span, textWidth, wrapSpans } from './wrap.js';

type Align = 'left' | 'right' | 'center' | null;

/** Shrink column widths (widest first) until they fit in `avail` columns. */
export function fitColumns(natural: number[], avail: number, min = 4): number[] {
  const widths = [...natural];
  let total = widths.reduce((a, b) => a + b, 0);
  while (total > avail) {
    let widest = 0;
    for (let i = 1; i < widths.length; i++) if (widths[i]! > widths[widest]!) widest = i;
    if (widths[widest]! <= min) break;
    widths[widest]! -= 1;
    total -= 1;
  }
  return widths;
}

/**
 * A GFM table, columns aligned by display width (CJK characters count double) and shrunk to fit
 * the terminal, cells wrapping inside their column. With colour: box-drawing borders and a bold
 * header; without: Markdown pipes, so a copy-paste of the output is still a table.
 */
export function renderTable(table: Tokens.Table, ctx: BlockContext): string[] {
  const { theme, width } = ctx;
  const cols = table.header.length;
  if (!cols) return [];
  const cell = (c: Tokens.TableCell | undefined): Span[] => (c ? inline(c.tokens, theme) : []);
  const header = table.header.map(cell);
  const rows = table.rows.map((r) => Array.from({ length: cols }, (_, i) => cell(r[i])));
  const widthOf = (spans: Span[]) =>
    Math.max(
      ...spans
        .map((s) => s.text)
        .join('')
        .split('\n')
        .map(textWidth),
      0,
    );
  const natural = Array.from({ length: cols }, (_, i) =>
    Math.max(theme.enabled ? 1 : 3, widthOf(header[i]!), ...rows.map((r) => widthOf(r[i]!))),
  );
  // Borders and padding: "│ a │ b │" is 3 per column + 1.
  const widths = fitColumns(natural, Math.max(cols * 2, width - (3 * cols + 1)), 2);
  const aligns: Align[] = Array.from({ length: cols }, (_, i) => table.align[i] ?? null);

  const v = theme.enabled ? theme.dim('│') : '|';
  const renderRow = (cells: Span[][], bold: boolean): string[] => {
    const wrapped = cells.map((spans, i) => {
      const painted = bold && theme.enabled ? spans.map((s) => ({ text: s.text, paint: theme.bold })) : spans;
      return wrapSpans(painted, widths[i]!);
    });
    const height = Math.max(...wrapped.map((w) => w.length));
    const lines: string[] = [];
    for (let k = 0; k < height; k++) {
      const parts = wrapped.map((w, i) => pad(w[k] ?? '', widths[i]!, k < w.length ? aligns[i]! : 'left'));
      lines.push(`${v} ${parts.join(` ${v} `)} ${v}`);
    }
    return lines;
  };
  const rule = (left: string, mid: string, right: string) =>
    theme.dim(left + widths.map((w) => '─'.repeat(w + 2)).join(mid) + right);

  const out: string[] = [];
  if (theme.enabled) {
    out.push(rule('┌', '┬', '┐'));
    out.push(...renderRow(header, true));
    out.push(rule('├', '┼', '┤'));
    for (const r of rows) out.push(...renderRow(r, false));
    out.push(rule('└', '┴', '┘'));
  } else {
    out.push(...renderRow(header, false));
    const sep = widths.map((w, i) => {
      const a = aligns[i];
      const dashes = '-'.repeat(Math.max(3, w));
      if (a === 'center') return `:${dashes.slice(2)}:`;
      if (a === 'right') return `${dashes.slice(1)}:`;
      if (a === 'left') return `:${dashes.slice(1)}`;
      return dashes;
    });
    out.push(`| ${sep.join(' | ')} |`);
    for (const r of rows) out.push(...renderRow(r, false));
  }
  return out;
}
