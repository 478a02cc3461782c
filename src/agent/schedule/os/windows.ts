/**
 * The Task Scheduler definition of a job (schtasks /create /xml): it runs as the person who made
 * it, with their interactive token (no password is stored, it runs while they are logged on),
 * StartWhenAvailable so a run missed while the computer was off runs when it can, and never two
 * at once. Pure: the XML as a string; it is written UTF-16 with a BOM, as schtasks expects.
 */
import type { Schedule } from '../cron.js';
import { type Launch, windowsWord, xmlText } from './launch.js';

const DAY_TAGS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTH_TAGS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const two = (n: number) => String(n).padStart(2, '0');

/** The step of an evenly spaced list from 0 over the whole range, else 0. */
function stepOf(values: number[], size: number): number {
  const step = values.length > 1 ? values[1]! - values[0]! : 0;
  const even = values[0] === 0 && step > 0 && values.every((v, i) => v === i * step) && size % step === 0;
  return even && values.length === size / step ? step : 0;
}

/** How the days repeat: every day, some weekdays, or some days of some months. */
function daysPart(s: Schedule): string[] {
  if (s.anyDay && s.anyWeekday && s.month.length === 12)
    return ['<ScheduleByDay><DaysInterval>1</DaysInterval></ScheduleByDay>'];
  if (s.anyDay && s.month.length === 12) {
    const days = s.weekday.map((d) => `<${DAY_TAGS[d]} />`).join('');
    return [
      `<ScheduleByWeek><DaysOfWeek>${days}</DaysOfWeek><WeeksInterval>1</WeeksInterval></ScheduleByWeek>`,
    ];
  }
  const months = `<Months>${s.month.map((m) => `<${MONTH_TAGS[m - 1]} />`).join('')}</Months>`;
  const out: string[] = [];
  if (!s.anyDay || s.anyWeekday) {
    const days = s.day.map((d) => `<Day>${d}</Day>`).join('');
    out.push(`<ScheduleByMonth><DaysOfMonth>${days}</DaysOfMonth>${months}</ScheduleByMonth>`);
  }
  if (!s.anyWeekday) {
    const days = s.weekday.map((d) => `<${DAY_TAGS[d]} />`).join('');
    out.push(
      `<ScheduleByMonthDayOfWeek><Weeks><Week>1</Week><Week>2</Week><Week>3</Week><Week>4</Week><Week>Last</Week></Weeks><DaysOfWeek>${days}</DaysOfWeek>${months}</ScheduleByMonthDayOfWeek>`,
    );
  }
  return out;
}

/** One CalendarTrigger per start time of the day (or one repeating), per way the days repeat. */
export function triggers(s: Schedule, firstDay: string): string[] {
  const minuteStep = s.hour.length === 24 ? stepOf(s.minute, 60) : 0;
  const hourStep = s.minute.length === 1 ? stepOf(s.hour, 24) : 0;
  let starts: { at: string; every?: string }[];
  if (minuteStep) starts = [{ at: '00:00', every: `PT${minuteStep}M` }];
  else if (hourStep) starts = [{ at: `00:${two(s.minute[0]!)}`, every: `PT${hourStep}H` }];
  else starts = s.hour.flatMap((h) => s.minute.map((m) => ({ at: `${two(h)}:${two(m)}` })));
  const out: string[] = [];
  for (const days of daysPart(s)) {
    for (const start of starts) {
      const repeat = start.every
        ? `<Repetition><Interval>${start.every}</Interval><Duration>P1D</Duration><StopAtDurationEnd>false</StopAtDurationEnd></Repetition>`
        : '';
      out.push(
        `    <CalendarTrigger>${repeat}<StartBoundary>${firstDay}T${start.at}:00</StartBoundary><Enabled>true</Enabled>${days}</CalendarTrigger>`,
      );
    }
  }
  return out;
}

export function taskXml(o: {
  name: string;
  schedule: Schedule;
  launch: Launch;
  /** DOMAIN\user of the person (USERDOMAIN, USERNAME). */
  user: string;
  /** The local day the task starts from (YYYY-MM-DD). */
  firstDay: string;
  enabled?: boolean;
}): string {
  const { launch } = o;
  const args = launch.args.map(windowsWord).join(' ');
  return [
    '<?xml version="1.0" encoding="UTF-16"?>',
    '<Task version="1.2" xmlns="http://schemas.microsoft.com/windows/2004/02/mit/task">',
    '  <RegistrationInfo>',
    `    <Description>${xmlText(`zhi schedule ${o.name}`)}</Description>`,
    `    <URI>${xmlText(`\\zhi\\${o.name}`)}</URI>`,
    '  </RegistrationInfo>',
    '  <Triggers>',
    ...(o.schedule.atLogin
      ? [`    <LogonTrigger><Enabled>true</Enabled><UserId>${xmlText(o.user)}</UserId></LogonTrigger>`]
      : triggers(o.schedule, o.firstDay)),
    '  </Triggers>',
    '  <Principals>',
    '    <Principal id="Author">',
    `      <UserId>${xmlText(o.user)}</UserId>`,
    '      <LogonType>InteractiveToken</LogonType>',
    '      <RunLevel>LeastPrivilege</RunLevel>',
    '    </Principal>',
    '  </Principals>',
    '  <Settings>',
    '    <MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>',
    '    <DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>',
    '    <StopIfGoingOnBatteries>false</StopIfGoingOnBatteries>',
    '    <StartWhenAvailable>true</StartWhenAvailable>',
    // A watch started at login runs until the person logs off: no time limit for it.
    `    <ExecutionTimeLimit>${o.schedule.atLogin ? 'PT0S' : 'PT12H'}</ExecutionTimeLimit>`,
    `    <Enabled>${o.enabled === false ? 'false' : 'true'}</Enabled>`,
    '  </Settings>',
    '  <Actions Context="Author">',
    '    <Exec>',
    `      <Command>${xmlText(launch.program)}</Command>`,
    `      <Arguments>${xmlText(args)}</Arguments>`,
    `      <WorkingDirectory>${xmlText(launch.cwd)}</WorkingDirectory>`,
    '    </Exec>',
    '  </Actions>',
    '</Task>',
    '',
  ].join('\r\n');
}
