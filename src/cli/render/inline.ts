import type { Token, Tokens } from 'marked';
import { pushAll } from '../../support/arrays.js';
import { compose, type Paint, type Theme } from './theme.js';
import type { Span } from './wrap.js';

/** Inline tokens as spans, each carrying the paint of its nesting (bold inside a link…). */
export function inline(tokens: Token[] | undefined, theme: Theme, paint?: Paint): Span[] {
  const out: Span[] = [];
  for (const tok of tokens ?? []) {
    switch (tok.type) {
      case 'text': {
        const t = tok as Tokens.Text;
        if (t.tokens?.length) pushAll(out, inline(t.tokens, theme, paint));
        else out.push({ text: t.text, paint });
        break;
      }
      case 'escape':
        out.push({ text: (tok as Tokens.Escape).text, paint });
        break;
      case 'strong':
        pushAll(
          out,
          theme.enabled
            ? inline((tok as Tokens.Strong).tokens, theme, compose(paint, theme.bold))
            : [
                { text: '**', paint },
                ...inline((tok as Tokens.Strong).tokens, theme, paint),
                { text: '**', paint },
              ],
        );
        break;
      case 'em':
        pushAll(out, inline((tok as Tokens.Em).tokens, theme, compose(paint, theme.italic)));
        break;
      case 'del':
        pushAll(out, inline((tok as Tokens.Del).tokens, theme, compose(paint, theme.strike)));
        break;
      case 'codespan':
        out.push({
          text: theme.enabled ? (tok as Tokens.Codespan).text : `\`${(tok as Tokens.Codespan).text}\``,
          paint: compose(paint, theme.cyan),
        });
        break;
      case 'br':
        out.push({ text: '\n' });
        break;
      case 'link': {
        const link = tok as Tokens.Link;
        const label = inline(link.tokens, theme, compose(paint, compose(theme.blue, theme.underline)));
        pushAll(out, label);
        const text = label.map((s) => s.text).join('');
        if (link.href && text !== link.href && !link.href.startsWith('mailto:')) {
          out.push({ text: ` (${link.href})`, paint: theme.dim });
        }
        break;
      }
      case 'image': {
        const img = tok as Tokens.Image;
        out.push({ text: `[${img.text || 'image'}]`, paint: compose(paint, theme.dim) });
        if (img.href) out.push({ text: ` (${img.href})`, paint: theme.dim });
        break;
      }
      case 'html':
        out.push({ text: (tok as Tokens.Tag).text, paint });
        break;
      default:
        out.push({ text: (tok as Tokens.Generic).raw ?? '', paint });
    }
  }
  return out;
}
