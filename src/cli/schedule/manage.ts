/** `zhi schedule list | show | logs | pause | resume | remove | confirm`. */
import { type Job, listJobs, removeJob, saveJob, scheduleOf } from '../../agent/schedule/job.js';
import { osScheduler } from '../../agent/schedule/os/install.js';
import { listRuns, type RunRecord, removeRuns } from '../../agent/schedule/runs.js';
import { describe } from '../../agent/schedule/words.js';
import { contentHash } from '../../skills/trust.js';
import { ExitCode, type ExitCodeValue, ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import type { AppContext } from '../context.js';
import { dataAsJson } from '../render/formats/index.js';
import { loadCatalog } from '../skills/catalog.js';
import { confirmAndSave, refuseUnattended } from './add.js';
import { jobSummary, nextThree } from './show.js';

const out = (line: string) => process.stdout.write(`${line}\n`);

export async function list(ctx: AppContext): Promise<ExitCodeValue> {
  const jobs = await listJobs(ctx.paths.dataDir);
  if (dataAsJson(ctx.args.flags.outputFormat)) {
    out(JSON.stringify({ data: jobs }));
    return ExitCode.ok;
  }
  if (!jobs.length) {
    process.stderr.write(`${t('schedule.list.none')}\n`);
    return ExitCode.ok;
  }
  for (const job of jobs) {
    const s = scheduleOf(job);
    const last = (await listRuns(ctx.paths.dataDir, job.name)).at(-1);
    const state = job.paused ? t('schedule.list.paused') : (nextThree(job, s).split(/ · |；/)[0] ?? '');
    out(
      t('schedule.list.row', {
        name: job.name,
        words: describe(s),
        skill: job.skill,
        state,
        last: last ? statusText(last) : t('schedule.list.never'),
      }),
    );
  }
  return ExitCode.ok;
}

function statusText(r: RunRecord): string {
  return `${r.startedAt.slice(0, 16).replace('T', ' ')} ${t(`schedule.status.${r.status}`)}`;
}

export async function show(ctx: AppContext, job: Job): Promise<ExitCodeValue> {
  if (dataAsJson(ctx.args.flags.outputFormat)) {
    out(JSON.stringify(job));
    return ExitCode.ok;
  }
  out(jobSummary(ctx, job, scheduleOf(job)));
  if (job.paused) out(t('schedule.list.paused'));
  const os = await osScheduler(ctx.env);
  const entry = await os.entry(job.name).catch(() => undefined);
  out(
    entry
      ? t('schedule.show.entry', { scheduler: os.kind, entry: visible(entry) })
      : t('schedule.show.noEntry', { scheduler: os.kind }),
  );
  return ExitCode.ok;
}

export async function logs(ctx: AppContext, job: Job): Promise<ExitCodeValue> {
  const runs = await listRuns(ctx.paths.dataDir, job.name);
  if (dataAsJson(ctx.args.flags.outputFormat)) {
    out(JSON.stringify({ data: runs.map(({ file: _f, ...r }) => r) }));
    return ExitCode.ok;
  }
  if (!runs.length) {
    process.stderr.write(`${t('schedule.logs.none', { name: job.name })}\n`);
    return ExitCode.ok;
  }
  for (const r of runs) {
    out(
      t('schedule.logs.row', {
        start: r.startedAt,
        end: r.endedAt,
        status: t(`schedule.status.${r.status}`),
        code: r.exitCode,
      }),
    );
    if (r.files) out(t('schedule.logs.files', { done: r.files.done, failed: r.files.failed.length }));
    for (const f of r.files?.failed ?? [])
      out(t('schedule.logs.failed', { file: visible(f.file), reason: visible(f.reason) }));
    for (const x of r.refused ?? [])
      out(t('schedule.logs.refused', { tool: x.tool, reason: visible(x.reason) }));
    if (r.cost) out(t('schedule.logs.cost', { amount: r.cost.amount.toFixed(4), currency: r.cost.currency }));
    if (r.reason) out(t('schedule.logs.reason', { reason: visible(r.reason) }));
    out(t('schedule.logs.output', { dir: visible(r.outputDir) }));
  }
  return ExitCode.ok;
}

export async function pause(ctx: AppContext, job: Job, paused: boolean): Promise<ExitCodeValue> {
  const os = await osScheduler(ctx.env);
  if (job.installed) await os.setPaused(job.name, paused);
  await saveJob(ctx.paths.dataDir, { ...job, paused });
  process.stderr.write(`${t(paused ? 'schedule.paused' : 'schedule.resumed', { name: job.name })}\n`);
  return ExitCode.ok;
}

export async function remove(ctx: AppContext, job: Job): Promise<ExitCodeValue> {
  const os = await osScheduler(ctx.env);
  await os.remove(job.name);
  await removeJob(ctx.paths.dataDir, job.name);
  await removeRuns(ctx.paths.dataDir, job.name);
  process.stderr.write(`${t('schedule.removed', { name: job.name, scheduler: os.kind })}\n`);
  return ExitCode.ok;
}

/** A changed skill file, seen and accepted again: its new fingerprint is fixed for the runs. */
export async function confirm(ctx: AppContext, job: Job): Promise<ExitCodeValue> {
  const catalog = await loadCatalog(ctx, () => undefined);
  const skill = catalog.skills.get(job.skill);
  if (!skill) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'schedule.err.skillGone', params: { skill: job.skill } },
      tries: [{ key: 'schedule.try.remove', params: { name: job.name } }],
    });
  }
  const hash = await contentHash(skill);
  if (hash === job.skillHash) {
    process.stderr.write(`${t('schedule.confirm.same', { skill: job.skill })}\n`);
    return ExitCode.ok;
  }
  process.stderr.write(`${t('schedule.confirm.changed', { skill: job.skill, file: visible(skill.file) })}\n`);
  // Trust is tied to the file's contents too: an edited skill that needs it is trusted again first.
  await refuseUnattended(ctx, skill, catalog, job.auto);
  return confirmAndSave(ctx, { ...job, skillHash: hash, skillFile: skill.file }, scheduleOf(job), undefined);
}
