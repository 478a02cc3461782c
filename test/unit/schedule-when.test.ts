import { afterEach, describe, expect, it } from 'vitest';
import { cronText, parseCron } from '../../src/agent/schedule/cron.js';
import { nextRuns } from '../../src/agent/schedule/next.js';
import { parseWhen } from '../../src/agent/schedule/when.js';
import { runTime, describe as say } from '../../src/agent/schedule/words.js';
import { ZhiError } from '../../src/support/errors.js';
import { setLanguage } from '../../src/support/i18n/index.js';

afterEach(() => setLanguage('en'));

// Sunday 29 November 2026, 07:00 in Shanghai (UTC+8, no daylight saving).
const FROM = new Date('2026-11-28T23:00:00Z');
const SHANGHAI = 'Asia/Shanghai';

/** phrase → cron line, the words in English and Chinese, the next three runs (Shanghai time). */
const TABLE: [string, string, string, string, string[]][] = [
  [
    'every day 9:00',
    '0 9 * * *',
    'every day at 09:00',
    '每天 09:00',
    ['2026-11-29 09:00 (Sun)', '2026-11-30 09:00 (Mon)', '2026-12-01 09:00 (Tue)'],
  ],
  [
    'daily 09:30',
    '30 9 * * *',
    'every day at 09:30',
    '每天 09:30',
    ['2026-11-29 09:30 (Sun)', '2026-11-30 09:30 (Mon)', '2026-12-01 09:30 (Tue)'],
  ],
  [
    'weekdays 18:30',
    '30 18 * * 1,2,3,4,5',
    'on weekdays (Monday to Friday) at 18:30',
    '工作日（周一至周五）18:30',
    ['2026-11-30 18:30 (Mon)', '2026-12-01 18:30 (Tue)', '2026-12-02 18:30 (Wed)'],
  ],
  [
    'every monday 9:00',
    '0 9 * * 1',
    'every Monday at 09:00',
    '每周一 09:00',
    ['2026-11-30 09:00 (Mon)', '2026-12-07 09:00 (Mon)', '2026-12-14 09:00 (Mon)'],
  ],
  [
    'every mon,wed 8:00',
    '0 8 * * 1,3',
    'every Monday and Wednesday at 08:00',
    '每周一、周三 08:00',
    ['2026-11-30 08:00 (Mon)', '2026-12-02 08:00 (Wed)', '2026-12-07 08:00 (Mon)'],
  ],
  [
    'every 2 hours',
    '0 */2 * * *',
    'every 2 hours at :00, counted from midnight',
    '从零点起每 2 小时，在第 00 分',
    ['2026-11-29 08:00 (Sun)', '2026-11-29 10:00 (Sun)', '2026-11-29 12:00 (Sun)'],
  ],
  [
    'hourly',
    '0 * * * *',
    'every hour at :00',
    '每小时的第 00 分',
    ['2026-11-29 08:00 (Sun)', '2026-11-29 09:00 (Sun)', '2026-11-29 10:00 (Sun)'],
  ],
  [
    'Every Day at 6:30 PM',
    '30 18 * * *',
    'every day at 18:30',
    '每天 18:30',
    ['2026-11-29 18:30 (Sun)', '2026-11-30 18:30 (Mon)', '2026-12-01 18:30 (Tue)'],
  ],
  [
    '9am every weekday',
    '0 9 * * 1,2,3,4,5',
    'on weekdays (Monday to Friday) at 09:00',
    '工作日（周一至周五）09:00',
    ['2026-11-30 09:00 (Mon)', '2026-12-01 09:00 (Tue)', '2026-12-02 09:00 (Wed)'],
  ],
  [
    'every day 9:00 and 17:00',
    '0 9,17 * * *',
    'every day at 09:00 and 17:00',
    '每天 09:00、17:00',
    ['2026-11-29 09:00 (Sun)', '2026-11-29 17:00 (Sun)', '2026-11-30 09:00 (Mon)'],
  ],
  [
    'every 15 minutes',
    '*/15 * * * *',
    'every 15 minutes',
    '每 15 分钟',
    ['2026-11-29 07:15 (Sun)', '2026-11-29 07:30 (Sun)', '2026-11-29 07:45 (Sun)'],
  ],
  [
    '每天 9:00',
    '0 9 * * *',
    'every day at 09:00',
    '每天 09:00',
    ['2026-11-29 09:00 (Sun)', '2026-11-30 09:00 (Mon)', '2026-12-01 09:00 (Tue)'],
  ],
  [
    '每天上午9点',
    '0 9 * * *',
    'every day at 09:00',
    '每天 09:00',
    ['2026-11-29 09:00 (Sun)', '2026-11-30 09:00 (Mon)', '2026-12-01 09:00 (Tue)'],
  ],
  [
    '每天下午6点半',
    '30 18 * * *',
    'every day at 18:30',
    '每天 18:30',
    ['2026-11-29 18:30 (Sun)', '2026-11-30 18:30 (Mon)', '2026-12-01 18:30 (Tue)'],
  ],
  [
    '每天晚上八点',
    '0 20 * * *',
    'every day at 20:00',
    '每天 20:00',
    ['2026-11-29 20:00 (Sun)', '2026-11-30 20:00 (Mon)', '2026-12-01 20:00 (Tue)'],
  ],
  [
    '工作日 18:30',
    '30 18 * * 1,2,3,4,5',
    'on weekdays (Monday to Friday) at 18:30',
    '工作日（周一至周五）18:30',
    ['2026-11-30 18:30 (Mon)', '2026-12-01 18:30 (Tue)', '2026-12-02 18:30 (Wed)'],
  ],
  [
    '每周一 9:00',
    '0 9 * * 1',
    'every Monday at 09:00',
    '每周一 09:00',
    ['2026-11-30 09:00 (Mon)', '2026-12-07 09:00 (Mon)', '2026-12-14 09:00 (Mon)'],
  ],
  [
    '每周一、三 8:00',
    '0 8 * * 1,3',
    'every Monday and Wednesday at 08:00',
    '每周一、周三 08:00',
    ['2026-11-30 08:00 (Mon)', '2026-12-02 08:00 (Wed)', '2026-12-07 08:00 (Mon)'],
  ],
  [
    '每周三三点',
    '0 3 * * 3',
    'every Wednesday at 03:00',
    '每周三 03:00',
    ['2026-12-02 03:00 (Wed)', '2026-12-09 03:00 (Wed)', '2026-12-16 03:00 (Wed)'],
  ],
  [
    '每周一至周五 ９：１５',
    '15 9 * * 1,2,3,4,5',
    'on weekdays (Monday to Friday) at 09:15',
    '工作日（周一至周五）09:15',
    ['2026-11-30 09:15 (Mon)', '2026-12-01 09:15 (Tue)', '2026-12-02 09:15 (Wed)'],
  ],
  [
    '每 2 小时',
    '0 */2 * * *',
    'every 2 hours at :00, counted from midnight',
    '从零点起每 2 小时，在第 00 分',
    ['2026-11-29 08:00 (Sun)', '2026-11-29 10:00 (Sun)', '2026-11-29 12:00 (Sun)'],
  ],
  [
    '每两小时',
    '0 */2 * * *',
    'every 2 hours at :00, counted from midnight',
    '从零点起每 2 小时，在第 00 分',
    ['2026-11-29 08:00 (Sun)', '2026-11-29 10:00 (Sun)', '2026-11-29 12:00 (Sun)'],
  ],
  [
    '每小时',
    '0 * * * *',
    'every hour at :00',
    '每小时的第 00 分',
    ['2026-11-29 08:00 (Sun)', '2026-11-29 09:00 (Sun)', '2026-11-29 10:00 (Sun)'],
  ],
  [
    '0 9 * * 1-5',
    '0 9 * * 1,2,3,4,5',
    'on weekdays (Monday to Friday) at 09:00',
    '工作日（周一至周五）09:00',
    ['2026-11-30 09:00 (Mon)', '2026-12-01 09:00 (Tue)', '2026-12-02 09:00 (Wed)'],
  ],
  [
    '30 8 1 * *',
    '30 8 1 * *',
    'on the cron schedule “30 8 1 * *”',
    '按 cron 表达式“30 8 1 * *”',
    ['2026-12-01 08:30 (Tue)', '2027-01-01 08:30 (Fri)', '2027-02-01 08:30 (Mon)'],
  ],
];

describe('parseWhen: phrases people say, in both languages, and cron', () => {
  it.each(TABLE)('%s', (phrase, cron, en, zh, next) => {
    const s = parseWhen(phrase);
    expect(cronText(s)).toBe(cron);
    setLanguage('en');
    expect(say(s)).toBe(en);
    expect(nextRuns(s, { from: FROM, timeZone: SHANGHAI }).map((d) => runTime(d, SHANGHAI))).toEqual(next);
    setLanguage('zh');
    expect(say(s)).toBe(zh);
  });
});

/** Not understood, or understood but incomplete: an error with examples, never a guess. */
const REFUSED: [string, string][] = [
  ['every day', 'schedule.when.noTime'],
  ['每天', 'schedule.when.noTime'],
  ['every monday', 'schedule.when.noTime'],
  ['每周一', 'schedule.when.noTime'],
  ['9:00', 'schedule.when.notUnderstood'],
  ['tomorrow 9:00', 'schedule.when.notUnderstood'],
  ['every dya 9:00', 'schedule.when.notUnderstood'],
  ['every day 25:00', 'schedule.when.badTime'],
  ['every day 9:75', 'schedule.when.badTime'],
  ['每天下午13点', 'schedule.when.badTime'],
  ['every 5 hours', 'schedule.when.badStep'],
  ['每 7 小时', 'schedule.when.badStep'],
  ['every day 9:00 and 17:30', 'schedule.when.notUnderstood'],
  ['61 * * * *', 'schedule.when.notUnderstood'],
  ['', 'schedule.when.notUnderstood'],
];

describe('parseWhen: what it will not guess', () => {
  it.each(REFUSED)('%j', (phrase, key) => {
    let caught: unknown;
    try {
      parseWhen(phrase);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ZhiError);
    const e = caught as ZhiError;
    expect(e.what.key).toBe(key);
    expect(e.tryTexts().join(' ')).toContain('every day 9:00');
    setLanguage('zh');
    expect(e.tryTexts().join(' ')).toContain('每天 9:00');
  });
});

describe('nextRuns: the time zone and its daylight-saving changes', () => {
  it('skips a wall time that a spring change removes, and runs a repeated one once', () => {
    const s = parseWhen('every day 2:30');
    const ny = 'America/New_York';
    // 8 March 2026: clocks go from 02:00 to 03:00 in New York.
    const runs = nextRuns(s, { from: new Date('2026-03-07T12:00:00Z'), timeZone: ny });
    expect(runs.map((d) => runTime(d, ny))).toEqual([
      '2026-03-09 02:30 (Mon)',
      '2026-03-10 02:30 (Tue)',
      '2026-03-11 02:30 (Wed)',
    ]);
    const fall = nextRuns(parseWhen('every day 1:30'), {
      from: new Date('2026-10-31T12:00:00Z'),
      timeZone: ny,
    });
    expect(fall.map((d) => d.toISOString())).toEqual([
      '2026-11-01T05:30:00.000Z',
      '2026-11-02T06:30:00.000Z',
      '2026-11-03T06:30:00.000Z',
    ]);
  });

  it('reads cron the way cron does: day of month OR weekday when both are given, 7 is Sunday', () => {
    const s = parseCron('0 12 13 * 5')!;
    const runs = nextRuns(s, { from: new Date('2026-11-01T00:00:00Z'), timeZone: 'UTC', count: 3 });
    expect(runs.map((d) => d.toISOString().slice(0, 10))).toEqual(['2026-11-06', '2026-11-13', '2026-11-20']);
    expect(parseCron('0 0 * * 7')!.weekday).toEqual([0]);
    expect(parseCron('0 0 * * mon-fri')!.weekday).toEqual([1, 2, 3, 4, 5]);
  });
});
