/**
 * `<when>` as people say it, in English and Chinese ("weekdays 18:30", "每周一 9:00", "每 2 小时"),
 * or a five-field cron line, into one `Schedule`. Anything not understood is an error with
 * examples — a schedule is never guessed. Pure: no clock, no I/O.
 */
import { ZhiError } from '../../support/errors.js';
import { AT_LOGIN, parseCron, range, type Schedule } from './cron.js';
import { atTimes, clock, every, type Fail, normalise, WhenProblem } from './when-parts.js';
import { parseWhenZh } from './when-zh.js';

const EN_DAYS: Record<string, number> = {
  sun: 0,
  mon: 1,
  tue: 2,
  tues: 2,
  wed: 3,
  thu: 4,
  thur: 4,
  thurs: 4,
  fri: 5,
  sat: 6,
};

function enDay(word: string): number | undefined {
  const w = word.replace(/s$/, '');
  const full = /^(sun|mon|tues|wednes|thurs|fri|satur)day$/.exec(w);
  return EN_DAYS[full ? full[1]!.slice(0, 3) : w];
}

/** The day part of an English phrase: undefined for every day, a weekday list otherwise. */
function enDays(text: string): number[] | undefined | false {
  const t = text.replace(/^(every|each|on)\s+/, '').trim();
  if (/^(day|daily|everyday|days)$/.test(t) || t === '') return undefined;
  if (/^(weekdays?|working days?|workdays?|mon-fri|monday-friday|monday to friday)$/.test(t))
    return range(1, 5);
  if (/^(weekends?|sat,sun|saturday and sunday)$/.test(t)) return [0, 6];
  const words = t.split(/\s*(?:,|\band\b|&|\s)\s*/).filter(Boolean);
  const days = words.map(enDay);
  if (!days.length || days.some((d) => d === undefined)) return false;
  return days as number[];
}

const EN_TIME = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/;

function enTimes(text: string): [number, number][] | undefined {
  const parts = text.split(/\s*(?:,|\band\b|&)\s*/).filter(Boolean);
  const out: [number, number][] = [];
  for (const p of parts) {
    const m = EN_TIME.exec(p.replace(/^at\s+/, ''));
    if (!m || (m[2] === undefined && m[3] === undefined)) return undefined;
    out.push(clock(Number(m[1]), Number(m[2] ?? 0), m[3]));
  }
  return out.length ? out : undefined;
}

function parseWhenEn(text: string): Schedule | undefined {
  if (/^(hourly|every hour|each hour)$/.test(text)) return every(1, 'hour');
  const step = /^every (\d+) ?(hours?|hrs?|h|minutes?|mins?)$/.exec(text);
  if (step) return every(Number(step[1]), step[2]!.startsWith('h') ? 'hour' : 'minute');
  // "<days> [at] <times>" or "[at] <times> <days>"
  const dayFirst =
    /^(.*?)\s*(?:\bat\s+)?(\d{1,2}(?::\d{2})?\s*(?:am|pm)?(?:\s*(?:,|and|&)\s*\d{1,2}(?::\d{2})?\s*(?:am|pm)?)*)$/.exec(
      text,
    );
  const timeFirst = /^(?:at\s+)?(\d{1,2}(?::\d{2})?\s*(?:am|pm)?)\s+(.+)$/.exec(text);
  const splits: [string, string][] = [];
  if (dayFirst) splits.push([dayFirst[1]!, dayFirst[2]!]);
  if (timeFirst) splits.push([timeFirst[2]!, timeFirst[1]!]);
  for (const [daysText, timesText] of splits) {
    const days = enDays(daysText);
    const times = enTimes(timesText);
    if (days === false || !times) continue;
    if (!daysText.trim()) continue; // a bare time is not a schedule: every day? once?
    return atTimes(times, days);
  }
  // A day without a time is understood but incomplete: say so, never pick 00:00.
  if (enDays(text) !== false && /[a-z]/.test(text)) throw new WhenProblem('noTime');
  return undefined;
}

const EXAMPLES =
  'every day 9:00 · weekdays 18:30 · every monday 9:00 · every 2 hours · 每天 9:00 · 每周一 9:00 · 0 9 * * 1-5';

/** "at-login", "at login", "on login", "登录时", "每次登录", "开机时": each time the person logs in. */
function atLogin(text: string): Schedule | undefined {
  return /^(at[- ]?login|on[- ]?login|at[- ]?logon|@login|登录时|每次登录|登录后|开机时|开机后)$/i.test(
    text.trim(),
  )
    ? AT_LOGIN
    : undefined;
}

/** `<when>` into a schedule, or a ZhiError that says what was not understood, with examples. */
export function parseWhen(input: string): Schedule {
  const text = normalise(input);
  let problem: Fail = 'notUnderstood';
  try {
    const found = atLogin(text) ?? parseCron(text) ?? parseWhenEn(text) ?? parseWhenZh(text);
    if (found) return found;
  } catch (err) {
    if (!(err instanceof WhenProblem)) throw err;
    problem = err.problem;
  }
  throw new ZhiError({
    kind: 'usage',
    what: { key: `schedule.when.${problem}`, params: { when: input } },
    tries: [{ key: 'schedule.when.examples', params: { examples: EXAMPLES } }],
  });
}
