/** Small Markdown helpers shared by the document readers. */

/** One table cell: pipes escaped, line breaks as <br>, surrounding space trimmed. */
export function mdCell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\r\n|\r|\n/g, '<br>')
    .trim();
}

/**
 * A Markdown table: the first row is the header. Rows shorter than the widest are padded, so the
 * table stays valid whatever the data.
 */
export function mdTable(rows: string[][]): string {
  if (!rows.length) return '';
  // A loop, not Math.max(...rows): spreading 200,000 rows overflows the call stack.
  let width = 1;
  for (const r of rows) if (r.length > width) width = r.length;
  const line = (r: string[]) =>
    `| ${Array.from({ length: width }, (_, i) => mdCell(r[i] ?? '')).join(' | ')} |`;
  const [head, ...body] = rows;
  return [line(head!), `|${' --- |'.repeat(width)}`, ...body.map(line)].join('\n');
}

/** Date as `2024-03-15`, or `2024-03-15 09:30` / `09:30:15` when it carries a time (UTC wall time, as spreadsheets store it). */
export function formatWallDate(d: Date): string {
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const h = d.getUTCHours();
  const m = d.getUTCMinutes();
  const s = d.getUTCSeconds();
  const time = `${pad(h)}:${pad(m)}${s ? `:${pad(s)}` : ''}`;
  // Excel's day zero (1899-12-30/31): a time of day without a date.
  if (d.getUTCFullYear() < 1900) return time;
  return h || m || s ? `${date} ${time}` : date;
}
