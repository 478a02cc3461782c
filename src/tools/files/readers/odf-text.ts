/**
 * The text of OpenDocument bodies (content.xml of .odt, .odp, .ods) as Markdown: headings by
 * outline level, lists (numbered when their list style numbers), tables as tables, and the
 * inline markup that carries characters (`text:s` spaces, tabs, line breaks). Annotations and
 * deleted text in tracked changes are left out.
 */
import { pushAll } from '../../../support/arrays.js';
import { mdTable } from './markdown.js';
import { attr, isElement, kids, type XmlElement } from './xml-tree.js';

/** Most columns kept from a row (repeated empty cells can claim a thousand). */
const MAX_COLUMNS = 512;

export interface OdfContext {
  /** List styles whose first level is numbered (`text:list-level-style-number`). */
  numbered: Set<string>;
  /**
   * The next number of each numbered list (by style and depth), for a list that continues an
   * earlier one: LibreOffice writes each numbered heading of a converted Word file as a list of
   * its own with `text:continue-numbering` or `text:continue-list` (else every heading is "1.").
   */
  next?: Map<string, number>;
}

/** The list styles that number, from content.xml's automatic styles and styles.xml. */
export function numberedListStyles(...roots: (XmlElement | undefined)[]): Set<string> {
  const out = new Set<string>();
  const walk = (el: XmlElement) => {
    for (const c of kids(el)) {
      if (c.name === 'list-style') {
        const first = kids(c)[0];
        if (first?.name === 'list-level-style-number') out.add(attr(c, 'name') ?? '');
      } else walk(c);
    }
  };
  for (const r of roots) if (r) walk(r);
  return out;
}

const SKIP = new Set([
  'annotation',
  'tracked-changes',
  'note-citation',
  'sequence-decls',
  'forms',
  'bookmark-ref',
]);

/** The characters of a paragraph-like element. */
export function inlineText(el: XmlElement): string {
  let out = '';
  for (const c of el.children) {
    if (!isElement(c)) {
      out += c;
      continue;
    }
    if (SKIP.has(c.name)) continue;
    if (c.name === 's') out += ' '.repeat(Math.min(Number(attr(c, 'c') ?? 1) || 1, 200));
    else if (c.name === 'tab') out += '\t';
    else if (c.name === 'line-break') out += '\n';
    else if (c.name === 'note') out += noteText(c);
    else if (c.name === 'p' || c.name === 'h') out += `${out ? '\n' : ''}${inlineText(c)}`;
    else out += inlineText(c);
  }
  return out;
}

/** A footnote inline, in brackets, so its text is not lost and not confused with the body. */
function noteText(note: XmlElement): string {
  const body = kids(note, 'note-body')[0];
  const text = body ? kids(body).map(inlineText).join(' ').trim() : '';
  return text ? ` [note: ${text}]` : '';
}

/** The rows of a `table:table`, repeated cells and rows expanded (within limits). */
export function tableRows(table: XmlElement, cellText: (cell: XmlElement) => string): string[][] {
  const rows: string[][] = [];
  const addRows = (parent: XmlElement) => {
    for (const r of kids(parent)) {
      if (r.name === 'table-header-rows' || r.name === 'table-rows' || r.name === 'table-row-group') {
        addRows(r);
        continue;
      }
      if (r.name !== 'table-row') continue;
      const row: string[] = [];
      for (const c of kids(r)) {
        if (c.name !== 'table-cell' && c.name !== 'covered-table-cell') continue;
        const text = c.name === 'table-cell' ? cellText(c) : '';
        const times = Math.min(Number(attr(c, 'number-columns-repeated') ?? 1) || 1, MAX_COLUMNS);
        for (let i = 0; i < times && row.length < MAX_COLUMNS; i++) row.push(text);
      }
      const empty = row.every((t) => !t.trim());
      const times = empty ? 1 : Math.min(Number(attr(r, 'number-rows-repeated') ?? 1) || 1, 1000);
      for (let i = 0; i < times; i++) rows.push(row);
    }
  };
  addRows(table);
  return rows;
}

/** Drop empty rows and the columns empty in every row. */
export function trimTable(rows: string[][]): string[][] {
  const kept = rows.filter((r) => r.some((c) => c.trim()));
  let last = 0;
  for (const r of kept) for (let i = r.length - 1; i >= last; i--) if (r[i]!.trim()) last = i + 1;
  return kept.map((r) => r.slice(0, last));
}

/** Markdown blocks of a text container (office:text, a text box, a cell, a list item). */
export function odfBlocks(el: XmlElement, ctx: OdfContext, depth = 0): string[] {
  const out: string[] = [];
  for (const c of kids(el)) {
    switch (c.name) {
      case 'h': {
        const level = Math.min(Math.max(Number(attr(c, 'outline-level') ?? 1) || 1, 1), 6);
        const text = inlineText(c).trim();
        if (text) out.push(`${'#'.repeat(level)} ${text}`);
        break;
      }
      case 'p': {
        const text = inlineText(c).trim();
        if (text) out.push(text);
        break;
      }
      case 'list':
        pushAll(out, listBlocks(c, ctx, depth, ctx.numbered.has(attr(c, 'style-name') ?? '')));
        break;
      case 'table': {
        const rows = trimTable(tableRows(c, (cell) => odfBlocks(cell, ctx).join('\n')));
        if (rows.length) out.push(mdTable(rows));
        break;
      }
      default:
        if (!SKIP.has(c.name)) pushAll(out, odfBlocks(c, ctx, depth));
    }
  }
  return out;
}

/** One list: items as `- ` or `1. `, nested lists indented. */
function listBlocks(list: XmlElement, ctx: OdfContext, depth: number, numbered: boolean): string[] {
  const lines: string[] = [];
  const indent = '  '.repeat(depth);
  const key = `${attr(list, 'style-name') ?? ''}\0${depth}`;
  ctx.next ??= new Map();
  const continues = attr(list, 'continue-numbering') === 'true' || attr(list, 'continue-list') !== undefined;
  let n = Number(attr(list, 'start-value')) || (continues ? (ctx.next.get(key) ?? 1) : 1);
  for (const item of kids(list)) {
    if (item.name !== 'list-item' && item.name !== 'list-header') continue;
    let first = true;
    for (const c of kids(item)) {
      if (c.name === 'list') {
        pushAll(
          lines,
          listBlocks(c, ctx, depth + 1, numbered || ctx.numbered.has(attr(c, 'style-name') ?? '')),
        );
        continue;
      }
      for (const block of odfBlocks({ ...item, children: [c] }, ctx, depth + 1)) {
        const mark = first ? (numbered ? `${n}. ` : '- ') : '  ';
        const heading = /^(#{1,6}) (.*)$/s.exec(block);
        // A numbered heading stays a heading: `## 2. Data`, not a list item holding one.
        if (heading && first) lines.push(`${heading[1]} ${numbered ? `${n}. ` : ''}${heading[2]}`);
        else lines.push(`${indent}${mark}${block.replace(/\n/g, `\n${indent}  `)}`);
        first = false;
      }
    }
    if (item.name === 'list-item') n++;
  }
  ctx.next.set(key, n);
  return lines.length ? [lines.join('\n')] : [];
}
