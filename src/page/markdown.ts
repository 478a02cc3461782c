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

/** A table block's header (its first two lines) and rows, when the block is a table. */
export function tableParts(block: string): { head: string; rows: string[] } | undefined {
  const lines = block.split('\n');
  if (
    lines.length < 3 ||
    !/^\s*\|/.test(lines[0] ?? '') ||
    !/^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/.test(lines[1] ?? '')
  )
    return undefined;
  const rows = lines.slice(2);
  // Anything after the table in the same block (a line without a pipe) is not a row.
  if (rows.some((r) => r.trim() !== '' && !r.includes('|'))) return undefined;
  return { head: lines.slice(0, 2).join('\n'), rows };
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
