/**
 * The parts of a .docx that give the body its meaning: which paragraph styles are headings
 * (by name — "heading 2", "标题 2" — or outline level), which numbering is a bullet list, where
 * relationship ids point (links, headers, footers), and the comments and notes the body refers
 * to by id.
 */
import { attr, find, kid, kids, parseTree, type XmlElement } from './xml-tree.js';
import type { ZipParts } from './zip.js';

export interface DocxParts {
  /** styleId → heading level 1–6. */
  headings: Map<string, number>;
  /** `${numId}:${ilvl}` → true when that list level is numbered (not bullets). */
  numbered: Map<string, boolean>;
  /** Relationship id → target (URL for links, part path for headers and footers). */
  rels: Map<string, { target: string; type: string; external: boolean }>;
}

async function tree(zip: ZipParts, path: string): Promise<XmlElement | undefined> {
  const text = await zip.text(path);
  return text === undefined ? undefined : parseTree(text);
}

function headingLevel(style: XmlElement): number | undefined {
  const name = attr(kid(style, 'name'), 'val')?.toLowerCase() ?? '';
  const m = /^(?:heading|标题|見出し|제목)\s*(\d)$/.exec(name);
  if (m) return Math.min(6, Number(m[1]));
  if (name === 'title') return 1;
  const outline = attr(kid(kid(style, 'pPr'), 'outlineLvl'), 'val');
  return outline !== undefined && Number(outline) < 6 ? Number(outline) + 1 : undefined;
}

async function readStyles(zip: ZipParts): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const root = await tree(zip, 'word/styles.xml');
  const styles = root ? find(root, 'styles') : undefined;
  for (const s of kids(styles, 'style')) {
    const id = attr(s, 'styleId');
    const level = headingLevel(s);
    if (id && level) out.set(id, level);
  }
  return out;
}

async function readNumbering(zip: ZipParts): Promise<Map<string, boolean>> {
  const out = new Map<string, boolean>();
  const root = await tree(zip, 'word/numbering.xml');
  const numbering = root ? find(root, 'numbering') : undefined;
  if (!numbering) return out;
  const abstract = new Map<string, XmlElement>();
  for (const a of kids(numbering, 'abstractNum')) abstract.set(attr(a, 'abstractNumId') ?? '', a);
  for (const num of kids(numbering, 'num')) {
    const def = abstract.get(attr(kid(num, 'abstractNumId'), 'val') ?? '');
    for (const lvl of kids(def, 'lvl')) {
      const fmt = attr(kid(lvl, 'numFmt'), 'val') ?? 'bullet';
      out.set(`${attr(num, 'numId')}:${attr(lvl, 'ilvl')}`, fmt !== 'bullet' && fmt !== 'none');
    }
  }
  return out;
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
  const [headings, numbered, rels] = await Promise.all([readStyles(zip), readNumbering(zip), readRels(zip)]);
  return { headings, numbered, rels };
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
