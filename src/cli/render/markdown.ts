/**
 * Markdown blocks (from `marked`'s lexer) as terminal lines: headings, paragraphs with bold,
 * italic, code and links, nested lists, task lists, quotes, code blocks with highlighting and
 * tables with CJK-aware alignment. Everything is wrapped to `width` columns so the caller knows
 * exactly how many rows a block takes. Without colour, plain Markdown markers are kept (`#`,
 * `-`, `|`, fences) so the structure stays readable.
 */
import type { Token, Tokens } from 'marked';
import { pushAll } from '../../support/arrays.js';
import { textWidth } from '../../support/width.js';
import type { BlockContext } from './block-context.js';
import { highlight } from './highlight.js';
import { inline } from './inline.js';
import { renderTable } from './table.js';
import { compose } from './theme.js';
import { wrapSpans } from './wrap.js';

export type { BlockContext } from './block-context.js';

/** One block as lines (no trailing newline). Unknown blocks print their source. */
export function renderBlock(tok: Token, ctx: BlockContext): string[] {
  const { theme, width } = ctx;
  switch (tok.type) {
    case 'heading':
      return renderHeading(tok as Tokens.Heading, ctx);
    case 'paragraph':
      return wrapSpans(inline((tok as Tokens.Paragraph).tokens, theme), width);
    case 'text': {
      const t = tok as Tokens.Text;
      return wrapSpans(t.tokens ? inline(t.tokens, theme) : [{ text: t.text }], width);
    }
    case 'list':
      return renderList(tok as Tokens.List, ctx, 0);
    case 'code':
      return renderCode(tok as Tokens.Code, ctx);
    case 'blockquote': {
      const bar = theme.enabled ? theme.dim('│ ') : '> ';
      const inner = renderBlocks((tok as Tokens.Blockquote).tokens, {
        ...ctx,
        width: Math.max(10, width - 2),
      });
      return inner.map((l) => bar + (theme.enabled ? theme.italic(l) : l));
    }
    case 'hr':
      return [theme.enabled ? theme.dim('─'.repeat(Math.min(width, 60))) : '---'];
    case 'table':
      return renderTable(tok as Tokens.Table, ctx);
    case 'html':
      return wrapSpans([{ text: (tok as Tokens.HTML).text.replace(/\n+$/, ''), paint: theme.dim }], width);
    case 'space':
    case 'def':
      return [];
    default: {
      const raw = ((tok as Tokens.Generic).raw ?? '').replace(/\n+$/, '');
      return raw ? wrapSpans([{ text: raw }], width) : [];
    }
  }
}

/** Several blocks, separated by one blank line. */
export function renderBlocks(tokens: Token[], ctx: BlockContext): string[] {
  const out: string[] = [];
  for (const tok of tokens) {
    const lines = renderBlock(tok, ctx);
    if (!lines.length) continue;
    if (out.length) out.push('');
    pushAll(out, lines);
  }
  return out;
}

function renderHeading(h: Tokens.Heading, ctx: BlockContext): string[] {
  const { theme, width } = ctx;
  if (!theme.enabled) return wrapSpans(inline(h.tokens, theme), width, { first: `${'#'.repeat(h.depth)} ` });
  const paint =
    h.depth === 1
      ? compose(theme.bold, compose(theme.underline, theme.cyan))
      : h.depth === 2
        ? compose(theme.bold, theme.cyan)
        : theme.bold;
  return wrapSpans(inline(h.tokens, theme, paint), width);
}

const BULLETS = ['•', '◦', '▪'];

function renderList(list: Tokens.List, ctx: BlockContext, depth: number): string[] {
  const { theme, width } = ctx;
  const out: string[] = [];
  const start = typeof list.start === 'number' ? list.start : 1;
  const numberWidth = list.ordered ? String(start + list.items.length - 1).length + 1 : 1;
  list.items.forEach((item, i) => {
    let marker = list.ordered
      ? `${start + i}.`.padStart(numberWidth)
      : theme.enabled
        ? BULLETS[depth % BULLETS.length]!
        : '-';
    if (item.task) marker += theme.enabled ? (item.checked ? ' ☑' : ' ☐') : item.checked ? ' [x]' : ' [ ]';
    const markerWidth = textWidth(marker) + 1;
    const first = `${theme.enabled ? theme.cyan(marker) : marker} `;
    const rest = ' '.repeat(markerWidth);
    const innerWidth = Math.max(10, width - markerWidth);
    const body: string[] = [];
    let firstBlock = true;
    for (const child of item.tokens) {
      let lines: string[];
      if (child.type === 'list')
        lines = renderList(child as Tokens.List, { ...ctx, width: innerWidth }, depth + 1);
      else if (child.type === 'text') {
        const t = child as Tokens.Text;
        lines = wrapSpans(t.tokens ? inline(t.tokens, theme) : [{ text: t.text }], innerWidth);
      } else if (child.type === 'space') continue;
      else lines = renderBlock(child, { ...ctx, width: innerWidth });
      if (!lines.length) continue;
      if (!firstBlock && item.loose) body.push('');
      pushAll(body, lines);
      firstBlock = false;
    }
    if (!body.length) body.push('');
    if (i > 0 && list.loose) out.push('');
    for (const [k, line] of body.entries()) out.push((k === 0 ? first : rest) + line);
  });
  return out;
}

function renderCode(code: Tokens.Code, ctx: BlockContext): string[] {
  const { theme, width } = ctx;
  const text = code.text.replace(/\n+$/, '');
  const lang = code.lang?.trim() || undefined;
  if (!theme.enabled) {
    return [
      `\`\`\`${lang ?? ''}`,
      ...text.split('\n').flatMap((l) => wrapSpans([{ text: l }], width, { anywhere: true })),
      '```',
    ];
  }
  const out: string[] = [];
  if (lang) out.push(theme.dim(`  ${lang}`));
  for (const spans of highlight(text, lang, theme)) {
    pushAll(out, wrapSpans(spans, width, { first: '  ', rest: '  ', anywhere: true }));
  }
  return out;
}
