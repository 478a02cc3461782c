import { isSummary } from '../../agent/compact-split.js';
import { messageText, turnsText } from '../../agent/sessions/format.js';
import type { LoadedSession, SessionSummary } from '../../agent/sessions/store.js';
import { oneLine } from '../../support/graphemes.js';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import { markdownAsPlain } from '../../support/text.js';
import { cutToWidth } from '../../support/width.js';
import type { AppContext } from '../context.js';
import { formatWarning } from '../render/error.js';
import type { Style } from '../render/style.js';
import { stderrColumns } from '../render/width.js';

/** What a person sees when a saved conversation is picked up again (stderr). */
export function resumeNote(
  loaded: LoadedSession,
  ctx: Pick<AppContext, 'err' | 'cwd'>,
  recap: boolean,
): string {
  return resumeLines(loaded, ctx.err, recap, ctx.cwd).join('');
}

export function resumeLines(loaded: LoadedSession, style: Style, recap: boolean, cwd?: string): string[] {
  const out: string[] = [];
  const head = t('sessions.resumed', {
    id: loaded.id,
    title: displayTitle(loaded),
    turns: turnsText(loaded.turns),
    model: loaded.model,
  });
  out.push(style.enabled ? `${style.cyan('↻')} ${head}\n` : `[RESUME] ${head}\n`);
  const torn = loaded.warnings.filter((w) => w.last).length;
  const damaged = loaded.warnings.length - torn;
  if (torn) out.push(formatWarning(t('sessions.warn.tornLine'), style));
  if (damaged) out.push(formatWarning(t('sessions.warn.damaged', { n: damaged }), style));
  if (loaded.unfinished) out.push(formatWarning(t('sessions.warn.unfinished'), style));
  if (loaded.repaired) out.push(formatWarning(t('sessions.warn.repaired', { n: loaded.repaired }), style));
  if (cwd && loaded.cwd !== cwd)
    out.push(formatWarning(t('sessions.warn.otherFolder', { folder: loaded.cwd }), style));
  if (recap) {
    const lastUser = [...loaded.messages].reverse().find((m) => m.role === 'user' && !isSummary(m));
    const lastAnswer = [...loaded.messages].reverse().find((m) => m.role === 'assistant' && m.content.trim());
    // One line of plain words, cut to the window: a preview, not the Markdown source.
    const room = (stderrColumns() ?? 122) - 2;
    const show = (label: string, text: string) =>
      out.push(style.dim(cutToWidth(`  ${label}: ${oneLine(markdownAsPlain(text))}`, room)) + '\n');
    // What the person typed (`!ls nosuch`), not the words zhi wrote for the model from it.
    if (lastUser) show(t('sessions.you'), loaded.lastTyped ?? messageText(lastUser));
    if (lastAnswer && loaded.messages.indexOf(lastAnswer) > loaded.messages.indexOf(lastUser!)) {
      show('zhi', messageText(lastAnswer));
    }
  }
  return out;
}

/** The title as listed: a skill run shows its skill; an untitled session says so. */
export function displayTitle(s: SessionSummary): string {
  // A title may come from a pasted document or the model: shown, never run.
  const title = s.title ? visible(oneLine(markdownAsPlain(s.title)) || s.title) : t('sessions.list.untitled');
  return s.kind === 'run' && s.skill ? `[${s.skill}] ${title}` : title;
}
