import type { TextBuffer } from './buffer.js';
import type { Completion } from './complete.js';

/** The longest start every candidate shares. */
export function commonPrefix(words: readonly string[]): string {
  let p = words[0] ?? '';
  for (const w of words) while (!w.startsWith(p)) p = p.slice(0, -1);
  return p;
}

/**
 * Put a completion into the text: the one candidate, or what all candidates share when that is
 * longer than what was typed. The typed part (`sub`, just before the cursor) is replaced, not
 * extended, so a completion may fix its case (`rep` becomes `Report.docx`) or close a quote.
 * False when there is nothing to insert (several candidates: the editor lists them).
 */
export function applyCompletion(b: TextBuffer, hits: readonly string[], sub: string): boolean {
  const common = commonPrefix(hits);
  if (hits.length !== 1 && common.length <= sub.length) return false;
  const replacement = hits.length === 1 ? hits[0]! : common;
  const start = b.cursor - sub.length;
  b.set(b.text.slice(0, start) + replacement + b.text.slice(b.cursor), start + replacement.length);
  return true;
}

/**
 * Ask the completer about the text before the cursor and put the completion in: 'inserted', the
 * candidates to list when several fit, or undefined when nothing fits, the completer failed, or
 * the text (or the mode) changed while it worked.
 */
export async function completeAtCursor(
  b: TextBuffer,
  completer: (line: string) => Promise<Completion>,
  stillReading: () => boolean,
): Promise<'inserted' | string[] | undefined> {
  const before = b.text.slice(0, b.cursor);
  let hits: string[];
  let sub: string;
  try {
    [hits, sub] = await completer(before);
  } catch {
    return undefined;
  }
  if (!stillReading() || b.text.slice(0, b.cursor) !== before || !hits.length) return undefined;
  return applyCompletion(b, hits, sub) ? 'inserted' : hits;
}
