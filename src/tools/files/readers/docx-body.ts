/**
 * A Word body (or a header, footer, comment, note) as Markdown, walked from its XML: headings
 * from paragraph styles, list items indented by level, bold and italic, links, images as
 * placeholders, equations as linear text (docx-math.ts), comment markers, and tables with merged
 * cells in their right columns — gridSpan spans columns, vMerge continues a cell downwards (its
 * value shown once, at the top), gridBefore skips leading grid columns. Paragraphs inside a cell
 * are kept apart (<br>); a table inside a cell is written after its table and named in the cell.
 */

import { pushAll } from '../../../support/arrays.js';
import { math } from './docx-math.js';
import type { DocxParts } from './docx-parts.js';
import { mdTable } from './markdown.js';
import { type HiddenPart, hiddenLabel } from './types.js';
import { attr, isElement, kid, kids, type XmlElement } from './xml-tree.js';

export interface BodyState {
  parts: DocxParts;
  images: number;
  /** Comment ids in the order the body refers to them. */
  comments: string[];
  footnotes: string[];
  /** Tables found inside table cells, written after the outer table. */
  nested: string[];
  tables: number;
  /** The current number of each list (numId) at each level, as Word counts them. */
  counters: Map<string, number[]>;
  /** Runs Word does not show (hidden, white, tiny), in order: labelled in the text too. */
  hidden: HiddenPart[];
}

function on(el: XmlElement | undefined): boolean {
  if (!el) return false;
  const v = attr(el, 'val');
  return v === undefined || (v !== '0' && v !== 'false' && v !== 'none');
}

interface Segment {
  text: string;
  bold: boolean;
  italic: boolean;
  /** Why a person reading the document does not see it (a hidden run). */
  hidden?: HiddenPart['kind'];
}

/** Markdown emphasis around runs of the same style (adjacent bold runs form one **…**). */
function emphasize(segments: Segment[]): string {
  let out = '';
  let i = 0;
  while (i < segments.length) {
    const s = segments[i]!;
    if (s.hidden) {
      out += `[${hiddenLabel({ kind: s.hidden, text: '' })}, not shown in the document: ${s.text}]`;
      i++;
      continue;
    }
    let text = s.text;
    let j = i + 1;
    const same = (t: Segment) => !t.hidden && t.bold === s.bold && t.italic === s.italic;
    while (j < segments.length && same(segments[j]!)) text += segments[j++]!.text;
    const mark = (s.bold ? '**' : '') + (s.italic ? '*' : '');
    const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(text)!;
    out += mark && m[2] ? `${m[1]}${mark}${m[2]}${[...mark].reverse().join('')}${m[3]}` : text;
    i = j;
  }
  return out;
}

type Style = { bold: boolean; italic: boolean };
const PLAIN: Style = { bold: false, italic: false };

/** How one inline element adds to the paragraph's segments. */
type InlineRule = (c: XmlElement, st: BodyState, out: Segment[], style: Style) => void;

const skip: InlineRule = () => {};
const literal =
  (text: string, keepStyle = true): InlineRule =>
  (_c, _st, out, style) => {
    out.push({ text, ...(keepStyle ? style : PLAIN) });
  };

/** A run: its own bold and italic on top of the style around it; a run Word hides, labelled. */
const run: InlineRule = (c, st, out, style) => {
  const pr = kid(c, 'rPr');
  const why = hiddenWhy(pr);
  if (!why) {
    inline(c, st, out, { bold: on(kid(pr, 'b')) || style.bold, italic: on(kid(pr, 'i')) || style.italic });
    return;
  }
  const inner: Segment[] = [];
  inline(c, st, inner, PLAIN);
  const text = inner.map((x) => x.text).join('');
  if (!text.trim()) return;
  const last = out[out.length - 1];
  // Adjacent hidden runs (Word splits text into many) are one hidden passage.
  if (last?.hidden === why) {
    last.text += text;
    st.hidden[st.hidden.length - 1]!.text += text;
  } else {
    out.push({ text, ...PLAIN, hidden: why });
    st.hidden.push({ kind: why, text });
  }
};

/**
 * Why Word would not show a run to a person reading the page: hidden (`w:vanish`, `w:specVanish`),
 * white text with no highlight or shading behind it, or a font of 2 points or less.
 */
function hiddenWhy(pr: XmlElement | undefined): HiddenPart['kind'] | undefined {
  if (!pr) return undefined;
  if (on(kid(pr, 'vanish')) || on(kid(pr, 'specVanish'))) return 'vanish';
  const color = attr(kid(pr, 'color'), 'val')?.toLowerCase();
  const highlight = attr(kid(pr, 'highlight'), 'val');
  const fill = attr(kid(pr, 'shd'), 'fill')?.toLowerCase();
  const behind = (highlight && highlight !== 'none') || (fill && fill !== 'auto' && fill !== 'ffffff');
  if ((color === 'ffffff' || color === 'white') && !behind) return 'white';
  const size = Number(attr(kid(pr, 'sz'), 'val'));
  if (Number.isFinite(size) && size > 0 && size <= 4) return 'tiny';
  return undefined;
}

/** A drawing's text boxes, or a placeholder with its description for an image. */
const drawing: InlineRule = (c, st, out) => {
  const boxes = findAll(c, 'txbxContent');
  if (boxes.length) {
    for (const b of boxes) out.push({ text: blocks(b, st).join(' '), ...PLAIN });
    return;
  }
  st.images++;
  const alt = findAll(c, 'docPr')[0]?.attrs.descr?.trim();
  out.push({ text: alt ? `[image: ${alt}]` : '[image]', ...PLAIN });
};

/** A link to a web or mail address becomes a Markdown link around its text. */
const hyperlink: InlineRule = (c, st, out, style) => {
  const start = out.length;
  inline(c, st, out, style);
  const rel = st.parts.rels.get(attr(c, 'id') ?? '');
  const text = out
    .slice(start)
    .map((s) => s.text)
    .join('');
  if (rel?.external && text.trim() && /^(https?|mailto):/i.test(rel.target))
    out.splice(start, out.length - start, { text: `[${text}](${rel.target})`, ...PLAIN });
};

const commentReference: InlineRule = (c, st, out) => {
  st.comments.push(attr(c, 'id') ?? '');
  out.push({ text: `[comment ${st.comments.length}]`, ...PLAIN });
};

const noteReference: InlineRule = (c, st, out) => {
  st.footnotes.push(`${c.name === 'footnoteReference' ? 'f' : 'e'}${attr(c, 'id') ?? ''}`);
  out.push({ text: `[^${st.footnotes.length}]`, ...PLAIN });
};

const INLINE = new Map<string, InlineRule>([
  ['r', run],
  [
    't',
    (c, _st, out, style) =>
      out.push({ text: c.children.filter((x) => typeof x === 'string').join(''), ...style }),
  ],
  ['tab', literal('\t')],
  ['br', literal('\n', false)],
  ['cr', literal('\n', false)],
  ['noBreakHyphen', literal('-')],
  ['drawing', drawing],
  ['pict', drawing],
  ['object', drawing],
  ['hyperlink', hyperlink],
  ['commentReference', commentReference],
  ['footnoteReference', noteReference],
  ['endnoteReference', noteReference],
  ['oMath', (c, _st, out) => out.push({ text: math(c), ...PLAIN })],
  [
    'oMathPara',
    (c, _st, out) => out.push({ text: `\n${kids(c, 'oMath').map(math).join('\n')}\n`, ...PLAIN }),
  ],
  // The same content twice (a modern Choice and a legacy Fallback): read the first only.
  ['AlternateContent', (c, st, out, style) => inline(kid(c, 'Choice') ?? c, st, out, style)],
  // Deleted text, properties and field codes are not what the page shows.
  ['delText', skip],
  ['Fallback', skip],
  ['del', skip],
  ['rPr', skip],
  ['pPr', skip],
  ['instrText', skip],
]);

/** The inline content of a paragraph (runs, links, fields, equations…) as segments. */
function inline(el: XmlElement, st: BodyState, out: Segment[], style: Style): void {
  for (const c of el.children) {
    if (!isElement(c)) continue;
    // ins, smartTag, fldSimple, sdt, sdtContent, customXml…: containers of runs.
    (INLINE.get(c.name) ?? inline)(c, st, out, style);
  }
}

function findAll(el: XmlElement, name: string, out: XmlElement[] = []): XmlElement[] {
  for (const c of el.children) {
    if (!isElement(c)) continue;
    if (c.name === name) out.push(c);
    else findAll(c, name, out);
  }
  return out;
}

function paragraph(p: XmlElement, st: BodyState): string {
  const segments: Segment[] = [];
  inline(p, st, segments, { bold: false, italic: false });
  const text = emphasize(segments).replace(/[ \t]+$/gm, '');
  if (!text.trim()) return '';
  const pr = kid(p, 'pPr');
  const styleId = attr(kid(pr, 'pStyle'), 'val') ?? '';
  const level = st.parts.headings.get(styleId);
  if (level) return `${'#'.repeat(level)} ${text.trim()}`;
  const numPr = kid(pr, 'numPr');
  const fromStyle = st.parts.styleLists.get(styleId);
  const numId = attr(kid(numPr, 'numId'), 'val') ?? fromStyle?.numId ?? '';
  const ilvl = attr(kid(numPr, 'ilvl'), 'val') ?? fromStyle?.ilvl ?? '0';
  if (numId && numId !== '0')
    return `${'  '.repeat(Number(ilvl) || 0)}${listMarker(numId, ilvl, st)} ${text.trim()}`;
  return text;
}

/** The marker Word shows for the next item of list `numId` at level `ilvl` ("2.", "b)", "-"). */
function listMarker(numId: string, ilvl: string, st: BodyState): string {
  if (!st.parts.numbered.get(`${numId}:${ilvl}`)) return '-';
  const level = Number(ilvl) || 0;
  const counts = st.counters.get(numId) ?? [];
  const def = (l: number) => st.parts.levels.get(`${numId}:${l}`);
  counts[level] = (counts[level] ?? (def(level)?.start ?? 1) - 1) + 1;
  counts.length = level + 1;
  st.counters.set(numId, counts);
  const text = def(level)?.text ?? `%${level + 1}.`;
  return text.replace(/%([1-9])/g, (_, n: string) => {
    const l = Number(n) - 1;
    return formatNumber(counts[l] ?? def(l)?.start ?? 1, def(l)?.fmt ?? 'decimal');
  });
}

const CN_DIGITS = '〇一二三四五六七八九';

function formatNumber(n: number, fmt: string): string {
  const letters = (upper: boolean) => {
    let s = '';
    for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) s = String.fromCharCode(((k - 1) % 26) + 97) + s;
    return upper ? s.toUpperCase() : s;
  };
  const roman = (upper: boolean) => {
    const table: [number, string][] = [
      [1000, 'm'],
      [900, 'cm'],
      [500, 'd'],
      [400, 'cd'],
      [100, 'c'],
      [90, 'xc'],
      [50, 'l'],
      [40, 'xl'],
      [10, 'x'],
      [9, 'ix'],
      [5, 'v'],
      [4, 'iv'],
      [1, 'i'],
    ];
    let s = '';
    let k = n;
    for (const [v, r] of table) for (; k >= v; k -= v) s += r;
    return upper ? s.toUpperCase() : s;
  };
  switch (fmt) {
    case 'lowerLetter':
      return letters(false);
    case 'upperLetter':
      return letters(true);
    case 'lowerRoman':
      return roman(false);
    case 'upperRoman':
      return roman(true);
    case 'chineseCounting':
    case 'chineseCountingThousand':
    case 'ideographTraditional':
    case 'taiwaneseCounting':
      if (n > 0 && n < 100) {
        const tens = Math.floor(n / 10);
        return `${tens > 1 ? CN_DIGITS[tens] : ''}${tens ? '十' : ''}${n % 10 || !tens ? CN_DIGITS[n % 10] : ''}`;
      }
      return String(n);
    default:
      return String(n);
  }
}

interface Slot {
  text: string;
  /** Continues the cell above (vMerge without "restart"). */
  continued: boolean;
}

function cellText(tc: XmlElement, st: BodyState): string {
  const lines: string[] = [];
  for (const c of kids(tc)) {
    if (c.name === 'tbl') {
      st.nested.push(table(c, st));
      lines.push(`[nested table ${st.tables}.${st.nested.length}, below]`);
    } else if (c.name === 'p') lines.push(paragraph(c, st));
    else if (c.name === 'sdt') pushAll(lines, blocks(kid(c, 'sdtContent') ?? c, st));
  }
  return lines.filter((l) => l.trim()).join('\n');
}

/** A table as a grid of strings: merged cells placed in the columns they cover. */
function grid(tbl: XmlElement, st: BodyState): string[][] {
  const rows: string[][] = [];
  for (const tr of kids(tbl, 'tr')) {
    const row: Slot[] = [];
    const before = Number(attr(kid(kid(tr, 'trPr'), 'gridBefore'), 'val') ?? 0);
    for (let i = 0; i < before; i++) row.push({ text: '', continued: false });
    for (const tc of kids(tr).flatMap((c) =>
      c.name === 'sdt' ? kids(kid(c, 'sdtContent'), 'tc') : c.name === 'tc' ? [c] : [],
    )) {
      const pr = kid(tc, 'tcPr');
      const span = Math.max(1, Number(attr(kid(pr, 'gridSpan'), 'val') ?? 1));
      const vMerge = kid(pr, 'vMerge');
      const continued = !!vMerge && attr(vMerge, 'val') !== 'restart';
      row.push({ text: continued ? '' : cellText(tc, st), continued });
      for (let i = 1; i < span; i++) row.push({ text: '', continued });
    }
    rows.push(row.map((s) => s.text));
  }
  return rows;
}

function table(tbl: XmlElement, st: BodyState): string {
  const rows = grid(tbl, st);
  return rows.length ? mdTable(rows) : '';
}

/** Block content (paragraphs, tables, content controls) as Markdown blocks. */
export function blocks(el: XmlElement, st: BodyState): string[] {
  const out: string[] = [];
  for (const c of kids(el)) {
    if (c.name === 'p') {
      const p = paragraph(c, st);
      if (p) out.push(p);
    } else if (c.name === 'tbl') {
      st.tables++;
      const outerNested = st.nested;
      st.nested = [];
      out.push(table(c, st));
      for (const [i, t] of st.nested.entries()) out.push(`Nested table ${st.tables}.${i + 1}:\n\n${t}`);
      st.nested = outerNested;
    } else if (c.name === 'sdt') pushAll(out, blocks(kid(c, 'sdtContent') ?? c, st));
    else if (c.name === 'customXml' || c.name === 'ins' || c.name === 'txbxContent')
      pushAll(out, blocks(c, st));
    else if (c.name === 'AlternateContent') pushAll(out, blocks(kid(c, 'Choice') ?? c, st));
  }
  return out;
}
