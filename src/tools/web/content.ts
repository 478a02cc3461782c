/**
 * What web_fetch does with a response body: decide whether it is HTML, other text or binary,
 * decode it with the right character set (Chinese sites often send GBK without saying so in
 * the header), and turn HTML into readable Markdown (scripts, styles and other non-content
 * dropped) with links made absolute.
 */

export type ContentKind = 'html' | 'text' | 'binary';

const TEXT_TYPES = new Set([
  'application/json',
  'application/ld+json',
  'application/xml',
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'application/x-yaml',
  'application/yaml',
  'application/toml',
  'application/csv',
  'application/x-ndjson',
  'application/x-sh',
  'application/sql',
  'application/graphql',
  'image/svg+xml',
]);

export function mimeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Classify by Content-Type; with none (or a generic one), by looking at the first bytes. */
export function contentKind(contentType: string | undefined, head: Uint8Array): ContentKind {
  const mime = mimeOf(contentType);
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html';
  if (mime.startsWith('text/') || TEXT_TYPES.has(mime) || /\+(json|xml)$/.test(mime)) return 'text';
  if (mime && mime !== 'application/octet-stream' && mime !== 'binary/octet-stream') return 'binary';
  return sniff(head);
}

function sniff(head: Uint8Array): ContentKind {
  const sample = head.subarray(0, 1024);
  if (sample.includes(0)) return 'binary';
  const text = Buffer.from(sample).toString('latin1').trimStart().toLowerCase();
  if (
    text.startsWith('<!doctype html') ||
    text.startsWith('<html') ||
    /<(head|body|title)[\s>]/.test(text.slice(0, 512))
  ) {
    return 'html';
  }
  // Known binary signatures: PDF, ZIP (docx/xlsx), PNG, JPEG, GIF.
  if (/^(%pdf|pk\u0003\u0004|\u0089png|\u00ff\u00d8\u00ff|gif8)/.test(text)) return 'binary';
  return 'text';
}

/** Decode with the charset from the header, a BOM, a `<meta>` tag, or UTF-8 (GB18030 if that fails). */
export function decodeBody(bytes: Uint8Array, contentType: string | undefined, kind: ContentKind): string {
  const declared = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  let label = declared;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) label = 'utf-8';
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) label = 'utf-16le';
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) label = 'utf-16be';
  if (!label && kind === 'html') {
    const head = Buffer.from(bytes.subarray(0, 4096)).toString('latin1');
    label = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
  }
  if (label) {
    try {
      return new TextDecoder(label).decode(bytes).replace(/^\uFEFF/, '');
    } catch {
      // An unknown label: fall through to detection.
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    // Not UTF-8. A cut at the size cap may have split the last character: check without it.
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(trimPartial(bytes));
    } catch {
      return new TextDecoder('gb18030').decode(bytes);
    }
  }
}

/** Drop an incomplete UTF-8 sequence at the very end. */
function trimPartial(bytes: Uint8Array): Uint8Array {
  let i = bytes.length - 1;
  let back = 0;
  while (i >= 0 && back < 3 && (bytes[i]! & 0xc0) === 0x80) {
    i--;
    back++;
  }
  return i >= 0 && bytes[i]! >= 0xc0 ? bytes.subarray(0, i) : bytes;
}

export function htmlTitle(html: string): string | undefined {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  const title = m?.[1]
    ?.replace(/\s+/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .trim();
  return title || undefined;
}

/** HTML to Markdown: scripts, styles, templates, SVG, frames and forms' controls are dropped. */
export async function htmlToMarkdown(html: string, base: URL): Promise<string> {
  const { NodeHtmlMarkdown } = await import('node-html-markdown');
  const md = NodeHtmlMarkdown.translate(html, {
    ignore: [
      'script',
      'style',
      'noscript',
      'template',
      'svg',
      'canvas',
      'iframe',
      'object',
      'embed',
      'select',
      'button',
      'head',
    ],
    maxConsecutiveNewlines: 2,
    keepDataImages: false,
  });
  return absoluteLinks(md, base).trim();
}

/** `[text](/path)` → `[text](https://site/path)`, so the model can follow links. */
function absoluteLinks(md: string, base: URL): string {
  return md.replace(/\]\(([^()\s]+)\)/g, (whole, href: string) => {
    if (/^(https?:|mailto:|tel:|#)/i.test(href)) return whole;
    if (/^(data|javascript):/i.test(href)) return ']()';
    try {
      return `](${new URL(href, base).href})`;
    } catch {
      return whole;
    }
  });
}
