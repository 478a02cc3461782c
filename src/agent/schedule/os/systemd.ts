/**
 * The systemd user timer of a job (`zhi-<name>.timer` and its `.service`): OnCalendar= lines made
 * from the schedule, Persistent=true so a run missed while the computer was off runs at the next
 * start. Pure: os/install.ts writes the units and calls systemctl.
 */
import type { Schedule } from '../cron.js';
import type { Launch } from './launch.js';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const two = (n: number) => String(n).padStart(2, '0');

function list(values: number[], all: number, pad = true): string {
  if (values.length === all) return '*';
  return values.map((v) => (pad ? two(v) : String(v))).join(',');
}

/** The OnCalendar= values (two when cron's day-OR-weekday rule needs both). */
export function onCalendar(s: Schedule): string[] {
  const time = `${list(s.hour, 24)}:${list(s.minute, 60)}:00`;
  const month = list(s.month, 12);
  const days = s.anyDay ? '*' : list(s.day, 31);
  const weekdays = s.weekday.map((d) => DAYS[d]).join(',');
  if (!s.anyDay && !s.anyWeekday) return [`*-${month}-${days} ${time}`, `${weekdays} *-${month}-* ${time}`];
  const prefix = s.anyWeekday ? '' : `${weekdays} `;
  return [`${prefix}*-${month}-${days} ${time}`];
}

/** A word of ExecStart=: quoted with C escapes; `%` and `$` are systemd's own and doubled. */
export function unitWord(s: string): string {
  const escaped = s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%').replace(/\$/g, '$$$$');
  return `"${escaped}"`;
}

export function unitName(job: string): string {
  return `zhi-${job}`;
}

export function serviceUnit(name: string, l: Launch, outFile: string, atLogin = false): string {
  const env = Object.entries(l.env).map(([k, v]) => `Environment=${unitWord(`${k}=${v}`)}`);
  return [
    '[Unit]',
    `Description=zhi schedule ${name}`,
    '',
    '[Service]',
    'Type=oneshot',
    // A watch started at login runs until stopped: no start timeout for it.
    ...(atLogin ? ['TimeoutStartSec=infinity'] : []),
    `WorkingDirectory=${l.cwd.replace(/%/g, '%%')}`,
    ...env,
    `ExecStart=${[l.program, ...l.args].map(unitWord).join(' ')}`,
    `StandardOutput=truncate:${outFile.replace(/%/g, '%%')}`,
    'StandardError=inherit',
    '',
  ].join('\n');
}

export function timerUnit(name: string, s: Schedule): string {
  return [
    '[Unit]',
    `Description=zhi schedule ${name}`,
    '',
    '[Timer]',
    // At login: a user manager starts with the person's first session.
    ...(s.atLogin
      ? ['OnStartupSec=10']
      : [...onCalendar(s).map((c) => `OnCalendar=${c}`), 'Persistent=true']),
    '',
    '[Install]',
    'WantedBy=timers.target',
    '',
  ].join('\n');
}
