/**
 * Word documents as Markdown, read from the package's XML (docx-body.ts walks it): headings,
 * lists by level, tables with merged cells in their columns and nested tables kept, equations
 * as linear text, and — in marked sections — headers, footers, footnotes and comments, with
 * markers in the text where comments and notes are anchored.
 */
import { type BodyState, blocks } from './docx-body.js';
import { readDocxParts, readNotes, readTree } from './docx-parts.js';
import { DocumentError, type Extracted } from './types.js';
import { find, type XmlElement } from './xml-tree.js';
import { openZip, type ZipParts } from './zip.js';

function unreadable(detail: string): DocumentError {
  return new DocumentError(
    'unreadable',
    `This file cannot be read as a Word document (${detail}). It may be damaged, password-protected, or an old .doc file saved with a .docx name.`,
  );
}

function render(el: XmlElement | undefined, st: BodyState): string {
  return el ? blocks(el, st).join('\n\n').trim() : '';
}

/** Headers or footers, each distinct text once (first-page and odd/even variants often repeat). */
async function margins(zip: ZipParts, st: BodyState, type: 'header' | 'footer'): Promise<string[]> {
  const seen = new Set<string>();
  for (const rel of st.parts.rels.values()) {
    if (rel.type !== type || rel.external) continue;
    const root = await readTree(zip, rel.target);
    const text = render(root ? find(root, type === 'header' ? 'hdr' : 'ftr') : undefined, st);
    if (text) seen.add(text);
  }
  return [...seen];
}

async function comments(zip: ZipParts, st: BodyState): Promise<string[]> {
  if (!st.comments.length) return [];
  const all = await readNotes(zip, 'word/comments.xml', 'comment');
  return st.comments.map((id, i) => {
    const c = all.get(id);
    const author = c?.attrs['w:author'] ?? '';
    const text = c ? render(c, st).replace(/\n\n/g, ' ') : '';
    return `[comment ${i + 1}]${author ? ` ${author}:` : ''} ${text}`.trimEnd();
  });
}

async function notes(zip: ZipParts, st: BodyState): Promise<string[]> {
  if (!st.footnotes.length) return [];
  const [foot, end] = await Promise.all([
    readNotes(zip, 'word/footnotes.xml', 'footnote'),
    readNotes(zip, 'word/endnotes.xml', 'endnote'),
  ]);
  return st.footnotes.map((ref, i) => {
    const el = (ref[0] === 'f' ? foot : end).get(ref.slice(1));
    return `[^${i + 1}]: ${el ? render(el, st).replace(/\n\n/g, ' ') : ''}`.trimEnd();
  });
}

export async function readDocx(data: Buffer): Promise<Extracted> {
  const st: BodyState = {
    parts: {
      headings: new Map(),
      numbered: new Map(),
      levels: new Map(),
      styleLists: new Map(),
      rels: new Map(),
    },
    counters: new Map(),
    images: 0,
    comments: [],
    footnotes: [],
    nested: [],
    tables: 0,
    hidden: [],
  };
  let body: string;
  const sections: string[] = [];
  try {
    const zip = await openZip(data);
    st.parts = await readDocxParts(zip);
    const doc = await readTree(zip, 'word/document.xml');
    const root = doc ? find(doc, 'body') : undefined;
    if (!root) throw new Error('it has no word/document.xml');
    body = render(root, st);
    const [headers, footers] = [await margins(zip, st, 'header'), await margins(zip, st, 'footer')];
    const [noteLines, commentLines] = [await notes(zip, st), await comments(zip, st)];
    for (const h of headers) sections.push(`--- header ---\n${h}`);
    sections.push(body);
    if (noteLines.length) sections.push(`--- notes ---\n${noteLines.join('\n')}`);
    if (commentLines.length) sections.push(`--- comments ---\n${commentLines.join('\n')}`);
    for (const f of footers) sections.push(`--- footer ---\n${f}`);
  } catch (err) {
    if (err instanceof DocumentError) throw err;
    throw unreadable((err as Error).message);
  }
  const notesOut = st.images ? [`${st.images} image(s) not shown`] : [];
  if (st.hidden.length)
    notesOut.push(
      `${st.hidden.length} passage(s) Word does not show (hidden or white text), labelled in the text`,
    );
  const hidden = st.hidden.length ? { hidden: st.hidden } : {};
  if (!body)
    return {
      text: st.images
        ? '(This document contains only images and no text. The ocr tool can read text in images.)'
        : '(This document is empty.)',
      notes: notesOut,
      ...hidden,
    };
  return { text: sections.join('\n\n'), notes: notesOut, ...hidden };
}
