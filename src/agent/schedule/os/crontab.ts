/**
 * The crontab entry of a job (Linux without a user systemd, or where systemd is not running):
 * one line ending in a marker comment that names the job, so zhi finds, pauses and removes only
 * its own lines. Pure: reading and writing the table is os/install.ts's.
 */
import { cronText, type Schedule } from '../cron.js';
import { type Launch, shellWord } from './launch.js';

const MARK = '# zhi-schedule:';
const PAUSED = '#zhi-paused# ';

/** cron treats `%` as a newline in the command: escaped, it is passed on as `%`. */
const cronSafe = (s: string) => s.replace(/%/g, '\\%');

export function cronLine(name: string, s: Schedule, l: Launch, outFile: string): string {
  const env = Object.entries(l.env).map(([k, v]) => `${k}=${shellWord(v)}`);
  const command = [
    `cd ${shellWord(l.cwd)} &&`,
    ...env,
    shellWord(l.program),
    ...l.args.map(shellWord),
    `>${shellWord(outFile)} 2>&1`,
  ].join(' ');
  // cron has no "at login": @reboot (the computer starting) is the nearest it knows.
  return `${s.atLogin ? '@reboot' : cronText(s)} ${cronSafe(command)} ${MARK}${name}`;
}

function isOurs(line: string, name: string): boolean {
  return line.endsWith(`${MARK}${name}`);
}

/** The table without the job's line, then with `line` (if given) at the end. */
export function withEntry(table: string, name: string, line: string | undefined): string {
  const kept = table.split('\n').filter((l) => l !== '' && !isOurs(l, name));
  if (line) kept.push(line);
  return kept.length ? `${kept.join('\n')}\n` : '';
}

/** The table with the job's line commented out (paused) or restored. */
export function withPaused(table: string, name: string, paused: boolean): string {
  return table
    .split('\n')
    .map((l) => {
      if (!isOurs(l, name)) return l;
      const bare = l.startsWith(PAUSED) ? l.slice(PAUSED.length) : l;
      return paused ? `${PAUSED}${bare}` : bare;
    })
    .join('\n');
}

export function entryOf(table: string, name: string): { line: string; paused: boolean } | undefined {
  const line = table.split('\n').find((l) => isOurs(l, name));
  return line ? { line, paused: line.startsWith(PAUSED) } : undefined;
}
