/**
 * A scheduled job: everything its runs may do, fixed when it was scheduled. One JSON file per
 * job in zhi's data folder (`schedules/<name>.json`), written atomically; its run records beside
 * it (runs.ts).
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../support/atomic.js';
import { makeFolder } from '../../support/make-folder.js';
import { schedulesDir } from '../../support/paths.js';
import { parseCron, type Schedule } from './cron.js';

export interface Job {
  version: 1;
  name: string;
  /** The phrase as the person typed it, and the schedule it became (as a cron line). */
  when: string;
  cron: string;
  timeZone: string;
  skill: string;
  /** `watch`: the job is `zhi watch <inputs[0]> <skill>`, started at login and kept running. */
  command?: 'run' | 'watch';
  /** The skill's file and the hash of its contents when scheduled: a changed skill stops the run. */
  skillFile: string;
  skillHash: string;
  model: string;
  /** The folder the run starts in (relative inputs are read from it). */
  cwd: string;
  /** The positional inputs and the `--name value` options of the run, as typed. */
  inputs: string[];
  options: Record<string, string | true>;
  outputDir: string;
  /** The `--auto` of the run: it may write without asking. */
  auto: boolean;
  batch: boolean;
  /** The most one run may cost (max_cost_per_run for that run); undefined: the config's. */
  maxCost?: number | undefined;
  language: 'en' | 'zh';
  paused: boolean;
  createdAt: string;
  /** Where the operating system's scheduler holds it (os.ts). */
  installed?: { kind: string; id: string } | undefined;
  /** When a missed run was last reported (notice.ts), so each is said once. */
  missedToldAt?: string | undefined;
}

export const NAME_RULE = /^[a-z0-9][a-z0-9._-]{0,47}$/i;

function jobFile(dataDir: string, name: string): string {
  return join(schedulesDir(dataDir), `${name}.json`);
}

export function scheduleOf(job: Pick<Job, 'cron'>): Schedule {
  const s = parseCron(job.cron);
  if (!s) throw new Error(`bad cron line in job: ${job.cron}`);
  return s;
}

export async function readJob(dataDir: string, name: string): Promise<Job | undefined> {
  if (!NAME_RULE.test(name)) return undefined;
  try {
    const job = JSON.parse(await readFile(jobFile(dataDir, name), 'utf8')) as Job;
    return job && job.version === 1 && job.name === name ? job : undefined;
  } catch {
    return undefined;
  }
}

export async function saveJob(dataDir: string, job: Job): Promise<void> {
  await makeFolder(schedulesDir(dataDir));
  await writeFileAtomic(jobFile(dataDir, job.name), `${JSON.stringify(job, null, 2)}\n`, 0o600);
}

export async function removeJob(dataDir: string, name: string): Promise<void> {
  await rm(jobFile(dataDir, name), { force: true });
}

export async function listJobs(dataDir: string): Promise<Job[]> {
  const names = await readdir(schedulesDir(dataDir)).catch(() => [] as string[]);
  const jobs: Job[] = [];
  for (const f of names.sort()) {
    if (!f.endsWith('.json')) continue;
    const job = await readJob(dataDir, f.slice(0, -5));
    if (job) jobs.push(job);
  }
  return jobs.sort((a, b) => a.name.localeCompare(b.name));
}

const two = (n: number) => String(n).padStart(2, '0');
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** A readable name from the skill and the schedule: `summarize-weekdays-1830`, `digest-every-2h`. */
export function madeUpName(skill: string, s: Schedule, taken: Set<string>): string {
  let when = s.atLogin ? 'login' : 'cron';
  const hourly = s.hour.length === 24;
  if (s.anyDay && s.month.length === 12 && s.minute.length === 1) {
    const at = s.hour.length === 1 ? `${two(s.hour[0]!)}${two(s.minute[0]!)}` : '';
    const step = s.hour.length > 1 ? 24 / s.hour.length : 0;
    const days = s.anyWeekday
      ? 'daily'
      : s.weekday.join() === '1,2,3,4,5'
        ? 'weekdays'
        : s.weekday.map((d) => DAYS[d]).join('-');
    if (hourly && s.anyWeekday) when = 'hourly';
    else if (!at && step && s.anyWeekday) when = `every-${step}h`;
    else if (at) when = `${days}-${at}`;
  }
  const base = `${
    skill
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^-+/, '') || 'job'
  }-${when}`.slice(0, 40);
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}-${i}`;
  return name;
}

export { schedulesDir };
