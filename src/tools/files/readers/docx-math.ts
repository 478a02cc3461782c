/**
 * Office Math (OMML, `m:oMath`) as linear text, the way Word's own "linear" equation form
 * writes it: fractions as (a)/(b), powers as x^(2), roots as √(x), sums as ∑_(i=1)^(n) …,
 * matrices as [[a, b], [c, d]]. Without this an equation simply vanishes ("The angle is .").
 */
import { attr, kid, kids, type XmlElement } from './xml-tree.js';

/** Wrap in parentheses unless it is a single symbol or number. */
function group(text: string): string {
  return /^[\p{L}\p{N}.]$|^\d+(\.\d+)?$/u.test(text) ? text : `(${text})`;
}

function part(el: XmlElement, name: string): string {
  return math(kid(el, name));
}

function chr(el: XmlElement, prName: string, fallback: string): string {
  const v = attr(kid(kid(el, prName), 'chr'), 'val');
  return v ?? fallback;
}

/** Linear text of an OMML element and everything inside it. */
export function math(el: XmlElement | undefined): string {
  if (!el) return '';
  switch (el.name) {
    case 't':
      return el.children.filter((c) => typeof c === 'string').join('');
    case 'f':
      return `${group(part(el, 'num'))}/${group(part(el, 'den'))}`;
    case 'sSup':
      return `${part(el, 'e')}^${group(part(el, 'sup'))}`;
    case 'sSub':
      return `${part(el, 'e')}_${group(part(el, 'sub'))}`;
    case 'sSubSup':
      return `${part(el, 'e')}_${group(part(el, 'sub'))}^${group(part(el, 'sup'))}`;
    case 'sPre':
      return `_${group(part(el, 'sub'))}^${group(part(el, 'sup'))}${part(el, 'e')}`;
    case 'rad': {
      const deg = part(el, 'deg');
      return deg ? `√(${deg}&${part(el, 'e')})` : `√${group(part(el, 'e'))}`;
    }
    case 'd': {
      const pr = kid(el, 'dPr');
      const beg = attr(kid(pr, 'begChr'), 'val') ?? '(';
      const end = attr(kid(pr, 'endChr'), 'val') ?? ')';
      const sep = attr(kid(pr, 'sepChr'), 'val') ?? ',';
      return `${beg}${kids(el, 'e').map(math).join(sep)}${end}`;
    }
    case 'nary': {
      const sub = part(el, 'sub');
      const sup = part(el, 'sup');
      const op = chr(el, 'naryPr', '∫');
      return `${op}${sub ? `_${group(sub)}` : ''}${sup ? `^${group(sup)}` : ''} ${part(el, 'e')}`;
    }
    case 'func':
      return `${part(el, 'fName')}${group(part(el, 'e'))}`;
    case 'limLow':
      return `${part(el, 'e')}_${group(part(el, 'lim'))}`;
    case 'limUpp':
      return `${part(el, 'e')}^${group(part(el, 'lim'))}`;
    case 'acc':
      return `${part(el, 'e')}${chr(el, 'accPr', '\u0302')}`;
    case 'bar':
      return `${part(el, 'e')}\u0305`;
    case 'm':
      return `[${kids(el, 'mr')
        .map((r) => `[${kids(r, 'e').map(math).join(', ')}]`)
        .join(', ')}]`;
    case 'eqArr':
      return kids(el, 'e').map(math).join('; ');
    default:
      // Property elements hold no text; everything else is a container.
      if (el.name.endsWith('Pr')) return '';
      return kids(el).map(math).join('');
  }
}
