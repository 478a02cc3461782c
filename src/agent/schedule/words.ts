/**
 * A schedule said back in the person's language ("on weekdays at 18:30", "每周一、周三 08:00"),
 * and run times as they read them, in their time zone. Whatever has no plain phrase is said as
 * its cron line.
 */
import { getLanguage, type MessageKey, t } from '../../support/i18n/index.js';
import { cronText, range, type Schedule } from './cron.js';
import { wallTime } from './next.js';

const two = (n: number) => String(n).padStart(2, '0');

function dayName(d: number): string {
  return t(`schedule.day.${d}` as MessageKey);
}

function same(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** The step of a list that starts at 0 and climbs evenly through the whole range, else 0. */
function stepOf(values: number[], size: number): number {
  if (values[0] !== 0) return 0;
  const step = values.length > 1 ? values[1]! : size;
  return same(values, range(0, size - 1, step)) && size % step === 0 ? step : 0;
}

function listOf(items: string[]): string {
  if (getLanguage() === 'zh') return items.join('、');
  if (items.length < 2) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export function describe(s: Schedule): string {
  if (s.atLogin) return t('schedule.words.atLogin');
  const everyDay = s.anyDay && same(s.month, range(1, 12));
  if (!everyDay) return t('schedule.words.cron', { cron: cronText(s) });
  const allHours = s.hour.length === 24;
  const minuteStep = stepOf(s.minute, 60);
  if (s.anyWeekday && allHours && s.minute.length > 1 && minuteStep > 0)
    return t('schedule.words.minutes', { n: minuteStep });
  if (s.minute.length !== 1) return t('schedule.words.cron', { cron: cronText(s) });
  const minute = two(s.minute[0]!);
  const hourStep = stepOf(s.hour, 24);
  if (s.anyWeekday && hourStep === 1) return t('schedule.words.hourly', { minute });
  if (s.anyWeekday && hourStep > 1) return t('schedule.words.hours', { n: hourStep, minute });
  const times = listOf(s.hour.map((h) => `${two(h)}:${minute}`));
  if (s.anyWeekday) return t('schedule.words.daily', { times });
  if (same(s.weekday, [1, 2, 3, 4, 5])) return t('schedule.words.weekdays', { times });
  if (same(s.weekday, [0, 6])) return t('schedule.words.weekends', { times });
  const days = listOf(s.weekday.map(dayName));
  return t('schedule.words.weekly', { days, times });
}

/** A run time as the person reads it: `2026-11-30 09:00 (Mon)` / `2026-11-30 09:00（周一）`. */
export function runTime(at: Date, timeZone: string): string {
  const w = wallTime(at, timeZone);
  return t('schedule.words.at', {
    date: `${w.year}-${two(w.month)}-${two(w.day)}`,
    time: `${two(w.hour)}:${two(w.minute)}`,
    day: t(`schedule.short.${w.weekday}` as MessageKey),
  });
}
