import { formatBytes } from '../../../support/text.js';
import type { DocumentText } from './index.js';

const KIND_NAMES = { docx: 'Word document', xlsx: 'Excel workbook', pdf: 'PDF', text: 'text file' } as const;

/**
 * The facts the model is told about a document before its text, in one line's parts: what it
 * is, its size, pages, sheets, and the reader's notes (encoding, OCR hints). Written for the
 * model, in English; file_read and a skill's input documents show the same facts.
 */
export function documentFacts(doc: DocumentText): string[] {
  return [
    KIND_NAMES[doc.kind],
    formatBytes(doc.fileBytes),
    doc.pages !== undefined ? `${doc.pages} page${doc.pages === 1 ? '' : 's'}` : '',
    doc.sheets ? `sheets: ${doc.sheets.join(', ')}` : '',
    ...doc.notes,
  ].filter(Boolean);
}
