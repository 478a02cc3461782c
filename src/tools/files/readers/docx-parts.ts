/**
 * The parts of a .docx that give the body its meaning: which paragraph styles are headings
 * (by name — "heading 2", "标题 2" — or outline level), which numbering is a bullet list, where
 * relationship ids point (links, headers, footers), and the comments and notes the body refers
 * to by id.
 */
import { attr, find, kid, kids, parseTreeInSlices, type XmlElement } from './xml-tree.js';
import type { ZipParts } from './zip.js';

export interface DocxParts {
  /** styleId → heading level 1–6. */
  headings: Map<string, number>;
  /** `${numId}:${ilvl}` → true when that list level is numbered (not bullets). */
  numbered: Map<string, boolean>;
  /** `${numId}:${ilvl}` → how that level numbers: format, marker text (`%1.`), first number. */
  levels: Map<string, ListLevel>;
  /** Paragraph styles that number their paragraphs (Word's "List Number"): styleId → numPr. */
  styleLists: Map<string, { numId: string; ilvl: string }>;
  /** Relationship id → target (URL for links, part path for headers and footers). */
  rels: Map<string, { target: string; type: string; external: boolean }>;
}

export interface ListLevel {
  fmt: string;
  text: string;
  start: number;
}

async function tree(zip: ZipParts, path: string): Promise<XmlElement | undefined> {
  const text = await zip.text(path);
  return text === undefined ? undefined : parseTreeInSlices(text);
}

function headingLevel(style: XmlElement): number | undefined {
  const name = attr(kid(style, 'name'), 'val')?.toLowerCase() ?? '';
  const m = /^(?:heading|标题|見出し|제목)\s*(\d)$/.exec(name);
  if (m) return Math.min(6, Number(m[1]));
  if (name === 'title') return 1;
  const outline = attr(kid(kid(style, 'pPr'), 'outlineLvl'), 'val');
  return outline !== undefined && Number(outline) < 6 ? Number(outline) + 1 : undefined;
}

async function readStyles(zip: ZipParts): Promise<Pick<DocxParts, 'headings' | 'styleLists'>> {
  const headings = new Map<string, number>();
  const styleLists: DocxParts['styleLists'] = new Map();
  const root = await tree(zip, 'word/styles.xml');
  const styles = root ? find(root, 'styles') : undefined;
  const basedOn = new Map<string, string>();
  for (const s of kids(styles, 'style')) {
    const id = attr(s, 'styleId');
    if (!id) continue;
    const level = headingLevel(s);
    if (level) headings.set(id, level);
    const numPr = kid(kid(s, 'pPr'), 'numPr');
    const numId = attr(kid(numPr, 'numId'), 'val');
    if (numId && numId !== '0') styleLists.set(id, { numId, ilvl: attr(kid(numPr, 'ilvl'), 'val') ?? '0' });
    const base = attr(kid(s, 'basedOn'), 'val');
    if (base) basedOn.set(id, base);
  }
  // A style based on a numbering style numbers too (a few levels up, never in a loop).
  for (const [id, base] of basedOn) {
    let b: string | undefined = base;
    for (let i = 0; i < 5 && b && !styleLists.has(id); i++, b = basedOn.get(b)) {
      const found = styleLists.get(b);
      if (found) styleLists.set(id, found);
    }
  }
  return { headings, styleLists };
}

async function readNumbering(zip: ZipParts): Promise<Pick<DocxParts, 'numbered' | 'levels'>> {
  const out = new Map<string, boolean>();
  const levels: DocxParts['levels'] = new Map();
  const root = await tree(zip, 'word/numbering.xml');
  const numbering = root ? find(root, 'numbering') : undefined;
  if (!numbering) return { numbered: out, levels };
  const abstract = new Map<string, XmlElement>();
  for (const a of kids(numbering, 'abstractNum')) abstract.set(attr(a, 'abstractNumId') ?? '', a);
  for (const num of kids(numbering, 'num')) {
    const def = abstract.get(attr(kid(num, 'abstractNumId'), 'val') ?? '');
    for (const lvl of kids(def, 'lvl')) {
      const fmt = attr(kid(lvl, 'numFmt'), 'val') ?? 'bullet';
      const key = `${attr(num, 'numId')}:${attr(lvl, 'ilvl')}`;
      out.set(key, fmt !== 'bullet' && fmt !== 'none');
      const ilvl = Number(attr(lvl, 'ilvl') ?? 0);
      levels.set(key, {
        fmt,
        text: attr(kid(lvl, 'lvlText'), 'val') ?? `%${ilvl + 1}.`,
        start: Number(attr(kid(lvl, 'start'), 'val') ?? 1) || 1,
      });
    }
  }
  return { numbered: out, levels };
}

async function readRels(zip: ZipParts): Promise<DocxParts['rels']> {
  const out: DocxParts['rels'] = new Map();
  const root = await tree(zip, 'word/_rels/document.xml.rels');
  const rels = root ? find(root, 'Relationships') : undefined;
  for (const r of kids(rels, 'Relationship')) {
    const id = r.attrs.Id;
    const target = r.attrs.Target;
    if (!id || !target) continue;
    const external = r.attrs.TargetMode === 'External';
    const path = external || target.startsWith('/') ? target.replace(/^\//, '') : `word/${target}`;
    out.set(id, { target: path, type: (r.attrs.Type ?? '').split('/').pop() ?? '', external });
  }
  return out;
}

export async function readDocxParts(zip: ZipParts): Promise<DocxParts> {
  const [styles, numbering, rels] = await Promise.all([readStyles(zip), readNumbering(zip), readRels(zip)]);
  return { ...styles, ...numbering, rels };
}

/** Comments, footnotes or endnotes: id → the element holding that item's paragraphs. */
export async function readNotes(
  zip: ZipParts,
  path: string,
  item: 'comment' | 'footnote' | 'endnote',
): Promise<Map<string, XmlElement>> {
  const out = new Map<string, XmlElement>();
  const root = await tree(zip, path);
  const list = root ? kids(root)[0] : undefined;
  for (const el of kids(list, item)) {
    // Separator "notes" (type separator / continuationSeparator) are layout, not content.
    if (attr(el, 'type') && attr(el, 'type') !== 'normal') continue;
    const id = attr(el, 'id');
    if (id !== undefined) out.set(id, el);
  }
  return out;
}

export { tree as readTree };
