/**
 * `<when>` in Chinese: 每天 9:00, 每天上午9点, 工作日 18:30, 每周一、三 8:00, 每周一至周五 下午6点半,
 * 每 2 小时, 每小时. Times: 9:00, 9点, 9点半, 9点30分, with 上午/下午/晚上/凌晨/中午; numbers in
 * digits or Chinese (九点, 两小时).
 */
import { range, type Schedule } from './cron.js';
import { atTimes, clock, every, WhenProblem } from './when-parts.js';

const DIGITS: Record<string, number> = {
  零: 0,
  〇: 0,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};

/** 0–59 in digits or Chinese numerals (十, 十五, 二十三, 三十); undefined otherwise. */
export function zhNumber(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text);
  const m = /^([一二两三四五]?)(十?)([一二三四五六七八九]?)$/.exec(text);
  if (m && text.length) {
    if (!m[2]) return text.length === 1 ? DIGITS[text] : undefined;
    return (m[1] ? DIGITS[m[1]]! : 1) * 10 + (m[3] ? DIGITS[m[3]]! : 0);
  }
  return text.length === 1 ? DIGITS[text] : undefined;
}

const NUM = '[0-9零〇一二两三四五六七八九十]+';
const PERIOD = '凌晨|半夜|早上|早晨|清晨|上午|中午|下午|傍晚|晚上|晚间';
const TIME = new RegExp(
  `^(${PERIOD})?\\s*(?:(\\d{1,2}):(\\d{2})|(${NUM})\\s*[点點时](?:\\s*(半|整|一刻|三刻|(${NUM})\\s*分?))?)$`,
);

function zhTime(text: string): [number, number] {
  const m = TIME.exec(text.trim());
  if (!m) throw new WhenProblem('notUnderstood');
  const period = m[1];
  if (m[2] !== undefined) return clock(Number(m[2]), Number(m[3]), period);
  const hour = zhNumber(m[4]!);
  const extra = m[5];
  const minute =
    extra === undefined || extra === '整'
      ? 0
      : extra === '半'
        ? 30
        : extra === '一刻'
          ? 15
          : extra === '三刻'
            ? 45
            : zhNumber(m[6]!);
  if (hour === undefined || minute === undefined) throw new WhenProblem('badTime');
  return clock(hour, minute, period);
}

const WEEKDAY: Record<string, number> = { 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 日: 0, 天: 0, '7': 0 };
for (const d of ['1', '2', '3', '4', '5', '6']) WEEKDAY[d] = Number(d);

/** 一、三 / 一和三 / 一至五 (周, 星期 and 礼拜 before each are allowed). */
function zhWeekdays(text: string): number[] | undefined {
  const t = text.replace(/周|星期|礼拜|禮拜/g, '');
  const out: number[] = [];
  for (const part of t.split(/[、，,和及与與\s]+/).filter(Boolean)) {
    const span = /^(.)[至到\-~～](.)$/.exec(part);
    if (span) {
      const a = WEEKDAY[span[1]!];
      const b = WEEKDAY[span[2]!];
      if (a === undefined || b === undefined) return undefined;
      const end = b === 0 ? 7 : b;
      for (let d = a; d <= end; d++) out.push(d % 7);
      continue;
    }
    for (const ch of part) {
      const d = WEEKDAY[ch];
      if (d === undefined) return undefined;
      out.push(d);
    }
  }
  return out.length ? out : undefined;
}

/** The days of a phrase: undefined for every day, a weekday list, or false when not days. */
function dayWord(t: string): { days: number[] | undefined; rest: string } | false {
  const fixed = /^(每天|每日|天天|每个?工作日|工作日|每周末|周末)\s*(.*)$/.exec(t);
  if (fixed) {
    const word = fixed[1]!;
    const days = /工作日/.test(word) ? range(1, 5) : /周末/.test(word) ? [0, 6] : undefined;
    return { days, rest: fixed[2]! };
  }
  return false;
}

/** 每周一、三 8:00: the longest weekday list whose remainder reads as times. */
function weekly(t: string): Schedule | undefined {
  const m = /^每(?:个)?(?:周|星期|礼拜|禮拜)(.+)$/.exec(t);
  if (!m) return undefined;
  const s = m[1]!;
  let problem: WhenProblem | undefined;
  for (let i = s.length; i >= 1; i--) {
    const days = zhWeekdays(s.slice(0, i).trim());
    if (!days) continue;
    const rest = s.slice(i).trim();
    if (!rest) throw new WhenProblem('noTime');
    try {
      return atTimes(timesOf(rest), days);
    } catch (err) {
      if (!(err instanceof WhenProblem)) throw err;
      problem ??= err;
    }
  }
  if (problem) throw problem;
  return undefined;
}

function timesOf(rest: string): [number, number][] {
  return rest
    .replace(/^的\s*/, '')
    .split(/\s*[、，,和及]\s*/)
    .filter(Boolean)
    .map(zhTime);
}

export function parseWhenZh(text: string): Schedule | undefined {
  const t = text.replace(/\s+/g, ' ');
  if (/^每(?:个|一)?(?:小时|钟头)$/.test(t)) return every(1, 'hour');
  const step = new RegExp(`^每隔?\\s*(${NUM})\\s*个?\\s*(小时|钟头|分钟)$`).exec(t);
  if (step) {
    const n = zhNumber(step[1]!);
    if (n === undefined) throw new WhenProblem('badStep');
    return every(n, step[2] === '分钟' ? 'minute' : 'hour');
  }
  const found = dayWord(t);
  if (!found) return weekly(t);
  if (!found.rest.trim()) throw new WhenProblem('noTime');
  return atTimes(timesOf(found.rest.trim()), found.days);
}
