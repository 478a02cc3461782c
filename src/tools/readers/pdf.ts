/**
 * Text-based PDFs as plain text, page by page, through unpdf (a serverless build of pdf.js),
 * loaded on first use. A PDF without a text layer (scanned pages) is reported as such, with
 * the ocr tool as the way forward.
 */
import { DocumentError, type Extracted } from './types.js';

/** pdf.js log levels: 0 = errors only. Its warnings would otherwise land on the user's terminal. */
const QUIET = 0;

interface TextItemLike {
  str?: string;
  hasEOL?: boolean;
}

export async function readPdf(data: Buffer, limit: number, signal?: AbortSignal): Promise<Extracted> {
  const { getDocumentProxy } = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(new Uint8Array(data), { verbosity: QUIET, isEvalSupported: false });
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
    const pages = pdf.numPages;
    const parts: string[] = [];
    const empty: number[] = [];
    let size = 0;
    let partial = false;
    for (let n = 1; n <= pages; n++) {
      if (signal?.aborted) throw new DocumentError('unreadable', 'Interrupted.');
      if (size > limit) {
        partial = true;
        break;
      }
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const text = (content.items as TextItemLike[])
        .map((item) => (item.str ?? '') + (item.hasEOL ? '\n' : ''))
        .join('')
        .replace(/[ \t]+\n/g, '\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim();
      page.cleanup();
      if (!text) empty.push(n);
      const section = `--- page ${n} of ${pages} ---\n${text || '[no text on this page: probably a scanned image; the ocr tool can read it]'}`;
      parts.push(section);
      size += Buffer.byteLength(section, 'utf8') + 2;
    }
    if (!partial && empty.length === pages) {
      throw new DocumentError(
        'no_text_layer',
        `This PDF has no text layer (${pages} page${pages === 1 ? '' : 's'} of scanned images or drawings), so there is no text to read directly. Use the ocr tool on the same path to extract its text.`,
      );
    }
    const notes = empty.length
      ? [
          `page${empty.length === 1 ? '' : 's'} ${empty.join(', ')} without a text layer (the ocr tool can read them)`,
        ]
      : [];
    return { text: parts.join('\n\n'), pages, partial, notes };
  } finally {
    await pdf.destroy().catch(() => {});
  }
}
