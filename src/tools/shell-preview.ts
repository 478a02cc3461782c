/**
 * How a command is shown for approval: every character visible (control characters and escape
 * sequences spelled out), a command of several lines numbered, and a long one folded with a note
 * that `v` shows all of it — so that nothing scrolls the warning below it off the screen.
 */
import { t } from '../support/i18n/index.js';
import { visible } from '../support/sanitize.js';

export interface FoldLimits {
  /** Lines shown before folding. */
  lines: number;
  /** Characters of one line shown before cutting it. */
  chars: number;
}

export const DEFAULT_FOLD: FoldLimits = { lines: 8, chars: 400 };

export interface CommandPreview {
  /** What the approval shows. */
  shown: string[];
  /** Every line, numbered, when `shown` is folded. */
  full?: string[];
}

function cut(line: string, limit: number): string {
  const chars = [...line];
  if (chars.length <= limit) return line;
  return `${chars.slice(0, limit).join('')} ${t('shell.preview.moreChars', { count: chars.length - limit })}`;
}

/** The command as the approval shows it. */
export function commandPreview(command: string, limits: FoldLimits = DEFAULT_FOLD): CommandPreview {
  const lines = command.split('\n').map((l) => visible(l, { keepTabs: true }));
  if (lines.length === 1) {
    const line = `$ ${lines[0]}`;
    const shown = cut(line, limits.chars);
    return shown === line ? { shown: [line] } : { shown: [shown], full: [line] };
  }
  const width = String(lines.length).length;
  const numbered = lines.map((l, i) => `${String(i + 1).padStart(width)} │ ${l}`);
  const folded = numbered.length > limits.lines + 1;
  const head = (folded ? numbered.slice(0, limits.lines) : numbered).map((l) => cut(l, limits.chars));
  if (folded) head.push(t('shell.preview.moreLines', { count: numbered.length - limits.lines }));
  const changed = folded || head.some((l, i) => l !== numbered[i]);
  return changed ? { shown: head, full: numbered } : { shown: head };
}
