/**
 * Cutting text for titles and tables by user-perceived characters (grapheme clusters), never by
 * bytes or UTF-16 units: a Chinese character, an emoji with a skin tone, or a flag is never split.
 */
import { graphemeSegmenter, graphemes } from './width.js';

export { graphemes };

/** At most `max` graphemes; an ellipsis marks a cut. Only the beginning of a long text is segmented. */
export function cutGraphemes(text: string, max: number): string {
  if (text.length <= max) return text;
  // Segmenting costs time in proportion to the text: look at a prefix that holds `max` graphemes
  // unless they are unusually long clusters, and only then at everything.
  const head = text.length > max * 8 ? text.slice(0, max * 8) : text;
  return cutIn(head, max) ?? (head === text ? text : (cutIn(text, max) ?? text));
}

function cutIn(text: string, max: number): string | undefined {
  const kept: string[] = [];
  for (const s of graphemeSegmenter().segment(text)) {
    if (kept.length === max) return `${kept.slice(0, Math.max(0, max - 1)).join('')}…`;
    kept.push(s.segment);
  }
  return undefined;
}

/** One line: whitespace (newlines included) collapsed to single spaces, trimmed. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Normalised for case-insensitive search: NFKC (full-width letters become ASCII) and lower case. */
export function searchable(text: string): string {
  return text.normalize('NFKC').toLocaleLowerCase();
}
