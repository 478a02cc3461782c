/**
 * PowerPoint (.pptx) presentations as text: slides in the order of presentation.xml, each as a
 * numbered section with its title (the title placeholder), its text (bullets by level, tables as
 * tables, grouped shapes in order) and its speaker notes. Pictures are counted, not shown.
 */
import { posix } from 'node:path';
import { pushAll } from '../../../support/arrays.js';
import { mdTable } from './markdown.js';
import { renderSlides, type SlideText } from './slides.js';
import { DocumentError, type Extracted } from './types.js';
import {
  attr,
  find,
  isElement,
  kid,
  kids,
  parseTree,
  parseTreeInSlices,
  type XmlElement,
} from './xml-tree.js';
import { openZip, type ZipParts } from './zip.js';

interface Rel {
  type: string;
  target: string;
}

/** The relationships of a part, targets resolved to package paths. */
async function relsOf(zip: ZipParts, part: string): Promise<Map<string, Rel>> {
  const dir = posix.dirname(part);
  const xml = await zip.text(posix.join(dir, '_rels', `${posix.basename(part)}.rels`));
  const out = new Map<string, Rel>();
  if (!xml) return out;
  for (const r of kids(parseTree(xml).children.find(isElement), 'Relationship')) {
    const target = r.attrs.Target ?? '';
    if (r.attrs.TargetMode === 'External') continue;
    const path = target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join(dir, target));
    out.set(r.attrs.Id ?? '', { type: r.attrs.Type ?? '', target: path });
  }
  return out;
}

/** The text of one `a:p`: runs, fields and line breaks. */
function paraText(p: XmlElement): string {
  let out = '';
  for (const c of kids(p)) {
    if (c.name === 'r' || c.name === 'fld') out += textOf(kid(c, 't'));
    else if (c.name === 'br') out += '\n';
  }
  return out;
}

function textOf(el: XmlElement | undefined): string {
  return el ? el.children.filter((c): c is string => typeof c === 'string').join('') : '';
}

/** A text body as Markdown blocks; in a body placeholder or with a bullet, paragraphs are list items. */
function bodyBlocks(txBody: XmlElement | undefined, listy: boolean): string[] {
  const lines: string[] = [];
  const counters: number[] = [];
  for (const p of kids(txBody, 'p')) {
    const text = paraText(p).trim();
    if (!text) continue;
    const pPr = kid(p, 'pPr');
    const level = Math.min(Number(attr(pPr, 'lvl') ?? 0) || 0, 8);
    const none = kid(pPr, 'buNone');
    const numbered = kid(pPr, 'buAutoNum');
    const bullet = !none && (listy || numbered || kid(pPr, 'buChar'));
    if (!bullet) {
      lines.push(text);
      continue;
    }
    counters.length = level + 1;
    counters[level] = (counters[level] ?? 0) + 1;
    const mark = numbered ? `${counters[level]}. ` : '- ';
    lines.push(`${'  '.repeat(level)}${mark}${text.replace(/\n/g, `\n${'  '.repeat(level + 1)}`)}`);
  }
  return lines.length ? [lines.join('\n')] : [];
}

function tableBlock(tbl: XmlElement): string | undefined {
  const rows = kids(tbl, 'tr').map((tr) =>
    kids(tr, 'tc').map((tc) =>
      attr(tc, 'hMerge') || attr(tc, 'vMerge') ? '' : bodyBlocks(kid(tc, 'txBody'), false).join('\n'),
    ),
  );
  return rows.some((r) => r.some((c) => c.trim())) ? mdTable(rows) : undefined;
}

interface ShapeWalk {
  title: string;
  blocks: string[];
  pictures: number;
}

/** Shapes of a tree in document order: text shapes, tables, groups. */
function walkShapes(tree: XmlElement, out: ShapeWalk, notesOnly = false): void {
  for (const shape of kids(tree)) {
    if (shape.name === 'grpSp') walkShapes(shape, out, notesOnly);
    else if (shape.name === 'pic') out.pictures++;
    else if (shape.name === 'graphicFrame' && !notesOnly) {
      const tbl = find(shape, 'tbl');
      const block = tbl && tableBlock(tbl);
      if (block) out.blocks.push(block);
    } else if (shape.name === 'sp') {
      const ph = find(kid(shape, 'nvSpPr') ?? shape, 'ph');
      const type = ph ? (attr(ph, 'type') ?? 'body') : undefined;
      if (type === 'sldNum' || type === 'dt' || type === 'ftr' || type === 'hdr' || type === 'sldImg')
        continue;
      if (notesOnly && type !== 'body') continue;
      const blocks = bodyBlocks(kid(shape, 'txBody'), type === 'body' && !notesOnly);
      if (!blocks.length) continue;
      if ((type === 'title' || type === 'ctrTitle') && !out.title) out.title = blocks.join(' ');
      else pushAll(out.blocks, blocks);
    }
  }
}

async function readSlide(zip: ZipParts, path: string): Promise<{ slide: SlideText; pictures: number }> {
  const xml = await zip.text(path);
  const root = xml ? (await parseTreeInSlices(xml)).children.find(isElement) : undefined;
  const walk: ShapeWalk = { title: '', blocks: [], pictures: 0 };
  const tree = root && find(root, 'spTree');
  if (tree) walkShapes(tree, walk);
  let notes = '';
  for (const rel of (await relsOf(zip, path)).values()) {
    if (!rel.type.endsWith('/notesSlide')) continue;
    const n = await zip.text(rel.target);
    const nTree = n ? find(parseTree(n), 'spTree') : undefined;
    const nWalk: ShapeWalk = { title: '', blocks: [], pictures: 0 };
    if (nTree) walkShapes(nTree, nWalk, true);
    notes = nWalk.blocks.join('\n');
  }
  const hidden = attr(root, 'show') === '0';
  return {
    slide: { title: walk.title, blocks: walk.blocks, notes, ...(hidden ? { hidden } : {}) },
    pictures: walk.pictures,
  };
}

export async function readPptx(data: Buffer): Promise<Extracted> {
  let zip: ZipParts;
  try {
    zip = await openZip(data);
  } catch (err) {
    throw new DocumentError(
      'unreadable',
      `This file cannot be read as a PowerPoint file (${(err as Error).message}); it may be damaged or password-protected.`,
    );
  }
  const pres = await zip.text('ppt/presentation.xml');
  if (!pres)
    throw new DocumentError(
      'unreadable',
      'This file is not a valid PowerPoint file (it has no ppt/presentation.xml).',
    );
  const rels = await relsOf(zip, 'ppt/presentation.xml');
  const list = find(parseTree(pres), 'sldIdLst');
  const slides: SlideText[] = [];
  let pictures = 0;
  for (const id of kids(list, 'sldId')) {
    const rel = rels.get(Object.entries(id.attrs).find(([k]) => k.endsWith(':id'))?.[1] ?? '');
    if (!rel) continue;
    const read = await readSlide(zip, rel.target);
    slides.push(read.slide);
    pictures += read.pictures;
  }
  return {
    text: renderSlides(slides),
    pages: slides.length,
    notes: pictures ? [`${pictures} picture(s) not shown`] : [],
  };
}
