import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { cronText, parseCron } from '../../src/agent/schedule/cron.js';
import { madeUpName } from '../../src/agent/schedule/job.js';
import { nextRuns } from '../../src/agent/schedule/next.js';
import { cronLine, entryOf, withEntry, withPaused } from '../../src/agent/schedule/os/crontab.js';
import { type Launch, launchOf, windowsWord } from '../../src/agent/schedule/os/launch.js';
import { calendarIntervals, launchdPlist } from '../../src/agent/schedule/os/launchd.js';
import { onCalendar, serviceUnit, timerUnit } from '../../src/agent/schedule/os/systemd.js';
import { taskXml } from '../../src/agent/schedule/os/windows.js';
import { parseWhen } from '../../src/agent/schedule/when.js';

const HARD = `/home/李 雷/my "docs"/it's 100%/$HOME`;

const launch = (over: Partial<Launch> = {}): Launch => ({
  program: '/opt/node 20/bin/node',
  args: ['/home/李 雷/zhi/dist/zhi.js', '--language', 'zh', 'schedule', 'run', 'digest'],
  cwd: HARD,
  env: { ZHI_HOME: '/home/李 雷/.zhi' },
  ...over,
});

interface Node {
  name: string;
  attrs: Record<string, string>;
  children: Node[];
  text: string;
}

/** A strict parse (saxes throws on anything not well-formed) into a small tree. */
function parseTree(xml: string): Node {
  const parser = new SaxesParser({ xmlns: false });
  const root: Node = { name: '#root', attrs: {}, children: [], text: '' };
  const stack = [root];
  parser.on('opentag', (tag) => {
    const node: Node = {
      name: tag.name,
      attrs: tag.attributes as Record<string, string>,
      children: [],
      text: '',
    };
    stack.at(-1)!.children.push(node);
    stack.push(node);
  });
  parser.on('text', (t) => {
    stack.at(-1)!.text += t;
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.write(xml.replace(/^<\?xml[^>]*\?>/, '')).close();
  return root.children[0]!;
}

const child = (n: Node, name: string) => n.children.find((c) => c.name === name);
const path = (n: Node, ...names: string[]) =>
  names.reduce<Node | undefined>((at, k) => at && child(at, k), n);

/** CommandLineToArgvW's reading of a command line (the rules windowsWord writes for). */
function argvOf(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < line.length) {
    while (line[i] === ' ') i++;
    if (i >= line.length) break;
    let word = '';
    let quoted = false;
    for (; i < line.length && (quoted || line[i] !== ' '); i++) {
      let slashes = 0;
      while (line[i] === '\\') {
        slashes++;
        i++;
      }
      if (line[i] === '"') {
        word += '\\'.repeat(Math.floor(slashes / 2));
        if (slashes % 2) word += '"';
        else quoted = !quoted;
      } else {
        word += '\\'.repeat(slashes);
        if (i < line.length) word += line[i];
        else break;
      }
    }
    out.push(word);
  }
  return out;
}

describe('the crontab line', () => {
  it('survives spaces, Chinese, quotes, % and $ when cron and sh read it back', () => {
    const dir = mkdtempSync(join(tmpdir(), `zhi 定时 "q" it's 100%-`));
    try {
      const args = ['%s|', HARD, '中文 参数', 'x'];
      const l = launch({ program: '/usr/bin/printf', args, cwd: dir, env: { ZHI_HOME: HARD } });
      const out = join(dir, 'out 输出.log');
      const line = cronLine('digest', parseWhen('weekdays 18:30'), l, out);
      expect(line.startsWith('30 18 * * 1,2,3,4,5 cd ')).toBe(true);
      expect(line.endsWith(' # zhi-schedule:digest')).toBe(true);
      // What cron hands to sh: the line after the five fields, `\%` read as `%`.
      const command = line.slice('30 18 * * 1,2,3,4,5 '.length).replace(/\\%/g, '%');
      execFileSync('/bin/sh', ['-c', command]);
      expect(readFileSync(out, 'utf8')).toBe(`${HARD}|中文 参数|x|`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('adds, pauses, resumes and removes only its own line', () => {
    const mine = cronLine('digest', parseWhen('every day 9:00'), launch(), '/tmp/o');
    const theirs = '0 1 * * * /usr/bin/backup # mine';
    let table = withEntry(`${theirs}\n`, 'digest', mine);
    expect(table).toBe(`${theirs}\n${mine}\n`);
    table = withEntry(table, 'digest', mine);
    expect(table.split('\n').filter(Boolean)).toHaveLength(2);
    table = withPaused(table, 'digest', true);
    expect(entryOf(table, 'digest')?.paused).toBe(true);
    expect(table).toContain(theirs);
    table = withPaused(table, 'digest', false);
    expect(entryOf(table, 'digest')).toEqual({ line: mine, paused: false });
    expect(withEntry(table, 'digest', undefined)).toBe(`${theirs}\n`);
    expect(entryOf(table, 'digest-2')).toBeUndefined();
  });
});

describe('the systemd user timer', () => {
  const TABLE: [string, string[]][] = [
    ['every day 9:00', ['*-*-* 09:00:00']],
    ['weekdays 18:30', ['Mon,Tue,Wed,Thu,Fri *-*-* 18:30:00']],
    ['every mon,wed 8:00', ['Mon,Wed *-*-* 08:00:00']],
    ['every 2 hours', ['*-*-* 00,02,04,06,08,10,12,14,16,18,20,22:00:00']],
    ['every 15 minutes', ['*-*-* *:00,15,30,45:00']],
    ['0 12 13 * 5', ['*-*-13 12:00:00', 'Fri *-*-* 12:00:00']],
  ];
  it.each(TABLE)('%s → OnCalendar=%j', (when, expected) => {
    const calendars = onCalendar(parseWhen(when));
    expect(calendars).toEqual(expected);
    for (const c of calendars) {
      // systemd's own reading, where it is installed: it must accept every expression.
      try {
        execFileSync('systemd-analyze', ['calendar', c], { stdio: 'pipe' });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
  });

  it('is Persistent (a run missed while off runs at the next start) and quotes ExecStart', () => {
    expect(timerUnit('digest', parseWhen('every day 9:00'))).toContain('\nPersistent=true\n');
    const unit = serviceUnit('digest', launch(), '/tmp/out');
    expect(unit).toContain(
      'ExecStart="/opt/node 20/bin/node" "/home/李 雷/zhi/dist/zhi.js" "--language" "zh"',
    );
    expect(unit).toContain(`WorkingDirectory=/home/李 雷/my "docs"/it's 100%%/$HOME`);
    expect(unit).toContain('Environment="ZHI_HOME=/home/李 雷/.zhi"');
  });
});

describe('the systemd units as systemd reads them', () => {
  it('pass `systemd-analyze verify` where it is installed (paths with spaces and Chinese)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zhi-units-'));
    try {
      const l = launch({ program: process.execPath, cwd: dir });
      writeFileSync(join(dir, 'zhi-x.service'), serviceUnit('x', l, join(dir, '输出 1.log')));
      writeFileSync(join(dir, 'zhi-x.timer'), timerUnit('x', parseWhen('每周一、三 8:00')));
      try {
        execFileSync('systemd-analyze', ['verify', join(dir, 'zhi-x.service'), join(dir, 'zhi-x.timer')], {
          stdio: 'pipe',
        });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
          throw new Error(String((err as { stderr?: Buffer }).stderr));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the Windows Task Scheduler definition', () => {
  const win = launch({
    program: 'C:\\Program Files\\nodejs\\node.exe',
    args: [
      'C:\\Users\\李 雷\\AppData\\Roaming\\npm\\node_modules\\zhi\\dist\\zhi.js',
      '--language',
      'zh',
      'schedule',
      'run',
      'a&b',
    ],
    cwd: 'C:\\Users\\李 雷\\文档 & "报告"\\',
    env: {},
  });

  it('is well-formed, has the schema’s required parts, runs as the person with no stored password', () => {
    const xml = taskXml({
      name: 'a&b',
      schedule: parseWhen('weekdays 18:30'),
      launch: win,
      user: 'PC\\李雷',
      firstDay: '2026-11-29',
    });
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-16"?>')).toBe(true);
    const task = parseTree(xml);
    expect(task.name).toBe('Task');
    expect(task.attrs.xmlns).toBe('http://schemas.microsoft.com/windows/2004/02/mit/task');
    for (const part of ['RegistrationInfo', 'Triggers', 'Principals', 'Settings', 'Actions'])
      expect(child(task, part), part).toBeDefined();
    const principal = path(task, 'Principals', 'Principal')!;
    expect(child(principal, 'LogonType')?.text).toBe('InteractiveToken');
    expect(child(principal, 'UserId')?.text).toBe('PC\\李雷');
    expect(xml).not.toMatch(/Password|S4U|HighestAvailable/);
    expect(path(task, 'Settings', 'StartWhenAvailable')?.text).toBe('true');
    expect(path(task, 'Settings', 'MultipleInstancesPolicy')?.text).toBe('IgnoreNew');
    const exec = path(task, 'Actions', 'Exec')!;
    expect(child(exec, 'Command')?.text).toBe(win.program);
    expect(child(exec, 'WorkingDirectory')?.text).toBe(win.cwd);
    expect(argvOf(child(exec, 'Arguments')!.text)).toEqual(win.args);
    const trigger = path(task, 'Triggers', 'CalendarTrigger')!;
    expect(child(trigger, 'StartBoundary')?.text).toBe('2026-11-29T18:30:00');
    expect(path(trigger, 'ScheduleByWeek', 'DaysOfWeek')!.children.map((c) => c.name)).toEqual([
      'Monday',
      'Tuesday',
      'Wednesday',
      'Thursday',
      'Friday',
    ]);
  });

  it.each([
    ['every 2 hours', 1, 'PT2H'],
    ['every 15 minutes', 1, 'PT15M'],
    ['every day 9:00 and 17:00', 2, undefined],
    ['30 8 1 * *', 1, undefined],
  ])('%s: %i trigger(s), repeating %s', (when, count, interval) => {
    const xml = taskXml({
      name: 'x',
      schedule: parseWhen(when),
      launch: win,
      user: 'PC\\u',
      firstDay: '2026-11-29',
    });
    const triggers = child(parseTree(xml), 'Triggers')!.children;
    expect(triggers).toHaveLength(count);
    expect(path(triggers[0]!, 'Repetition', 'Interval')?.text).toBe(interval);
  });

  it('quotes words as Windows reads them back', () => {
    for (const w of ['plain', 'with space', 'C:\\dir with space\\', 'say "hi"', 'a\\\\"b', '中文 路径', ''])
      expect(argvOf(windowsWord(w)), w).toEqual([w]);
  });
});

/** The plist's values as JavaScript (dict, array, string, integer): what plutil would read. */
function plistValue(n: Node): unknown {
  if (n.name === 'string') return n.text;
  if (n.name === 'integer') return Number(n.text);
  if (n.name === 'true' || n.name === 'false') return n.name === 'true';
  if (n.name === 'array') return n.children.map(plistValue);
  if (n.name === 'dict') {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < n.children.length; i += 2) out[n.children[i]!.text] = plistValue(n.children[i + 1]!);
    return out;
  }
  throw new Error(`unexpected ${n.name}`);
}

describe('the macOS launchd agent', () => {
  it('parses back to the program, folder and StartCalendarInterval of the schedule', () => {
    const l = launch();
    const plist = parseTree(launchdPlist('digest', parseWhen('every mon,wed 8:00'), l, '/tmp/out'));
    expect(plist.name).toBe('plist');
    const value = plistValue(plist.children[0]!) as Record<string, unknown>;
    expect(value.Label).toBe('dev.zhi.schedule.digest');
    expect(value.ProgramArguments).toEqual([l.program, ...l.args]);
    expect(value.WorkingDirectory).toBe(HARD);
    expect(value.EnvironmentVariables).toEqual(l.env);
    expect(value.StartCalendarInterval).toEqual([
      { Minute: 0, Hour: 8, Weekday: 1 },
      { Minute: 0, Hour: 8, Weekday: 3 },
    ]);
  });

  it('says every 2 hours as twelve starts, and leaves out what is unrestricted', () => {
    expect(calendarIntervals(parseWhen('every 2 hours'))).toHaveLength(12);
    expect(calendarIntervals(parseWhen('hourly'))).toEqual([{ Minute: 0 }]);
    expect(calendarIntervals(parseCron('0 12 13 * 5')!)).toEqual([
      { Minute: 0, Hour: 12, Day: 13 },
      { Minute: 0, Hour: 12, Weekday: 5 },
    ]);
  });
});

describe('what is started', () => {
  it('is node and zhi.js, or the executable alone, with the folders and never the key', () => {
    const job = { name: 'digest', cwd: '/w', language: 'zh' as const };
    const env = { ZHI_HOME: '/h', ZHI_API_KEY: 'secret', PATH: '/bin' };
    expect(launchOf(job, { kind: 'npm', execPath: '/n', entry: '/z.js', env })).toEqual({
      program: '/n',
      args: ['/z.js', '--language', 'zh', 'schedule', 'run', 'digest'],
      cwd: '/w',
      env: { ZHI_HOME: '/h' },
    });
    expect(launchOf(job, { kind: 'exe', execPath: 'C:\\zhi.exe', entry: '', env: {} }).args[0]).toBe(
      '--language',
    );
  });

  it('makes readable names that do not collide', () => {
    const taken = new Set(['summarize-weekdays-1830']);
    expect(madeUpName('summarize', parseWhen('weekdays 18:30'), taken)).toBe('summarize-weekdays-1830-2');
    expect(madeUpName('digest', parseWhen('每 2 小时'), new Set())).toBe('digest-every-2h');
    expect(madeUpName('digest', parseWhen('每周一、三 8:00'), new Set())).toBe('digest-mon-wed-0800');
    expect(madeUpName('digest', parseWhen('30 8 1 * *'), new Set())).toBe('digest-cron');
  });
});

describe('at login (a watch kept running)', () => {
  it.each([
    'at-login',
    'at login',
    'on login',
    '登录时',
    '每次登录',
    '开机时',
  ])('“%s” is each login', (when) => {
    const s = parseWhen(when);
    expect(s.atLogin).toBe(true);
    expect(nextRuns(s, { from: new Date(), timeZone: 'UTC' })).toEqual([]);
    expect(parseCron(cronText(s))).toEqual(s);
  });

  it('is a LogonTrigger with no time limit on Windows, RunAtLoad on macOS, a startup timer, @reboot', () => {
    const s = parseWhen('at-login');
    const xml = taskXml({
      name: 'w',
      schedule: s,
      launch: launch(),
      user: 'PC\\李雷',
      firstDay: '2026-11-30',
    });
    const task = parseTree(xml);
    const triggers = task.children.find((c) => c.name === 'Triggers')!;
    expect(triggers.children.map((c) => c.name)).toEqual(['LogonTrigger']);
    expect(triggers.children[0]!.children.find((c) => c.name === 'UserId')?.text).toBe('PC\\李雷');
    expect(xml).toContain('<ExecutionTimeLimit>PT0S</ExecutionTimeLimit>');
    const plist = plistValue(parseTree(launchdPlist('w', s, launch(), '/tmp/out')).children[0]!) as Record<
      string,
      unknown
    >;
    expect(plist.RunAtLoad).toBe(true);
    expect(plist.StartCalendarInterval).toBeUndefined();
    const timer = timerUnit('w', s);
    expect(timer).toContain('\nOnStartupSec=10\n');
    expect(timer).not.toContain('OnCalendar');
    expect(serviceUnit('w', launch(), '/tmp/out', true)).toContain('\nTimeoutStartSec=infinity\n');
    expect(cronLine('w', s, launch(), '/tmp/out')).toMatch(/^@reboot cd /);
    expect(madeUpName('inbox', s, new Set())).toBe('inbox-login');
  });
});
