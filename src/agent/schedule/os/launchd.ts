/**
 * The launchd agent of a job (`~/Library/LaunchAgents/dev.zhi.schedule.<name>.plist`): one
 * StartCalendarInterval entry per combination of the schedule's restricted fields. launchd runs
 * a start missed while the Mac slept when it wakes (several missed starts as one). Pure: the
 * plist as a string; `launchctl bootstrap gui/<uid>` loads it.
 */
import type { Schedule } from '../cron.js';
import { type Launch, xmlText } from './launch.js';

export function launchdLabel(name: string): string {
  return `dev.zhi.schedule.${name}`;
}

type Interval = Record<string, number>;

/** Every combination of the restricted fields (an unrestricted field is left out: any value). */
export function calendarIntervals(s: Schedule): Interval[] {
  const fields: [string, number[], boolean][] = [
    ['Minute', s.minute, s.minute.length === 60],
    ['Hour', s.hour, s.hour.length === 24],
    ['Month', s.month, s.month.length === 12],
  ];
  let out: Interval[] = [{}];
  for (const [key, values, any] of fields) {
    if (any) continue;
    out = out.flatMap((i) => values.map((v) => ({ ...i, [key]: v })));
  }
  const dayKinds: Interval[][] = [];
  if (!s.anyDay) dayKinds.push(s.day.map((d) => ({ Day: d })));
  if (!s.anyWeekday) dayKinds.push(s.weekday.map((d) => ({ Weekday: d })));
  if (dayKinds.length) out = dayKinds.flat().flatMap((d) => out.map((i) => ({ ...i, ...d })));
  return out;
}

const str = (s: string) => `<string>${xmlText(s)}</string>`;

export function launchdPlist(name: string, s: Schedule, l: Launch, outFile: string): string {
  const intervals = calendarIntervals(s).map(
    (i) =>
      `\t\t<dict>${Object.entries(i)
        .map(([k, v]) => `<key>${k}</key><integer>${v}</integer>`)
        .join('')}</dict>`,
  );
  const env = Object.entries(l.env).map(([k, v]) => `\t\t<key>${xmlText(k)}</key>${str(v)}`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '<dict>',
    `\t<key>Label</key>${str(launchdLabel(name))}`,
    '\t<key>ProgramArguments</key>',
    '\t<array>',
    ...[l.program, ...l.args].map((a) => `\t\t${str(a)}`),
    '\t</array>',
    `\t<key>WorkingDirectory</key>${str(l.cwd)}`,
    '\t<key>EnvironmentVariables</key>',
    '\t<dict>',
    ...env,
    '\t</dict>',
    // At login: a LaunchAgent's RunAtLoad starts it when the person's session begins.
    ...(s.atLogin
      ? ['\t<key>RunAtLoad</key>', '\t<true/>']
      : ['\t<key>StartCalendarInterval</key>', '\t<array>', ...intervals, '\t</array>']),
    `\t<key>StandardOutPath</key>${str(outFile)}`,
    `\t<key>StandardErrorPath</key>${str(outFile)}`,
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}
