/**
 * When a schedule runs next, in the person's time zone. The clock and the zone are parameters
 * (tests pass their own); a wall time a daylight-saving change skips does not happen, one it
 * repeats happens once (the first), as cron does.
 */
import { dayMatches, type Schedule } from './cron.js';

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** 0 = Sunday. */
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall clock in `timeZone` at an instant. */
export function wallTime(at: Date, timeZone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(at)) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const { year = 0, month = 1, day = 1, hour = 0, minute = 0 } = parts;
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return { year, month, day, hour, minute, weekday };
}

/** The instant a wall time in `timeZone` names, or undefined when that zone skips it. */
export function instantOf(w: Omit<WallTime, 'weekday'>, timeZone: string): Date | undefined {
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
  // Two rounds settle the zone's offset (it differs on either side of a change).
  let guess = asUtc;
  for (let i = 0; i < 2; i++) {
    const seen = wallTime(new Date(guess), timeZone);
    const seenUtc = Date.UTC(seen.year, seen.month - 1, seen.day, seen.hour, seen.minute);
    guess += asUtc - seenUtc;
  }
  const back = wallTime(new Date(guess), timeZone);
  const same = back.hour === w.hour && back.minute === w.minute && back.day === w.day;
  return same ? new Date(guess) : undefined;
}

/** The person's time zone as the system reports it (TZ, else the system's). */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * The next `count` run times strictly after `from`. Days are walked in the zone's calendar (at
 * most 8 years: a 29 February in a leap year is the rarest a cron line can be).
 */
export function nextRuns(s: Schedule, o: { from: Date; timeZone: string; count?: number }): Date[] {
  const count = o.count ?? 3;
  const out: Date[] = [];
  // At login has no times: nothing is next, and nothing can be missed.
  if (s.atLogin) return out;
  const start = wallTime(o.from, o.timeZone);
  // Walk calendar days as UTC dates (no zone changes there), starting on the local day of `from`.
  let day = Date.UTC(start.year, start.month - 1, start.day);
  const last = day + 8 * 366 * 86_400_000;
  for (; day <= last && out.length < count; day += 86_400_000) {
    const d = new Date(day);
    const cal = { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
    if (!dayMatches(s, cal.day, cal.month, d.getUTCDay())) continue;
    for (const hour of s.hour) {
      for (const minute of s.minute) {
        const at = instantOf({ ...cal, hour, minute }, o.timeZone);
        if (!at || at.getTime() <= o.from.getTime()) continue;
        out.push(at);
        if (out.length === count) return out;
      }
    }
  }
  return out;
}

/** The first run time after `since` that is already past at `now` (a run that was missed). */
export function missedRun(s: Schedule, since: Date, now: Date, timeZone: string): Date | undefined {
  const [next] = nextRuns(s, { from: since, timeZone, count: 1 });
  return next && next.getTime() <= now.getTime() ? next : undefined;
}
