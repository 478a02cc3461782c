import { formatBytes } from '../../../support/text.js';
import type { DocumentText } from './index.js';

const KIND_NAMES = {
  docx: 'Word document',
  xlsx: 'Excel workbook',
  pdf: 'PDF',
  text: 'text file',
  pptx: 'PowerPoint presentation',
  odt: 'OpenDocument text',
  ods: 'OpenDocument spreadsheet',
  odp: 'OpenDocument presentation',
  doc: 'Word 97–2003 document',
  xls: 'Excel 97–2003 workbook',
  ppt: 'PowerPoint 97–2003 presentation',
  rtf: 'RTF document',
  html: 'HTML or Excel XML table',
} as const;
const SLIDES = new Set(['pptx', 'odp', 'ppt']);

/**
 * The facts the model is told about a document before its text, in one line's parts: what it
 * is, its size, pages, sheets, and the reader's notes (encoding, OCR hints). Written for the
 * model, in English; file_read and a skill's input documents show the same facts.
 */
export function documentFacts(doc: DocumentText): string[] {
  return [
    KIND_NAMES[doc.kind],
    formatBytes(doc.fileBytes),
    doc.pages !== undefined
      ? `${doc.pages} ${SLIDES.has(doc.kind) ? 'slide' : 'page'}${doc.pages === 1 ? '' : 's'}`
      : '',
    doc.sheets ? `sheets: ${doc.sheets.join(', ')}` : '',
    ...doc.notes,
  ].filter(Boolean);
}
