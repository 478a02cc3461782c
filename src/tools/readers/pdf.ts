/**
 * Text-based PDFs as plain text, page by page, through unpdf (a serverless build of pdf.js),
 * loaded on first use. A PDF without a text layer (scanned pages) is reported as such, with
 * the ocr tool as the way forward.
 */
import { DocumentError, type Extracted } from './types.js';

/** pdf.js log levels: 0 = errors only. Its warnings would otherwise land on the user's terminal. */
const QUIET = 0;

/** pdf.js operator codes that draw text (showText, showSpacedText, nextLineShowText, nextLineSetSpacingShowText). */
const TEXT_OPS = new Set([44, 45, 46, 47]);

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
    /** Pages that draw text pdf.js cannot decode (a CJK font with a predefined character map). */
    const undecodable: number[] = [];
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
      let why = '[no text on this page: probably a scanned image; the ocr tool can read it]';
      if (!text) {
        empty.push(n);
        const ops = await page.getOperatorList().catch(() => undefined);
        if (ops?.fnArray.some((op: number) => TEXT_OPS.has(op))) {
          undecodable.push(n);
          why =
            '[this page has text in a font whose characters cannot be decoded here; the ocr tool can read it]';
        }
      }
      page.cleanup();
      const section = `--- page ${n} of ${pages} ---\n${text || why}`;
      parts.push(section);
      size += Buffer.byteLength(section, 'utf8') + 2;
    }
    if (!partial && empty.length === pages && undecodable.length) {
      throw new DocumentError(
        'no_text_layer',
        `This PDF has text, but in a font whose character map (typical of Chinese, Japanese or Korean PDFs with fonts that are not embedded) cannot be decoded here, so no text can be read directly. Use the ocr tool on the same path to extract its text.`,
      );
    }
    if (!partial && empty.length === pages) {
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
    return { text: parts.join('\n\n'), pages, partial, notes };
  } finally {
    await pdf.destroy().catch(() => {});
  }
}
