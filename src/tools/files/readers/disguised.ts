/**
 * A file whose name and content disagree (issue 45 point 4), read as what it is: the content
 * kind (content-kind.ts) picks the reader, and the model is told about the disguise in a note.
 */
import { type ContentKind, disguiseNote, markupKind, oleKind, zipKind } from './content-kind.js';
import { decodeText, sniffBinary } from './text.js';
import type { DocumentKind, Extracted } from './types.js';

const ZIP_KINDS = new Set<DocumentKind>(['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp']);
const OLE_KINDS = new Set<DocumentKind>(['doc', 'xls', 'ppt']);
const OFFICE_KINDS = new Set<DocumentKind>([...ZIP_KINDS, ...OLE_KINDS]);

/** Whether the bytes could say something the name does not (a zip, a compound file, text named as Office). */
export function needsContentCheck(named: DocumentKind, head: Uint8Array): boolean {
  const sniffed = sniffBinary(head);
  if (sniffed === 'zip' || sniffed === 'old-office') return named !== 'pdf';
  return OFFICE_KINDS.has(named) && sniffed === undefined && head[0] !== 0x7b; // `{\rtf` stays RTF
}

export interface Content {
  kind: DocumentKind;
  /** The whole file, when it had to be read to decide. */
  data?: Buffer;
  /** Said to the model when the name and the content disagree. */
  note?: string;
}

/** What the file is by its bytes; undefined leaves the name to decide (and its reader to say what is wrong). */
export async function contentOf(
  named: DocumentKind,
  ext: string,
  head: Uint8Array,
  load: () => Promise<Buffer>,
): Promise<Content | undefined> {
  const sniffed = sniffBinary(head);
  if (sniffed === 'zip' || sniffed === 'old-office') {
    const data = await load();
    const actual = sniffed === 'zip' ? await zipKind(data) : await oleKind(data);
    if (!actual) return { kind: named, data };
    // A WPS file saved as OOXML, or an .xls that is an .xls: nothing to say.
    const same =
      actual === named || (OLE_KINDS.has(named) && ZIP_KINDS.has(actual) && twinOf(named) === actual);
    return same ? { kind: named, data } : { kind: actual, data, note: disguiseNote(ext, actual) };
  }
  const markup = markupKind(head);
  if (markup) return { kind: 'html', note: disguiseNote(ext, markup) };
  // Binary that is neither (an Excel 4 stream, a damaged file): the name's reader says what it is.
  if ('binary' in decodeText(head)) return undefined;
  return {
    kind: 'text',
    note: `the name ends in ${ext} but the file is plain text (CSV or similar), not an Office file; it was read as text`,
  };
}

function twinOf(kind: DocumentKind): DocumentKind | undefined {
  return kind === 'doc' ? 'docx' : kind === 'xls' ? 'xlsx' : kind === 'ppt' ? 'pptx' : undefined;
}

const LEGACY_INPUT: Partial<Record<ContentKind, string>> = { doc: '.doc', xls: '.xls', ppt: '.ppt' };

/** Read `data` with the reader of what it is. */
export async function readAsContent(
  kind: DocumentKind,
  data: Buffer,
  limit: number,
  signal?: AbortSignal,
): Promise<Extracted> {
  switch (kind) {
    case 'docx':
      return (await import('./docx.js')).readDocx(data);
    case 'xlsx':
      return (await import('./xlsx.js')).readXlsx(data, limit);
    case 'pptx':
      return (await import('./pptx.js')).readPptx(data);
    case 'odt':
    case 'ods':
    case 'odp':
      return (await import('./odf.js')).readOdf(data, kind, limit);
    case 'doc':
    case 'xls':
    case 'ppt':
      return (
        await (await import('./legacy.js')).readLegacy(data, LEGACY_INPUT[kind] ?? '.doc', limit, signal)
      ).extracted;
    case 'html':
      return (await import('./markup.js')).readMarkup(data);
    default:
      throw new Error(`no reader for ${kind}`);
  }
}
