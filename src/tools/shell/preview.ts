/**
 * How a command is shown for approval: every character visible (control characters and escape
 * sequences spelled out), a command of several lines numbered, and a long one folded with a note
 * that `v` shows all of it — so that nothing scrolls the warning below it off the screen.
 */
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';

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
export function commandPreview(
  command: string,
  limits: FoldLimits = DEFAULT_FOLD,
  platform: NodeJS.Platform = process.platform,
): CommandPreview {
  const lines = command.split('\n').map((l) => visible(l, { keepTabs: true }));
  if (lines.length === 1) {
    // cmd.exe's prompt ends in `>`; `$` is a Unix shell's.
    const line = `${platform === 'win32' ? '>' : '$'} ${lines[0]}`;
    const shown = cut(line, limits.chars);
    return shown === line ? { shown: [line] } : { shown: [shown], full: [line] };
  }
  const width = String(lines.length).length;
  const numbered = lines.map((l, i) => `${String(i + 1).padStart(width)} │ ${l}`);
  // Runs of empty lines say nothing and could push the real action out of sight: one line each.
  const items = collapseBlank(lines, numbered);
  const folded = items.length > limits.lines + 1;
  // Folded, the first lines and the last two are shown: padding cannot hide how a command ends.
  const tail = folded ? items.slice(-2) : [];
  const head = folded ? items.slice(0, limits.lines - 2) : items;
  const hidden = items.length - head.length - tail.length;
  const shown = [...head, ...(folded ? [t('shell.preview.moreLines', { count: hidden })] : []), ...tail].map(
    (l) => cut(l, limits.chars),
  );
  const changed = shown.length !== numbered.length || shown.some((l, i) => l !== numbered[i]);
  return changed ? { shown, full: numbered } : { shown };
}

function collapseBlank(lines: string[], numbered: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    let j = i;
    while (j < lines.length && !lines[j]!.trim()) j++;
    if (j - i >= 2) {
      out.push(t('shell.preview.blankLines', { count: j - i }));
      i = j;
    } else {
      out.push(numbered[i]!);
      i++;
    }
  }
  return out;
}
