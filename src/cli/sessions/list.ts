import { basename } from 'node:path';
import { turnsText } from '../../agent/sessions/format.js';
import type { SessionSummary } from '../../agent/sessions/store.js';
import { formatCost } from '../../llm/models.js';
import { maxBy } from '../../support/arrays.js';
import { t } from '../../support/i18n/index.js';
import { cutToWidth, padToWidth, textWidth } from '../../support/width.js';
import type { Style } from '../render/style.js';
import { displayTitle } from './notes.js';

export { displayTitle };

/** `2026-03-14 15:30` in local time. */
export function shortDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso.slice(0, 16);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

export function sessionCost(s: Pick<SessionSummary, 'cost' | 'currency' | 'covered'>): string {
  if (s.covered && s.cost === 0) return t('sessions.list.plan');
  return formatCost({ amount: s.cost, currency: s.currency });
}

export interface TableOptions {
  style: Style;
  /** Terminal width (or 100 when not a terminal). */
  width: number;
  cwd: string;
  /** Number the rows (for /resume <n>). */
  numbered?: boolean;
}

/** The narrowest title worth showing: below it, columns give way. */
const MIN_TITLE = 16;

/** The session table: id, date, turns, model, cost, then the title (cut to the width left). */
export function sessionTable(list: SessionSummary[], o: TableOptions): string[] {
  const head = [
    t('sessions.col.id'),
    t('sessions.col.date'),
    t('sessions.col.turns'),
    t('sessions.col.model'),
    t('sessions.col.cost'),
    t('sessions.col.title'),
  ];
  const rows = list.map((s) => [
    s.id,
    shortDate(s.updated),
    String(s.turns),
    s.model,
    sessionCost(s),
    displayTitle(s),
  ]);
  const widths = [0, 1, 2, 3, 4].map((c) => maxBy(rows, (r) => textWidth(r[c]!), textWidth(head[c]!)));
  const num = o.numbered ? String(list.length).length + 2 : 0;
  // In a narrow window the model, the date (the id starts with it), the turns and the cost make
  // room for the title, in that order; the id stays (it is what /resume takes).
  const shown = [0, 1, 2, 3, 4];
  const used = () => num + shown.reduce((a, c) => a + widths[c]! + 2, 0);
  for (const drop of [3, 1, 2, 4]) if (o.width - used() - 1 < MIN_TITLE) shown.splice(shown.indexOf(drop), 1);
  const titleCols = Math.max(8, o.width - used() - 1);
  const line = (cells: string[], i?: number) => {
    const prefix = o.numbered ? padToWidth(i === undefined ? '' : `${i + 1}.`, num) : '';
    const fixed = shown
      .map((k) => padToWidth(cells[k]!, widths[k]!, k === 2 || k === 4 ? 'right' : 'left'))
      .join('  ');
    return `${prefix}${fixed}  ${cutToWidth(cells[5]!, titleCols)}`.trimEnd();
  };
  const out = [o.style.bold(line(head))];
  list.forEach((s, i) => {
    const elsewhere = s.cwd !== o.cwd;
    const row = line(rows[i]!, i);
    out.push(elsewhere ? `${row}${o.style.dim(` · ${basename(s.cwd) || s.cwd}`)}` : row);
  });
  return out;
}

/** One line for a picker: date, title, turns. */
export function sessionChoiceLabel(s: SessionSummary, cwd: string): string {
  const where = s.cwd === cwd ? '' : ` · ${basename(s.cwd) || s.cwd}`;
  return `${shortDate(s.updated)}  ${cutToWidth(displayTitle(s), 50)}  (${turnsText(s.turns)}${where})`;
}
