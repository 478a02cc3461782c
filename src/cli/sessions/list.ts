import { basename } from 'node:path';
import measureWidth from 'string-width';
import { turnsText } from '../../agent/sessions/format.js';
import type { SessionSummary } from '../../agent/sessions/store.js';
import { formatCost } from '../../llm/models.js';
import { graphemes } from '../../support/graphemes.js';
import { t } from '../../support/i18n/index.js';
import type { Style } from '../render/style.js';
import { displayTitle } from './notes.js';
import { maxBy } from '../../support/arrays.js';

export { displayTitle };

/** `2026-03-14 15:30` in local time. */
export function shortDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso.slice(0, 16);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/**
 * Display width; printable Latin-1 (ids, dates, ¥ and $ costs, most titles) is counted directly, as
 * string-width costs tens of microseconds a call and a long listing measures every cell.
 */
function stringWidth(text: string): number {
  return /^[\x20-\x7e\u00a0-\u00ac\u00ae-\u00ff]*$/.test(text) ? text.length : measureWidth(text);
}

/** Cut to a display width (CJK counts 2 columns), by whole characters. */
export function fitWidth(text: string, cols: number): string {
  if (cols <= 0) return '';
  if (stringWidth(text) <= cols) return text;
  let out = '';
  let w = 0;
  for (const g of graphemes(text)) {
    const gw = stringWidth(g);
    if (w + gw > cols - 1) break;
    out += g;
    w += gw;
  }
  return `${out}…`;
}

export function padWidth(text: string, cols: number, right = false): string {
  const pad = ' '.repeat(Math.max(0, cols - stringWidth(text)));
  return right ? pad + text : text + pad;
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
  const widths = [0, 1, 2, 3, 4].map((c) => maxBy(rows, (r) => stringWidth(r[c]!), stringWidth(head[c]!)));
  const num = o.numbered ? String(list.length).length + 2 : 0;
  const used = num + widths.reduce((a, b) => a + b + 2, 0);
  const titleCols = Math.max(12, o.width - used - 1);
  const line = (cells: string[], i?: number) => {
    const prefix = o.numbered ? padWidth(i === undefined ? '' : `${i + 1}.`, num) : '';
    const fixed = cells
      .slice(0, 5)
      .map((c, k) => padWidth(c, widths[k]!, k === 2 || k === 4))
      .join('  ');
    return `${prefix}${fixed}  ${fitWidth(cells[5]!, titleCols)}`.trimEnd();
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
  return `${shortDate(s.updated)}  ${fitWidth(displayTitle(s), 50)}  (${turnsText(s.turns)}${where})`;
}
