/**
 * readDocument(): the text of a file, whatever its kind — plain text in any common encoding
 * (UTF-8, UTF-16, GBK/GB18030), Word (.docx) and Excel (.xlsx) as Markdown, text-based PDF
 * page by page — capped at a size with a visible marker. Used by file_read and by skills for
 * their input files. Failures are DocumentError (a ToolError) with a `code` and a message the
 * model can act on; the heavy libraries load only when their format is read.
 *
 *   const doc = await readDocument('/abs/report.docx', { maxBytes: 100 * 1024 });
 *   doc.text      // Markdown, ends with a "[truncated: …]" marker when cut
 *   doc.kind      // 'text' | 'docx' | 'xlsx' | 'pdf'
 */

import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { formatBytes } from '../../../support/text.js';
import { refuseSecretText } from '../../secrets.js';
import { displayEncoding, type TextEncodingName } from './charset.js';
import { contentOf, needsContentCheck, readAsContent } from './disguised.js';
import { binaryMessage, fileFacts, fsError, readHead, tooLarge } from './file-access.js';
import { commentsIn } from './hidden.js';
import { LEGACY_EXT } from './legacy.js';
import { interrupted, withReadSignal } from './read-signal.js';
import { sniffBinary } from './text.js';
import { readTextWindow } from './text-window.js';
import {
  DEFAULT_MAX_BYTES,
  DocumentError,
  type DocumentKind,
  type Extracted,
  type HiddenPart,
} from './types.js';

export type { DocumentKind } from './types.js';
export { DEFAULT_MAX_BYTES, DocumentError, type DocumentErrorCode, type HiddenPart } from './types.js';

export interface ReadDocumentOptions {
  /** Most UTF-8 bytes of text to return (default 100 KB); the rest is cut with a visible marker. */
  maxBytes?: number;
  /** Skip this many bytes of the extracted text first, to read a long document in parts. */
  offset?: number;
  /** Appended to the truncation marker, e.g. how to ask for the next part. */
  continueHint?: (nextOffset: number) => string;
  signal?: AbortSignal;
  /**
   * Let text holding a private key or zhi's key through: only for a file the person attached
   * themselves (`@file`). Otherwise such text is refused, whatever the reader (docx, PDF, UTF-16).
   */
  allowSecrets?: boolean;
}

export interface DocumentText {
  /** The text (Markdown for documents), possibly cut, then ending with a `[truncated: …]` marker. */
  text: string;
  kind: DocumentKind;
  /** For plain text: the encoding it was decoded from. */
  encoding?: TextEncodingName;
  /** Size of the file on disk. */
  fileBytes: number;
  /** UTF-8 size of all the extracted text (a lower bound when `complete` is false). */
  textBytes: number;
  /** False when extraction stopped early (a huge workbook or PDF) because enough text was there. */
  complete: boolean;
  truncated: boolean;
  offset: number;
  /** Where the next part starts, when truncated. */
  nextOffset?: number;
  pages?: number;
  sheets?: string[];
  /** Things worth telling the reader (pages without text, images not shown…). */
  notes: string[];
  /** Content the document hides from a person reading it (labelled as hidden in `text`). */
  hidden: HiddenPart[];
}

/** Largest file each kind will load into memory. */
const MAX_FILE_BYTES: Record<DocumentKind, number> = {
  // Text is read by byte range, a page at a time: its size costs nothing.
  text: 4 * 1024 * 1024 * 1024,
  docx: 50 * 1024 * 1024,
  xlsx: 50 * 1024 * 1024,
  pdf: 100 * 1024 * 1024,
  pptx: 200 * 1024 * 1024,
  odt: 50 * 1024 * 1024,
  ods: 50 * 1024 * 1024,
  odp: 200 * 1024 * 1024,
  doc: 50 * 1024 * 1024,
  xls: 50 * 1024 * 1024,
  ppt: 200 * 1024 * 1024,
  rtf: 50 * 1024 * 1024,
  html: 50 * 1024 * 1024,
};

const IMAGE_EXT = new Set([
  '.png',
  '.jpg',
  '.jpeg',
  '.gif',
  '.webp',
  '.bmp',
  '.tif',
  '.tiff',
  '.heic',
  '.avif',
]);

function kindOf(ext: string, head: Uint8Array): DocumentKind {
  if (ext === '.docx' || ext === '.docm' || ext === '.dotx') return 'docx';
  if (ext === '.xlsx' || ext === '.xlsm' || ext === '.xltx') return 'xlsx';
  if (ext === '.pptx' || ext === '.pptm' || ext === '.ppsx' || ext === '.potx') return 'pptx';
  if (ext === '.odt' || ext === '.ott') return 'odt';
  if (ext === '.ods' || ext === '.ots') return 'ods';
  if (ext === '.odp' || ext === '.otp') return 'odp';
  if (LEGACY_EXT[ext]) return LEGACY_EXT[ext];
  if (ext === '.pdf' || sniffBinary(head) === 'pdf') return 'pdf';
  return 'text';
}

/**
 * Read a document as text. `absPath` must already be checked (see tools/paths.ts). The text every
 * reader extracted is checked for secrets (tools/secret-content.ts) before anyone gets it.
 */
export async function readDocument(absPath: string, opts: ReadDocumentOptions = {}): Promise<DocumentText> {
  const doc = await withReadSignal(opts.signal, () => readUnchecked(absPath, opts)).catch((err: unknown) => {
    // A stream stopped by Ctrl+C fails with its own AbortError: said as the interruption it is.
    throw opts.signal?.aborted ? interrupted() : err;
  });
  if (!opts.allowSecrets) refuseSecretText(doc.text, basename(absPath));
  return doc;
}

async function readUnchecked(absPath: string, opts: ReadDocumentOptions): Promise<DocumentText> {
  const ext = extname(absPath).toLowerCase();
  const { fileBytes, mtimeMs } = await fileFacts(absPath);
  if (IMAGE_EXT.has(ext)) throw new DocumentError('binary', binaryMessage('image', ext));

  const head = await readHead(absPath, opts.signal);
  const named = kindOf(ext, head);
  // What the bytes are decides the reader (disguised.ts); the name only when they say nothing.
  const load = async () => {
    if (fileBytes > MAX_FILE_BYTES.pptx) throw tooLarge(fileBytes, MAX_FILE_BYTES.pptx);
    return readFile(absPath, { signal: opts.signal }).catch((err) => {
      throw fsError(err);
    });
  };
  const disguised = needsContentCheck(named, head) ? await contentOf(named, ext, head, load) : undefined;
  const kind = disguised?.kind ?? named;
  if (fileBytes > MAX_FILE_BYTES[kind]) throw tooLarge(fileBytes, MAX_FILE_BYTES[kind]);
  if (kind === 'text') {
    const page = await readTextPage(absPath, fileBytes, ext, opts);
    if (disguised?.note) page.notes.push(disguised.note);
    return page;
  }

  let data: Buffer;
  try {
    data = disguised?.data ?? (await readFile(absPath, { signal: opts.signal }));
  } catch (err) {
    throw fsError(err);
  }
  if (disguised?.note) {
    const limit = (opts.offset ?? 0) + (opts.maxBytes ?? DEFAULT_MAX_BYTES);
    const extracted = await readAsContent(disguised.kind, data, limit, opts.signal);
    extracted.notes = [disguised.note, ...(extracted.notes ?? [])];
    return pageOf(extracted, kind, fileBytes, opts);
  }
  const limit = (opts.offset ?? 0) + (opts.maxBytes ?? DEFAULT_MAX_BYTES);
  if (kind === 'pdf')
    return pageOf(
      await extractPdf(data, head, limit, `${absPath}\0${fileBytes}\0${mtimeMs}`, opts),
      kind,
      fileBytes,
      opts,
    );
  if (kind === 'docx' || kind === 'xlsx')
    return pageOf(await extractOffice(kind, data, head, ext, limit), kind, fileBytes, opts);
  return pageOf(await extractOther(kind, data, head, ext, limit, opts.signal), kind, fileBytes, opts);
}

/** A Word or Excel file, after checking that it really is a zip (not a renamed .doc or damaged). */
async function extractOffice(
  kind: DocumentKind,
  data: Buffer,
  head: Uint8Array,
  ext: string,
  limit: number,
): Promise<Extracted> {
  if (kind !== 'docx' && kind !== 'xlsx') throw new Error(`unexpected document kind ${kind}`);
  const sniffed = sniffBinary(head);
  if (sniffed !== 'zip') {
    throw new DocumentError(
      sniffed === 'old-office' ? 'encrypted' : 'unreadable',
      sniffed === 'old-office'
        ? `This file is password-protected, or an old .${kind === 'docx' ? 'doc' : 'xls'} file renamed to ${ext}; it cannot be read. Ask the user for an unprotected .${kind} copy.`
        : `This file has the extension ${ext} but is not a valid ${kind === 'docx' ? 'Word' : 'Excel'} file (it may be damaged).`,
    );
  }
  return kind === 'docx'
    ? (await import('./docx.js')).readDocx(data)
    : (await import('./xlsx.js')).readXlsx(data, limit);
}

/** Presentations, OpenDocument, and the old or alternative formats (legacy.ts). */
async function extractOther(
  kind: DocumentKind,
  data: Buffer,
  head: Uint8Array,
  ext: string,
  limit: number,
  signal?: AbortSignal,
): Promise<Extracted> {
  if (kind === 'doc' || kind === 'xls' || kind === 'ppt' || kind === 'rtf')
    return (await (await import('./legacy.js')).readLegacy(data, ext, limit, signal)).extracted;
  const sniffed = sniffBinary(head);
  if (sniffed === 'old-office')
    throw new DocumentError(
      'encrypted',
      `This file is password-protected (or an old binary file renamed to ${ext}); it cannot be read. Ask the user for a copy saved without a password.`,
    );
  if (sniffed !== 'zip')
    throw new DocumentError(
      'unreadable',
      `This file has the extension ${ext} but is not a valid ${ext.slice(1)} file (it may be damaged).`,
    );
  if (kind === 'pptx') return (await import('./pptx.js')).readPptx(data);
  if (kind === 'odt' || kind === 'ods' || kind === 'odp')
    return (await import('./odf.js')).readOdf(data, kind, limit);
  throw new Error(`unexpected document kind ${kind}`);
}

async function extractPdf(
  data: Buffer,
  head: Uint8Array,
  limit: number,
  cacheKey: string,
  opts: ReadDocumentOptions,
): Promise<Extracted> {
  if (sniffBinary(head) !== 'pdf') {
    throw new DocumentError(
      'unreadable',
      'This file has the extension .pdf but is not a valid PDF (it may be damaged or still downloading).',
    );
  }
  return (await import('./pdf.js')).readPdf(data, {
    offset: opts.offset ?? 0,
    limit,
    cacheKey,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
}

/** The part of the extracted text asked for, with a visible marker when it is cut. */
function pageOf(
  extracted: Extracted,
  kind: DocumentKind,
  fileBytes: number,
  opts: ReadDocumentOptions,
): DocumentText {
  // A PDF read from a later page holds only the text from `base` on.
  const base = extracted.base ?? 0;
  const out = cut(extracted.text, (opts.offset ?? 0) - base, opts.maxBytes ?? DEFAULT_MAX_BYTES);
  out.offset += base;
  out.totalBytes += base;
  const complete = !extracted.partial;
  let text = out.text;
  if (out.truncated || !complete) {
    const next = out.offset + out.shownBytes;
    const total = complete ? ` of ${formatBytes(out.totalBytes)}` : '';
    const from = out.offset ? `bytes ${out.offset}–${next}` : `the first ${formatBytes(out.shownBytes)}`;
    const more = complete ? '' : '; the document has more';
    text = `${text}\n\n[truncated: showing ${from}${total} of text${more}.${opts.continueHint ? opts.continueHint(next) : ''}]`;
  }
  return {
    text,
    kind,
    fileBytes,
    textBytes: out.totalBytes,
    complete,
    truncated: out.truncated || !complete,
    offset: out.offset,
    ...(out.truncated || !complete ? { nextOffset: out.offset + out.shownBytes } : {}),
    ...(extracted.pages !== undefined ? { pages: extracted.pages } : {}),
    ...(extracted.sheets ? { sheets: extracted.sheets } : {}),
    notes: extracted.notes ?? [],
    hidden: extracted.hidden ?? [],
  };
}

/**
 * A page of a text file: offsets are byte offsets in the file, read by range (text-window.ts).
 * When the detector was unsure, the notes say which encoding was assumed.
 */
async function readTextPage(
  absPath: string,
  fileBytes: number,
  ext: string,
  opts: ReadDocumentOptions,
): Promise<DocumentText> {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  let page: Awaited<ReturnType<typeof readTextWindow>>;
  try {
    page = await readTextWindow(absPath, fileBytes, opts.offset ?? 0, maxBytes);
  } catch (err) {
    throw fsError(err);
  }
  if ('binary' in page) throw new DocumentError('binary', binaryMessage(page.binary, ext));
  const enc = page.encoding;
  const truncated = page.end < fileBytes;
  const notes: string[] = [];
  if (!enc.sure)
    notes.push(
      `read as ${displayEncoding(enc.name)}, a guess: if the text looks wrong, ask the user which encoding the file uses`,
    );
  let text = page.text;
  if (truncated) {
    const shown = page.end - page.start;
    const from = page.start > enc.bom ? `bytes ${page.start}–${page.end}` : `the first ${formatBytes(shown)}`;
    text = `${text}\n\n[truncated: showing ${from} of ${formatBytes(fileBytes)} of text.${opts.continueHint ? opts.continueHint(page.end) : ''}]`;
  }
  const hidden = commentsIn(page.text, ext);
  if (hidden.length)
    notes.push(
      `${hidden.length} comment(s) hidden when the file is shown (HTML/Markdown comments): they are not part of what a reader sees`,
    );
  return {
    hidden,
    text,
    kind: 'text',
    encoding: enc.name,
    fileBytes,
    textBytes: fileBytes - enc.bom,
    complete: true,
    truncated,
    offset: page.start,
    ...(truncated ? { nextOffset: page.end } : {}),
    notes,
  };
}

/** The UTF-8 bytes [offset, offset+max) of a text, never splitting a character. */
export function cut(
  text: string,
  offset: number,
  max: number,
): { text: string; offset: number; shownBytes: number; totalBytes: number; truncated: boolean } {
  const buf = Buffer.from(text, 'utf8');
  let start = Math.min(Math.max(0, Math.floor(offset)), buf.length);
  while (start < buf.length && (buf[start]! & 0xc0) === 0x80) start++;
  let end = Math.min(buf.length, start + max);
  if (end < buf.length) while (end > start && (buf[end]! & 0xc0) === 0x80) end--;
  return {
    text: buf.subarray(start, end).toString('utf8'),
    offset: start,
    shownBytes: end - start,
    totalBytes: buf.length,
    truncated: end < buf.length,
  };
}
