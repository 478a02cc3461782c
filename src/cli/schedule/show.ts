/** How a job is shown (before saving, `show`, `list`) and handed to the OS scheduler. */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Schedule } from '../../agent/schedule/cron.js';
import { type Job, saveJob, schedulesDir } from '../../agent/schedule/job.js';
import { nextRuns } from '../../agent/schedule/next.js';
import { osScheduler } from '../../agent/schedule/os/install.js';
import { type Launch, launchOf, shellWord } from '../../agent/schedule/os/launch.js';
import { describe, runTime } from '../../agent/schedule/words.js';
import { quoted, ZhiError } from '../../support/errors.js';
import { getLanguage, t } from '../../support/i18n/index.js';
import { installKind } from '../../support/install.js';
import { visible } from '../../support/sanitize.js';
import type { AppContext } from '../context.js';

/** The `zhi run …` a job's runs are, as the person would type it. */
export function runWords(job: Job): string {
  const options = Object.entries(job.options).map(([k, v]) =>
    v === true ? `--${k}` : `--${k} ${shellWord(v)}`,
  );
  const flags = [...(job.auto ? ['--auto'] : []), ...(job.model ? ['--model', job.model] : [])];
  const [first = '', ...rest] = job.inputs.map(shellWord);
  const head =
    job.command === 'watch'
      ? ['zhi watch', first, shellWord(job.skill), ...rest]
      : ['zhi run', shellWord(job.skill), first, ...rest].filter(Boolean);
  return [...head, ...options, ...flags].join(' ');
}

export function nextThree(job: Job, s: Schedule, now = new Date()): string {
  if (s.atLogin) return t('schedule.words.nextLogin');
  const sep = getLanguage() === 'zh' ? '；' : ' · ';
  return nextRuns(s, { from: now, timeZone: job.timeZone, count: 3 })
    .map((d) => runTime(d, job.timeZone))
    .join(sep);
}

/** Everything fixed for the job's runs, one labelled line each. */
export function jobSummary(ctx: AppContext, job: Job, s: Schedule): string {
  const cost =
    job.maxCost === undefined
      ? t('schedule.show.noBudget')
      : t('schedule.show.budget', { amount: job.maxCost, currency: ctx.platform.currency });
  const lines = [
    t('schedule.show.name', { name: job.name }),
    t('schedule.show.when', { when: visible(job.when), words: describe(s), zone: job.timeZone }),
    t('schedule.show.next', { times: nextThree(job, s) }),
    t('schedule.show.skill', { skill: job.skill, hash: job.skillHash.slice(0, 12), model: job.model }),
    t('schedule.show.run', { command: visible(runWords(job)), cwd: visible(job.cwd) }),
    job.auto
      ? t('schedule.show.writes', { dir: visible(job.outputDir) })
      : t('schedule.show.noWrites', { dir: visible(job.outputDir) }),
    cost,
    ...(job.batch ? [t('schedule.show.batch')] : []),
    t('schedule.show.nobody'),
  ];
  return lines.join('\n');
}

export function launchFor(job: Job, env: NodeJS.ProcessEnv): Launch {
  const kind = installKind();
  let entry = process.argv[1] ?? '';
  try {
    entry = realpathSync(entry);
  } catch {
    // as started
  }
  return launchOf(job, { kind, execPath: process.execPath, entry, env });
}

export function outFileOf(ctx: AppContext, name: string): string {
  return join(schedulesDir(ctx.paths.dataDir), `${name}.out`);
}

/** Give the job to the OS scheduler and say which one, and what happens to a missed run. */
export async function installJob(ctx: AppContext, job: Job, s: Schedule): Promise<void> {
  const os = await osScheduler(ctx.env);
  try {
    await os.install(job.name, s, launchFor(job, ctx.env), outFileOf(ctx, job.name));
  } catch (err) {
    throw new ZhiError({
      kind: 'io',
      what: { key: 'schedule.err.install', params: { name: job.name, scheduler: os.kind } },
      why: quoted((err as Error).message, 'cli.by.system'),
      tries: [{ key: 'schedule.try.runNow', params: { name: job.name } }],
      cause: err,
    });
  }
  await saveJob(ctx.paths.dataDir, { ...job, installed: { kind: os.kind, id: job.name } });
  process.stderr.write(`${t(`schedule.os.${os.kind}`, { name: job.name })}\n`);
  if (s.atLogin) {
    // cron knows no login: @reboot starts it with the computer.
    if (os.kind === 'cron') process.stderr.write(`${t('schedule.os.cronAtBoot', { name: job.name })}\n`);
    return;
  }
  process.stderr.write(`${t(os.catchesUp ? 'schedule.os.catchesUp' : 'schedule.os.missedReported')}\n`);
}
