import { t } from '../../support/i18n/index.js';
import type { SkippedFiles } from './events.js';

/** Files named one by one when a folder run skips some; past this, counts and the first few. */
export const SKIPPED_SHOWN = 5;

/** The skipped files of a folder listing as a run reports them, or undefined when there are none. */
export function skippedFiles(list: SkippedFiles['shown']): SkippedFiles | undefined {
  if (!list.length) return undefined;
  return {
    count: list.length,
    empty: list.filter((s) => s.why === 'empty').length,
    shown: list.slice(0, SKIPPED_SHOWN),
  };
}

/** Why a file was skipped, in the person's language. */
export function skipReason(why: 'empty' | 'type'): string {
  return t(why === 'empty' ? 'runs.skipped.empty' : 'runs.skipped.type');
}

/** `a.txt (empty), prog (not a document this skill reads)`, and "… N more" past the first few. */
export function skippedList(s: SkippedFiles): string {
  const named = s.shown.map((f) => `${f.file} (${skipReason(f.why)})`);
  if (s.count > s.shown.length) named.push(t('runs.skipped.more', { count: s.count - s.shown.length }));
  return named.join(t('runs.skipped.sep'));
}
