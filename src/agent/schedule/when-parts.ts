/** The pieces both languages' phrases are made of: times of day, steps, and the problem raised. */
import { daily, range, type Schedule } from './cron.js';

export type Fail = 'noTime' | 'badTime' | 'badStep' | 'notUnderstood';

/** A phrase that was read but cannot be a schedule; turned into a ZhiError by `parseWhen`. */
export class WhenProblem extends Error {
  constructor(readonly problem: Fail) {
    super(problem);
  }
}

/** Full-width digits and colons (９：００) as ASCII, lower case, single spaces. */
export function normalise(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** A time of day; `period` is am/pm or a Chinese part of the day. */
export function clock(hour: number, minute: number, period?: string): [number, number] {
  if (!Number.isInteger(hour) || !Number.isInteger(minute) || minute < 0 || minute > 59)
    throw new WhenProblem('badTime');
  let h = hour;
  if (period === 'am' || period === 'pm') {
    if (h < 1 || h > 12) throw new WhenProblem('badTime');
    h = (h % 12) + (period === 'pm' ? 12 : 0);
  } else if (period && /下午|晚上|傍晚|晚间/.test(period)) {
    if (h > 12) throw new WhenProblem('badTime');
    if (h < 12) h += 12;
  } else if (period === '中午') {
    if (h >= 1 && h <= 2) h += 12;
  } else if (period && /凌晨|半夜/.test(period) && h === 12) h = 0;
  if (h < 0 || h > 23) throw new WhenProblem('badTime');
  return [h, minute];
}

/** Several times of one day as a schedule: one minute for all, or a cron line cannot say it. */
export function atTimes(times: [number, number][], weekday?: number[]): Schedule {
  const minutes = new Set(times.map(([, m]) => m));
  if (minutes.size > 1) throw new WhenProblem('notUnderstood');
  return daily(
    [...minutes],
    times.map(([h]) => h),
    weekday,
  );
}

/** `every N hours` / `every N minutes`: steps that divide the hour or the day evenly. */
export function every(n: number, unit: 'hour' | 'minute'): Schedule {
  const whole = unit === 'hour' ? 24 : 60;
  if (!Number.isInteger(n) || n < 1 || whole % n !== 0) throw new WhenProblem('badStep');
  if (unit === 'hour') return daily([0], range(0, 23, n));
  return daily(range(0, 59, n), range(0, 23));
}
