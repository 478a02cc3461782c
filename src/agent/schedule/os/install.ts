/**
 * The operating system's own scheduler, so a job runs after a reboot with no zhi process kept
 * alive: a systemd user timer where a user manager runs, else the crontab (Linux and other
 * Unixes); launchd on macOS; Task Scheduler on Windows. `ZHI_SCHEDULER` (systemd, cron, launchd,
 * schtasks) picks one by hand.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Schedule } from '../cron.js';
import { cronLine, entryOf, withEntry, withPaused } from './crontab.js';
import type { Launch } from './launch.js';
import { launchdLabel, launchdPlist } from './launchd.js';
import { serviceUnit, timerUnit, unitName } from './systemd.js';
import { taskXml } from './windows.js';

export type SchedulerKind = 'systemd' | 'cron' | 'launchd' | 'schtasks';

export interface OsScheduler {
  kind: SchedulerKind;
  /** A run missed while the computer was off runs at the next start (else it is reported as missed). */
  catchesUp: boolean;
  install(name: string, s: Schedule, l: Launch, outFile: string): Promise<void>;
  setPaused(name: string, paused: boolean): Promise<void>;
  remove(name: string): Promise<void>;
  /** The entry as the scheduler holds it (shown by `zhi schedule show`), or undefined if gone. */
  entry(name: string): Promise<string | undefined>;
}

function run(
  program: string,
  args: string[],
  input?: string,
): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString('utf8');
    });
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, out, err }));
    if (child.stdin) {
      // A program that exits without reading its input is answered by its exit code, not EPIPE.
      child.stdin.on('error', () => undefined);
      child.stdin.end(input);
    }
  });
}

async function must(program: string, args: string[], input?: string): Promise<string> {
  const r = await run(program, args, input);
  if (r.code !== 0) throw new Error(`${program} ${args.join(' ')}: ${(r.err || r.out).trim()}`);
  return r.out;
}

/** Whether this user has a running systemd manager (containers and WSL often have none). */
export function userSystemdRuns(): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('systemctl', ['--user', 'is-system-running'], { timeout: 3000 }, (_err, stdout) => {
      resolve(/^(running|degraded|starting)/.test(String(stdout).trim()));
    });
  });
}

const crontab: OsScheduler = {
  kind: 'cron',
  catchesUp: false,
  async install(name, s, l, outFile) {
    const table = await readCrontab();
    await must('crontab', ['-'], withEntry(table, name, cronLine(name, s, l, outFile)));
  },
  async setPaused(name, paused) {
    await must('crontab', ['-'], withPaused(await readCrontab(), name, paused));
  },
  async remove(name) {
    const table = await readCrontab();
    if (entryOf(table, name)) await must('crontab', ['-'], withEntry(table, name, undefined));
  },
  async entry(name) {
    return entryOf(await readCrontab(), name)?.line;
  },
};

async function readCrontab(): Promise<string> {
  const r = await run('crontab', ['-l']);
  // "no crontab for <user>": an empty table, not an error.
  if (r.code !== 0)
    return /no crontab/i.test(r.err) ? '' : Promise.reject(new Error(`crontab -l: ${r.err.trim()}`));
  return r.out;
}

function systemdDir(): string {
  return join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'systemd', 'user');
}

const systemd: OsScheduler = {
  kind: 'systemd',
  catchesUp: true,
  async install(name, s, l, outFile) {
    const dir = systemdDir();
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, `${unitName(name)}.service`),
      serviceUnit(name, l, outFile, Boolean(s.atLogin)),
    );
    await writeFile(join(dir, `${unitName(name)}.timer`), timerUnit(name, s));
    await must('systemctl', ['--user', 'daemon-reload']);
    await must('systemctl', ['--user', 'enable', '--now', `${unitName(name)}.timer`]);
  },
  async setPaused(name, paused) {
    await must('systemctl', ['--user', paused ? 'disable' : 'enable', '--now', `${unitName(name)}.timer`]);
  },
  async remove(name) {
    await run('systemctl', ['--user', 'disable', '--now', `${unitName(name)}.timer`]);
    for (const ext of ['timer', 'service'])
      await rm(join(systemdDir(), `${unitName(name)}.${ext}`), { force: true });
    await run('systemctl', ['--user', 'daemon-reload']);
  },
  async entry(name) {
    const r = await run('systemctl', ['--user', 'list-timers', '--all', `${unitName(name)}.timer`]);
    return r.code === 0 && r.out.includes(unitName(name)) ? r.out.trim() : undefined;
  },
};

function plistPath(name: string): string {
  return join(homedir(), 'Library', 'LaunchAgents', `${launchdLabel(name)}.plist`);
}

const launchd: OsScheduler = {
  kind: 'launchd',
  catchesUp: true,
  async install(name, s, l, outFile) {
    await mkdir(join(homedir(), 'Library', 'LaunchAgents'), { recursive: true });
    await writeFile(plistPath(name), launchdPlist(name, s, l, outFile));
    const domain = `gui/${process.getuid?.() ?? 0}`;
    await run('launchctl', ['bootout', domain, plistPath(name)]);
    await must('launchctl', ['bootstrap', domain, plistPath(name)]);
  },
  async setPaused(name, paused) {
    const target = `gui/${process.getuid?.() ?? 0}/${launchdLabel(name)}`;
    await must('launchctl', [paused ? 'disable' : 'enable', target]);
  },
  async remove(name) {
    await run('launchctl', ['bootout', `gui/${process.getuid?.() ?? 0}`, plistPath(name)]);
    await rm(plistPath(name), { force: true });
  },
  async entry(name) {
    const r = await run('launchctl', ['print', `gui/${process.getuid?.() ?? 0}/${launchdLabel(name)}`]);
    return r.code === 0 ? plistPath(name) : undefined;
  },
};

const schtasks: OsScheduler = {
  kind: 'schtasks',
  catchesUp: true,
  async install(name, s, l, outFile) {
    void outFile;
    const user = `${process.env.USERDOMAIN ?? ''}\\${process.env.USERNAME ?? ''}`;
    const firstDay = new Date().toISOString().slice(0, 10);
    const xml = taskXml({ name, schedule: s, launch: l, user, firstDay });
    const file = join(process.env.TEMP ?? homedir(), `zhi-${name}.xml`);
    // schtasks reads the definition as UTF-16 (its declaration says so): a BOM, then UTF-16LE.
    await writeFile(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]));
    try {
      await must('schtasks', ['/create', '/tn', `\\zhi\\${name}`, '/xml', file, '/f']);
    } finally {
      await rm(file, { force: true });
    }
  },
  async setPaused(name, paused) {
    await must('schtasks', ['/change', '/tn', `\\zhi\\${name}`, paused ? '/disable' : '/enable']);
  },
  async remove(name) {
    await run('schtasks', ['/delete', '/tn', `\\zhi\\${name}`, '/f']);
  },
  async entry(name) {
    const r = await run('schtasks', ['/query', '/tn', `\\zhi\\${name}`]);
    return r.code === 0 ? r.out.trim() : undefined;
  },
};

const BY_KIND: Record<SchedulerKind, OsScheduler> = { systemd, cron: crontab, launchd, schtasks };

/** The scheduler of this computer (or the one `ZHI_SCHEDULER` names). */
export async function osScheduler(env: NodeJS.ProcessEnv = process.env): Promise<OsScheduler> {
  const asked = env.ZHI_SCHEDULER as SchedulerKind | undefined;
  if (asked && asked in BY_KIND) return BY_KIND[asked];
  if (process.platform === 'win32') return schtasks;
  if (process.platform === 'darwin') return launchd;
  return (await userSystemdRuns()) ? systemd : crontab;
}
