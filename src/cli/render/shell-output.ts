import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';

/** Lines of a command's output shown before the rest is folded (the model gets all of it). */
export const SHOWN_LINES = 12;

/** The output as shown to the person: the first lines, then how many more were folded away. */
export function foldOutput(output: string, shown = SHOWN_LINES): string[] {
  const lines = output.replace(/\n+$/, '').split('\n');
  if (lines.length <= shown + 1) return lines;
  return [...lines.slice(0, shown), t('input.bang.folded', { n: lines.length - shown })];
}

/** stdout and stderr from the shell tool's report (written for the model), without its headings. */
export function outputOf(content: string): string {
  const end = '(?=\\n\\n(?:stderr:\\n|\\[output truncated|Processes the command left|It ran )|$)';
  const part = (name: string) => new RegExp(`(?:^|\\n\\n)${name}:\\n([\\s\\S]*?)${end}`).exec(content)?.[1];
  const found = [part('stdout'), part('stderr')].filter((p): p is string => Boolean(p));
  if (found.length) return found.join('\n');
  return /^(Error: )?(Exit code|The command)/.test(content) ? '' : content;
}

/** The shell tool's report of a command that ran (whatever its exit code), not a refusal or a throw. */
export function commandRan(content: string): boolean {
  return /^(Error: )?(Exit code|The command (did not finish|was ended))/.test(content);
}

/** What a command printed, shown to the person under its tool line: indented, dimmed, folded. */
export function shownOutput(content: string, dim: (s: string) => string): string | undefined {
  const output = outputOf(content);
  const lines = output ? foldOutput(visible(output, { keepNewlines: true, keepTabs: true })) : [];
  return lines.length ? lines.map((l) => `    ${dim(l)}`).join('\n') : undefined;
}
