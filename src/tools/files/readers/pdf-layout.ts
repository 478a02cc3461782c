/**
 * A PDF page's text items (pieces of text with a position) put back into lines: items on one
 * baseline are joined left to right, with a space where the gap is a word gap and a wider gap
 * kept as a column break. Three or more consecutive lines whose columns line up form a grid,
 * written as a Markdown table — what a person sees as a table in the PDF. Vertical text and
 * pages whose items carry no usable positions are joined in drawing order, as pdf.js gives them.
 */
import { mdTable } from './markdown.js';

export interface PositionedItem {
  str?: string;
  hasEOL?: boolean;
  /** [a, b, c, d, x, y]: the text matrix; a/d carry the font size. */
  transform?: number[];
  width?: number;
  height?: number;
  dir?: string;
}

interface Run {
  x: number;
  end: number;
  str: string;
  size: number;
  /** A space character was drawn just before this run (in an item of its own). */
  spaced?: boolean;
}

interface Line {
  y: number;
  size: number;
  runs: Run[];
}

/** Plain drawing-order text, the fallback for vertical writing and position-less items. */
function drawingOrder(items: PositionedItem[]): string {
  return items.map((item) => (item.str ?? '') + (item.hasEOL ? '\n' : '')).join('');
}

function toLines(items: PositionedItem[]): Line[] | undefined {
  const lines: Line[] = [];
  let line: Line | undefined;
  let spaced = false;
  for (const item of items) {
    const t = item.transform;
    if (!t || t.length < 6) return undefined;
    // Rotated or vertical text: positions do not read left to right.
    if (Math.abs(t[1]!) > 0.01 || Math.abs(t[2]!) > 0.01 || item.dir === 'ttb') return undefined;
    const str = item.str ?? '';
    const size = Math.abs(t[3]!) || item.height || 10;
    // pdf.js fills a wide gap with a whitespace item as wide as the gap; the gap itself is what
    // tells a word space from a column break, so such items are left out — but remembered: a
    // space drawn on its own (another font or size between two words) can be narrower than a
    // word gap, and without it the words would be glued ("powerfulagents").
    if (str.trim()) {
      const y = t[5]!;
      if (!line || Math.abs(y - line.y) > Math.max(size, line.size) * 0.5) {
        line = { y, size, runs: [] };
        lines.push(line);
        spaced = false;
      }
      line.runs.push({ x: t[4]!, end: t[4]! + (item.width ?? 0), str, size, ...(spaced ? { spaced } : {}) });
      spaced = false;
    } else if (str) spaced = true;
    if (item.hasEOL) line = undefined;
  }
  return lines;
}

/**
 * pdf.js writes a space into a run wherever a TJ kern is wide, also inside "[38, 22]" set a
 * little apart: no space after an opening bracket or before `,` `.` `)` `]` `}` (French spacing
 * before ; : ! ? is left alone).
 */
function untight(text: string): string {
  return text.replace(/([([{]) +(?=\S)/g, '$1').replace(/(?<=\S) +([,.)\]}])(?=\s|$|[,.)\]}])/g, '$1');
}

/** A line's cells: runs joined with spaces at word gaps, split at gaps wider than two ems. */
function cells(line: Line): { x: number; text: string }[] {
  const runs = [...line.runs].sort((a, b) => a.x - b.x);
  const out: { x: number; text: string }[] = [];
  let prev: Run | undefined;
  for (const r of runs) {
    const gap = prev ? r.x - prev.end : 0;
    const em = Math.max(r.size, prev?.size ?? 0);
    if (!prev || gap > em * 2) out.push({ x: r.x, text: r.str });
    else {
      const cell = out[out.length - 1]!;
      // Before closing punctuation and after an opening bracket, only a gap as wide as half an
      // em is a space: "[38, 22]", not "[ 38 , 22 ]" from runs set a little apart.
      const tight = /^[,.;:!?)\]}%，。；：！？）】」』]/.test(r.str) || /[([{（【「『]$/.test(cell.text);
      const wide = gap > em * (tight ? 0.5 : 0.2) || (r.spaced && !tight);
      const space = wide && !cell.text.endsWith(' ') && !r.str.startsWith(' ');
      cell.text += (space ? ' ' : '') + r.str;
    }
    prev = r;
  }
  return out.map((c) => ({ x: c.x, text: untight(c.text.trim()) })).filter((c) => c.text);
}

/** True when `row` has the same number of cells as `head`, each starting near the same x. */
function aligned(head: { x: number }[], row: { x: number }[], tolerance: number): boolean {
  return row.length === head.length && row.every((c, i) => Math.abs(c.x - head[i]!.x) <= tolerance);
}

/** Text of a page's items: lines, and grids of aligned columns as Markdown tables. */
export function pageLayoutText(items: PositionedItem[]): string {
  const lines = toLines(items);
  const raw = lines ? undefined : drawingOrder(items);
  const out: string[] = [];
  if (lines) {
    const rows = lines.map(cells);
    for (let i = 0; i < rows.length; ) {
      const head = rows[i]!;
      let j = i + 1;
      const tolerance = (lines[i]!.size || 10) * 1.5;
      if (head.length >= 2) while (j < rows.length && aligned(head, rows[j]!, tolerance)) j++;
      if (head.length >= 2 && j - i >= 3) {
        out.push('', mdTable(rows.slice(i, j).map((r) => r.map((c) => c.text))), '');
        i = j;
      } else {
        out.push(head.map((c) => c.text).join('  '));
        i++;
      }
    }
  }
  return (raw ?? out.join('\n'))
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
