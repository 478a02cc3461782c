// Model text and document text are untrusted: Markdown is rendered with marked, raw HTML in it is
// shown as text (never parsed), images are shown as their alt text (no request leaves the page),
// and the result goes through DOMPurify, which also drops any link that is not http(s) or mailto
// (javascript:, data:, a path on zhi's own server). Links open in a new tab without an opener.
import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    html: ({ text }) => escapeHtml(text),
    image: ({ text }) => escapeHtml(text),
  },
});

const SAFE_LINK = /^(https?:|mailto:)/i;

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName !== 'A') return;
  const href = node.getAttribute('href') ?? '';
  if (!SAFE_LINK.test(href.trim())) {
    node.removeAttribute('href');
    return;
  }
  node.setAttribute('target', '_blank');
  node.setAttribute('rel', 'noopener noreferrer');
});

const PURIFY = {
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'img', 'svg', 'math', 'iframe'],
  FORBID_ATTR: ['style', 'class', 'id'],
};

/**
 * Rendered blocks by their text, least recently used first: a streamed answer re-renders only its
 * last, growing block (an answer has far fewer blocks than this; saved items are not redrawn).
 */
const cache = new Map<string, string>();
const CACHE_MAX = 4000;

function cached(key: string, make: () => string): string {
  const hit = cache.get(key);
  if (hit !== undefined) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const html = make();
  cache.set(key, html);
  if (cache.size > CACHE_MAX) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  return html;
}

export function renderBlock(text: string): string {
  return cached(text, () => DOMPurify.sanitize(marked.parse(text, { async: false }), PURIFY));
}

/** How many rows one part of a long table holds (a streamed table re-renders only its last part). */
export const ROWS_PER_PART = 25;

/** A part of a table, sanitized: the head's <thead> rows, or the <tbody> rows of `rows`. */
export function renderTablePart(head: string, rows: string[], which: 'head' | 'body'): string {
  const source = which === 'head' ? head : `${head}\n${rows.join('\n')}`;
  return cached(`\u0000${which}\u0000${source}`, () => {
    const frag = DOMPurify.sanitize(marked.parse(source, { async: false }), {
      ...PURIFY,
      RETURN_DOM_FRAGMENT: true,
    });
    return frag.querySelector(which === 'head' ? 'thead' : 'tbody')?.innerHTML ?? '';
  });
}
