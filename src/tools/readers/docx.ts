/**
 * Word documents as Markdown: mammoth turns the .docx into semantic HTML (headings, lists,
 * tables, bold/italic), node-html-markdown turns that into Markdown. Images become a short
 * placeholder instead of megabytes of base64. Both libraries are loaded on first use.
 */
import { DocumentError, type Extracted } from './types.js';

export async function readDocx(data: Buffer): Promise<Extracted> {
  const { default: mammoth } = await import('mammoth');
  const { NodeHtmlMarkdown } = await import('node-html-markdown');
  let html: string;
  let images = 0;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: data },
      {
        externalFileAccess: false,
        convertImage: mammoth.images.imgElement(async () => {
          images += 1;
          return { src: `zhi-image-${images}` };
        }),
      },
    );
    html = result.value;
  } catch (err) {
    throw new DocumentError(
      'unreadable',
      `This file cannot be read as a Word document (${(err as Error).message}). It may be damaged, password-protected, or an old .doc file saved with a .docx name.`,
    );
  }
  let text = NodeHtmlMarkdown.translate(html, { bulletMarker: '-', emDelimiter: '*' })
    .replace(/!\[([^\]]*)\]\(zhi-image-\d+\)/g, (_m, alt: string) => (alt ? `[image: ${alt}]` : '[image]'))
    .trim();
  if (!text)
    text = images
      ? '(This document contains only images and no text. The ocr tool can read text in images.)'
      : '(This document is empty.)';
  return { text, notes: images ? [`${images} image(s) not shown`] : [] };
}
