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

/** Rendered blocks by their text: a streamed answer re-renders only its last, growing block. */
const cache = new Map<string, string>();
const CACHE_MAX = 400;

export function renderBlock(text: string): string {
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  const html = DOMPurify.sanitize(marked.parse(text, { async: false }), PURIFY);
  cache.set(text, html);
  if (cache.size > CACHE_MAX) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  return html;
}

/**
 * The text cut into top-level blocks: at a blank line outside a code fence whose next line starts
 * at the margin. Each block renders on its own, so a growing answer costs one block per frame.
 */
export function splitBlocks(text: string): string[] {
  const lines = text.split('\n');
  const blocks: string[] = [];
  let start = 0;
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const mark = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (mark) {
      if (fence === undefined) fence = mark[0];
      else if (mark[0] === fence) fence = undefined;
      continue;
    }
    if (fence !== undefined || line.trim() !== '') continue;
    const next = lines[i + 1];
    if (next === undefined || next === '' || /^\s/.test(next)) continue;
    blocks.push(lines.slice(start, i).join('\n'));
    start = i + 1;
  }
  blocks.push(lines.slice(start).join('\n'));
  return blocks.filter((b) => b.trim() !== '');
}
