/**
 * The one representation of a schedule: the five fields of cron, each a sorted list of the
 * values it allows (a field that allows every value is `any`). Phrases people say ("weekdays
 * 18:30", "每 2 小时") and cron lines both become this, and every OS scheduler entry, the words
 * said back and the next run times are made from it. Pure: no clock, no time zone of its own.
 */

export interface Schedule {
  minute: number[];
  hour: number[];
  /** Day of the month, 1–31. */
  day: number[];
  /** 1–12. */
  month: number[];
  /** 0 = Sunday … 6 = Saturday. */
  weekday: number[];
  /** Which fields were restricted (cron: a day matches by day OR weekday when both are). */
  anyDay: boolean;
  anyWeekday: boolean;
  /** Not a time: each time the person logs in (no fields; cron writes it `@login`). */
  atLogin?: true;
}

/** The text of an at-login schedule where a cron line would stand. */
export const AT_LOGIN_TEXT = '@login';

/** Each time the person logs in (a watch that should always run). */
export const AT_LOGIN: Schedule = {
  minute: [],
  hour: [],
  day: [],
  month: [],
  weekday: [],
  anyDay: true,
  anyWeekday: true,
  atLogin: true,
};

export const FIELDS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  { name: 'weekday', min: 0, max: 6 },
] as const;

export function range(min: number, max: number, step = 1): number[] {
  const out: number[] = [];
  for (let v = min; v <= max; v += step) out.push(v);
  return out;
}

/** A schedule at the given minutes and hours, on the given weekdays (all when omitted). */
export function daily(minute: number[], hour: number[], weekday?: number[]): Schedule {
  return {
    minute: [...minute].sort((a, b) => a - b),
    hour: [...new Set(hour)].sort((a, b) => a - b),
    day: range(1, 31),
    month: range(1, 12),
    weekday: weekday ? [...new Set(weekday)].sort((a, b) => a - b) : range(0, 6),
    anyDay: true,
    anyWeekday: !weekday || weekday.length === 7,
  };
}

/** One cron field (`*`, `5`, `1-5`, `*\/15`, `1,3,5`, `mon-fri`); undefined when it is not one. */
function parseField(text: string, min: number, max: number, names?: string[]): number[] | undefined {
  const values = new Set<number>();
  const num = (s: string): number | undefined => {
    const named = names?.indexOf(s.slice(0, 3));
    if (named !== undefined && named >= 0 && /^[a-z]+$/.test(s)) return named;
    return /^\d+$/.test(s) ? Number(s) : undefined;
  };
  for (const part of text.split(',')) {
    const m = /^(\*|[a-z0-9]+(?:-[a-z0-9]+)?)(?:\/(\d+))?$/.exec(part);
    if (!m) return undefined;
    const step = m[2] === undefined ? 1 : Number(m[2]);
    let lo = min;
    let hi = max;
    if (m[1] !== '*') {
      const [a, b] = m[1]!.split('-');
      const from = num(a!);
      const to = b === undefined ? (m[2] === undefined ? from : max) : num(b);
      if (from === undefined || to === undefined) return undefined;
      lo = from;
      hi = to;
    }
    if (step < 1 || lo < min || hi > max || lo > hi) return undefined;
    // The weekday field is read 0–7: cron allows 7 for Sunday.
    for (const v of range(lo, hi, step)) values.add(names && max === 7 ? v % 7 : v);
  }
  return [...values].sort((a, b) => a - b);
}

const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const MONTH_NAMES = ['', 'jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** A five-field cron line, or undefined when the text is not one. */
export function parseCron(text: string): Schedule | undefined {
  if (text.trim() === AT_LOGIN_TEXT) return AT_LOGIN;
  const parts = text.trim().toLowerCase().split(/\s+/);
  if (parts.length !== 5) return undefined;
  const [mi, h, d, mo, wd] = parts as [string, string, string, string, string];
  const minute = parseField(mi, 0, 59);
  const hour = parseField(h, 0, 23);
  const day = parseField(d, 1, 31);
  const month = parseField(mo, 1, 12, MONTH_NAMES);
  const weekday = parseField(wd === '*' ? '0-6' : wd, 0, 7, DAY_NAMES);
  if (!minute || !hour || !day || !month || !weekday) return undefined;
  return { minute, hour, day, month, weekday, anyDay: d === '*', anyWeekday: wd === '*' };
}

/** A field as cron writes it: `*`, a step over the whole range, or a list. */
function fieldText(values: number[], min: number, max: number): string {
  if (values.length === max - min + 1) return '*';
  const step = values.length > 1 ? values[1]! - values[0]! : 0;
  const stepped =
    values.length > 2 &&
    values[0] === min &&
    values.every((v, i) => v === min + i * step) &&
    max - values[values.length - 1]! < step;
  if (stepped) return `*/${step}`;
  return values.join(',');
}

/** The schedule as a cron line (for crontab and for people who read cron). */
export function cronText(s: Schedule): string {
  if (s.atLogin) return AT_LOGIN_TEXT;
  return [
    fieldText(s.minute, 0, 59),
    fieldText(s.hour, 0, 23),
    s.anyDay ? '*' : fieldText(s.day, 1, 31),
    fieldText(s.month, 1, 12),
    s.anyWeekday ? '*' : fieldText(s.weekday, 0, 6),
  ].join(' ');
}

/** Whether a calendar day (in the person's time zone) is one the schedule runs on. */
export function dayMatches(s: Schedule, day: number, month: number, weekday: number): boolean {
  if (!s.month.includes(month)) return false;
  const byDay = s.day.includes(day);
  const byWeekday = s.weekday.includes(weekday);
  // cron's rule: with both restricted, either one matching is enough.
  if (!s.anyDay && !s.anyWeekday) return byDay || byWeekday;
  return byDay && byWeekday;
}
