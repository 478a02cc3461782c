/**
 * Text-based PDFs as plain text, page by page, through unpdf (a serverless build of pdf.js),
 * loaded on first use. pdf.js is given the CMap files and standard font data of pdfjs-dist
 * (shipped as zhi's own assets: support/install.ts), so Chinese and Japanese PDFs whose fonts are
 * not embedded (GBK-EUC-H, UniGB-UCS2-H, vertical Japanese…) read as text. Form fields are listed with their values under the page
 * they sit on. A PDF without a text layer (scanned pages) is reported as such, with the ocr
 * tool as the way forward.
 *
 * Reading starts at the page that holds the requested offset when an earlier call has measured
 * the pages before it (pdf-pages.ts), so page N of a long PDF is not re-parsed from page 1.
 */
import { pushAll } from '../../../support/arrays.js';
import { readAsset } from '../../../support/install.js';
import { checkPdfStreams, PDF_BOUNDS, type PdfStreamFacts, PdfTooLarge } from './pdf-bounds.js';
import { hiddenPassages, labelHidden } from './pdf-hidden.js';
import { type PositionedItem, pageLayoutText } from './pdf-layout.js';
import { repairGbkMojibake } from './pdf-mojibake.js';
import { type PageStarts, pageStarts } from './pdf-pages.js';
import { DocumentError, type Extracted, type HiddenPart } from './types.js';

/** pdf.js log levels: 0 = errors only. Its warnings would otherwise land on the user's terminal. */
const QUIET = 0;

/** pdf.js operator codes that draw text (showText, showSpacedText, nextLineShowText, nextLineSetSpacingShowText). */
const TEXT_OPS = new Set([44, 45, 46, 47]);

/** A file name pdf.js asks for (from its own tables); anything else is refused, never read. */
function assetName(name: string): string {
  if (!/^[\w.+-]+$/.test(name) || name.startsWith('.')) throw new Error(`no such pdf.js data: ${name}`);
  return name;
}

/** The CMaps pdf.js asks for by name (`GBK-EUC-H`), from zhi's assets. */
class CMapFiles {
  async fetch({ name }: { name: string }): Promise<{ cMapData: Uint8Array; isCompressed: boolean }> {
    return { cMapData: await readAsset(`pdfjs/cmaps/${assetName(name)}.bcmap`), isCompressed: true };
  }
}

/** The standard fonts pdf.js asks for by file name (`FoxitSymbol.pfb`), from zhi's assets. */
class StandardFontFiles {
  async fetch({ filename }: { filename: string }): Promise<Uint8Array> {
    return readAsset(`pdfjs/standard_fonts/${assetName(filename)}`);
  }
}

interface Annotation {
  subtype?: string;
  fieldName?: string;
  fieldType?: string;
  fieldValue?: unknown;
  checkBox?: boolean;
  radioButton?: boolean;
  exportValue?: string;
  buttonValue?: string;
  alternativeText?: string;
  /** Text drawn by the widget's appearance stream (pdf.js extracts it). */
  textContent?: string[];
}

/**
 * The form fields on a page as `- name: value` lines (checkboxes as [x] / [ ]). A field shown by
 * several widgets is listed once; a text field without a value (/V, inherited from its parent
 * by pdf.js) shows what its appearance draws — some form fillers write only that.
 */
export function formLines(annotations: Annotation[]): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const a of annotations) {
    if (a.subtype !== 'Widget' || !a.fieldName || a.fieldType === 'Sig') continue;
    const name = a.alternativeText?.trim() || a.fieldName;
    const value = a.fieldValue;
    if (!a.checkBox && seen.has(a.fieldName)) continue;
    seen.add(a.fieldName);
    if (a.checkBox) {
      const on = value !== undefined && value !== null && value !== 'Off' && value !== '';
      lines.push(`- ${name}: ${on ? '[x]' : '[ ]'}`);
    } else if (a.radioButton) {
      lines.push(`- ${name}: ${value && value !== 'Off' ? String(value) : '(none chosen)'}`);
    } else if (a.fieldType === 'Tx' || a.fieldType === 'Ch') {
      const text = Array.isArray(value) ? value.join(', ') : value == null ? '' : String(value);
      const drawn = a.textContent?.join('').trim() ?? '';
      lines.push(`- ${name}: ${text.trim() || drawn || '(empty)'}`);
    }
  }
  return lines;
}

export interface ReadPdfOptions {
  /** Offset in the extracted text the caller wants to start at. */
  offset: number;
  /** Stop once the text reaches this offset. */
  limit: number;
  /** Identifies this version of the file, to remember where its pages start. */
  cacheKey?: string;
  signal?: AbortSignal;
}

/** Files whose streams were measured already (by cacheKey): a later page need not decode them again. */
const measured = new Map<string, PdfStreamFacts>();

/** Refuse a PDF whose streams decode past the bounds, before pdf.js inflates them in-process. */
function checkBounds(data: Buffer, cacheKey: string | undefined): PdfStreamFacts {
  const known = cacheKey ? measured.get(cacheKey) : undefined;
  if (known) return known;
  let facts: PdfStreamFacts;
  try {
    facts = checkPdfStreams(data);
  } catch (err) {
    if (!(err instanceof PdfTooLarge)) throw err;
    const mb = (n: number) => Math.round(n / 1024 / 1024);
    throw new DocumentError(
      'too_large',
      `This PDF holds a compressed stream that expands past ${mb(PDF_BOUNDS.streamBytes)} MB (or ${mb(PDF_BOUNDS.totalBytes)} MB in all), far more than any page of text needs; it was not read (it may be a decompression bomb). The ocr tool can read its pages as images.`,
    );
  }
  if (cacheKey) {
    if (measured.size >= 64) measured.clear();
    measured.set(cacheKey, facts);
  }
  return facts;
}

export async function readPdf(data: Buffer, opts: ReadPdfOptions): Promise<Extracted> {
  const facts = checkBounds(data, opts.cacheKey);
  const { getDocumentProxy } = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(new Uint8Array(data), {
      verbosity: QUIET,
      isEvalSupported: false,
      cMapPacked: true,
      CMapReaderFactory: CMapFiles,
      StandardFontDataFactory: StandardFontFiles,
      // Images are decoded no larger than this many pixels (an image bomb is skipped, not drawn).
      maxImageSize: 50_000_000,
    });
  } catch (err) {
    const name = (err as Error).name;
    if (name === 'PasswordException') {
      throw new DocumentError(
        'encrypted',
        'This PDF is password-protected and cannot be read. Ask the user for an unprotected copy.',
      );
    }
    throw new DocumentError(
      'unreadable',
      `This file cannot be read as a PDF (${(err as Error).message}). It may be damaged or not really a PDF.`,
    );
  }
  try {
    return await readPages(pdf, opts, pageStarts(opts.cacheKey), facts.mayHide);
  } finally {
    await pdf.destroy().catch(() => {});
  }
}

type Doc = Awaited<ReturnType<typeof import('unpdf').getDocumentProxy>>;

interface PageText {
  text: string;
  undecodable: boolean;
  fields: string[];
  hidden: HiddenPart[];
}

async function pageText(pdf: Doc, n: number, mayHide: boolean): Promise<PageText> {
  const page = await pdf.getPage(n);
  try {
    // Raw characters (pdf.js would otherwise fold µ into μ and break GBK repair); ligatures are
    // unfolded here instead.
    const content = await page.getTextContent({ disableNormalization: true } as never);
    const items = content.items as PositionedItem[];
    for (const item of items) {
      if (!item.str) continue;
      item.str =
        repairGbkMojibake(item.str) ?? item.str.replace(/[\ufb00-\ufb06]/g, (c) => c.normalize('NFKC'));
    }
    let text = pageLayoutText(items).replace(/\uffff/g, '');
    const fields = formLines((await page.getAnnotations().catch(() => [])) as Annotation[]);
    let undecodable = false;
    let hidden: HiddenPart[] = [];
    if (!text) {
      const ops = await page.getOperatorList().catch(() => undefined);
      undecodable = !!ops?.fnArray.some((op: number) => TEXT_OPS.has(op));
    } else if (mayHide) {
      // Only where a stream sets a hiding state: walking the drawing costs a second parse.
      const ops = await page.getOperatorList().catch(() => undefined);
      hidden = ops ? hiddenPassages(ops) : [];
      if (hidden.length) text = labelHidden(text, hidden);
    }
    return { text, undecodable, fields, hidden };
  } finally {
    page.cleanup();
  }
}

async function readPages(
  pdf: Doc,
  opts: ReadPdfOptions,
  starts: PageStarts,
  mayHide: boolean,
): Promise<Extracted> {
  const pages = pdf.numPages;
  const parts: string[] = [];
  const hidden: HiddenPart[] = [];
  const empty: number[] = [];
  /** Pages that draw text pdf.js cannot decode (a font without a usable character map). */
  const undecodable: number[] = [];
  const first = starts.pageAt(opts.offset);
  let size = starts.startOf(first);
  const base = size;
  let partial = false;
  for (let n = first; n <= pages; n++) {
    if (opts.signal?.aborted) throw new DocumentError('unreadable', 'Interrupted.');
    if (size > opts.limit) {
      partial = true;
      break;
    }
    starts.record(n, size);
    const page = await pageText(pdf, n, mayHide);
    pushAll(hidden, page.hidden);
    let why = '[no text on this page: probably a scanned image; the ocr tool can read it]';
    if (!page.text && !page.fields.length) {
      empty.push(n);
      if (page.undecodable) {
        undecodable.push(n);
        why =
          '[this page has text in a font whose characters cannot be decoded here; the ocr tool can read it]';
      }
    }
    const form = page.fields.length ? `\n\nForm fields:\n${page.fields.join('\n')}` : '';
    const body = page.text || (page.fields.length ? '' : why);
    const section = `--- page ${n} of ${pages} ---\n${body}${form}`.replace(/\n\n\n+/g, '\n\n');
    parts.push(section);
    size += Buffer.byteLength(section, 'utf8') + 2;
  }
  if (!partial && first === 1 && empty.length === pages && undecodable.length) {
    throw new DocumentError(
      'no_text_layer',
      'This PDF has text, but in a font whose characters cannot be decoded here, so no text can be read directly. Use the ocr tool on the same path to extract its text.',
    );
  }
  if (!partial && first === 1 && empty.length === pages) {
    throw new DocumentError(
      'no_text_layer',
      `This PDF has no text layer (${pages} page${pages === 1 ? '' : 's'} of scanned images or drawings), so there is no text to read directly. Use the ocr tool on the same path to extract its text.`,
    );
  }
  const notes = empty.length
    ? [
        `page${empty.length === 1 ? '' : 's'} ${empty.join(', ')} without readable text (the ocr tool can read them)`,
      ]
    : [];
  if (hidden.length)
    notes.push(
      `${hidden.length} passage(s) a reader of the PDF does not see (white, invisible or tiny text), labelled in the text`,
    );
  return { text: parts.join('\n\n'), pages, partial, notes, base, ...(hidden.length ? { hidden } : {}) };
}
