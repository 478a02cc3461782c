/**
 * OpenDocument files (.odt text, .ods spreadsheets, .odp presentations) as Markdown, read from
 * their content.xml with the walker in odf-text.ts. An encrypted package (its manifest lists
 * encryption data) is refused with a clear message, not read as noise.
 */
import { pushAll } from '../../../support/arrays.js';
import { mdTable } from './markdown.js';
import { numberedListStyles, type OdfContext, odfBlocks, tableRows, trimTable } from './odf-text.js';
import { renderSlides, type SlideText } from './slides.js';
import { DocumentError, type Extracted } from './types.js';
import { attr, find, kids, parseTree, parseTreeInSlices, type XmlElement } from './xml-tree.js';
import { openZip, type ZipParts } from './zip.js';

export type OdfKind = 'odt' | 'ods' | 'odp';

const NAMES: Record<OdfKind, string> = {
  odt: 'OpenDocument text',
  ods: 'OpenDocument spreadsheet',
  odp: 'OpenDocument presentation',
};

async function open(
  data: Buffer,
  kind: OdfKind,
): Promise<{ zip: ZipParts; content: XmlElement; ctx: OdfContext; styles: XmlElement | undefined }> {
  let zip: ZipParts;
  try {
    zip = await openZip(data);
  } catch (err) {
    throw new DocumentError(
      'unreadable',
      `This file cannot be read as an ${NAMES[kind]} (${(err as Error).message}); it may be damaged.`,
    );
  }
  const manifest = await zip.text('META-INF/manifest.xml');
  if (manifest && /encryption-data/.test(manifest))
    throw new DocumentError(
      'encrypted',
      'This file is password-protected (an encrypted OpenDocument file); it cannot be read. Ask the user for a copy saved without a password.',
    );
  const xml = await zip.text('content.xml');
  if (!xml)
    throw new DocumentError('unreadable', `This file is not a valid ${NAMES[kind]} (it has no content.xml).`);
  const content = await parseTreeInSlices(xml);
  const stylesXml = await zip.text('styles.xml');
  const styles = stylesXml ? parseTree(stylesXml) : undefined;
  const ctx = { numbered: numberedListStyles(content, styles) };
  return { zip, content, ctx, styles };
}

export async function readOdf(data: Buffer, kind: OdfKind, limit: number): Promise<Extracted> {
  const { content, ctx, styles } = await open(data, kind);
  const body = find(content, 'body');
  if (kind === 'odt') {
    const text = find(body ?? content, 'text');
    const out = text ? odfBlocks(text, ctx).join('\n\n') : '';
    const margins = styles ? pageMargins(styles, ctx) : { header: [], footer: [] };
    const sections = [
      ...margins.header.map((h) => `--- header ---\n${h}`),
      out,
      ...margins.footer.map((f) => `--- footer ---\n${f}`),
    ].filter(Boolean);
    return { text: sections.join('\n\n') || '(This document is empty.)' };
  }
  if (kind === 'ods') return spreadsheet(find(body ?? content, 'spreadsheet'), ctx, limit);
  const slides = odpSlides(find(body ?? content, 'presentation'), ctx);
  return { text: renderSlides(slides), pages: slides.length };
}

function spreadsheet(root: XmlElement | undefined, ctx: OdfContext, limit: number): Extracted {
  const sheets: string[] = [];
  const sections: string[] = [];
  let size = 0;
  let partial = false;
  for (const table of kids(root, 'table')) {
    const name = attr(table, 'name') ?? `Sheet${sheets.length + 1}`;
    sheets.push(name);
    if (size > limit) {
      partial = true;
      continue;
    }
    const rows = trimTable(tableRows(table, (cell) => odfBlocks(cell, ctx).join('\n')));
    const section = `## ${name}\n\n${rows.length ? mdTable(rows) : '(empty sheet)'}`;
    sections.push(section);
    size += Buffer.byteLength(section, 'utf8');
  }
  if (!sheets.length) return { text: '(This workbook has no sheets.)', sheets };
  return { text: sections.join('\n\n'), sheets, partial };
}

/** Frames of a page in order; the title placeholder gives the slide its title. */
function odpSlides(root: XmlElement | undefined, ctx: OdfContext): SlideText[] {
  return kids(root, 'page').map((page) => {
    const slide: SlideText = { title: '', blocks: [], notes: '' };
    for (const shape of kids(page)) {
      if (shape.name === 'notes') {
        slide.notes = kids(shape)
          .filter((f) => attr(f, 'class') === 'notes')
          .flatMap((f) => odfBlocks(f, ctx))
          .join('\n');
        continue;
      }
      const cls = attr(shape, 'class');
      if (cls === 'page-number' || cls === 'date-time' || cls === 'footer' || cls === 'header') continue;
      const blocks = odfBlocks(shape, ctx);
      if (!blocks.length) continue;
      if (cls === 'title' && !slide.title) slide.title = blocks.join(' ');
      else pushAll(slide.blocks, blocks);
    }
    return slide;
  });
}

/** Fields a page header or footer shows differently on each page: left out of its text. */
const PAGE_FIELDS = new Set(['page-number', 'page-count', 'date', 'time', 'chapter']);

function withoutFields(el: XmlElement): XmlElement {
  return {
    ...el,
    children: el.children
      .filter((c) => !(typeof c !== 'string' && PAGE_FIELDS.has(c.name)))
      .map((c) => (typeof c === 'string' ? c : withoutFields(c))),
  };
}

/**
 * The headers and footers of the master pages (styles.xml), each distinct text once, as the
 * Word reader gives them (issue 45: OpenDocument footers were missing).
 */
function pageMargins(styles: XmlElement, ctx: OdfContext): { header: string[]; footer: string[] } {
  const out = { header: new Set<string>(), footer: new Set<string>() };
  const walk = (el: XmlElement) => {
    for (const c of kids(el)) {
      if (c.name === 'master-page') {
        for (const part of kids(c)) {
          const which = part.name.startsWith('header')
            ? 'header'
            : part.name.startsWith('footer')
              ? 'footer'
              : undefined;
          if (!which) continue;
          const text = odfBlocks(withoutFields(part), { ...ctx, next: new Map() })
            .join('\n')
            .trim();
          if (text) out[which].add(text);
        }
      } else walk(c);
    }
  };
  walk(styles);
  return { header: [...out.header], footer: [...out.footer] };
}
