import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { findJob, type JobPlace } from '../../agent/batch-api/job-index.js';
import { type ManifestData, readManifest } from '../../agent/folder/manifest.js';
import { BatchApi, type BatchJob, batchStatusText, jobCounts } from '../../llm/batch.js';
import { ExitCode, type ExitCodeValue, ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import { makeClient } from '../client.js';
import type { AppContext } from '../context.js';
import { dataAsJson } from '../render/formats/index.js';

const ACTIONS = ['list', 'status', 'results', 'cancel'];

/**
 * `zhi batch list | status <id> | results <id> | cancel <id>`: the Batch API jobs of this key.
 * `results` finishes the folder run that submitted the job (found by its manifest in the output
 * folder), exactly as running the same `zhi run … --batch` again would.
 */
export async function run(ctx: AppContext): Promise<ExitCodeValue> {
  const [action, id, ...more] = ctx.args.positionals;
  if (action && ACTIONS.includes(action) && action !== 'list' && !id) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'batch.cmd.needId', params: { action } },
      why: { key: 'batch.cmd.usage' },
      tries: [{ key: 'batch.cmd.tryList' }],
    });
  }
  if (!action || !ACTIONS.includes(action) || more.length) {
    throw new ZhiError({ kind: 'usage', what: { key: 'batch.cmd.usage' } });
  }
  const client = makeClient(ctx);
  const api = new BatchApi(client.http, ctx.platform);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const json = dataAsJson(ctx.args.flags.outputFormat);
  if (action === 'list') {
    const jobs = await api.list();
    if (json) out(JSON.stringify({ data: jobs }));
    else if (!jobs.length) process.stderr.write(`${t('batch.cmd.none')}\n`);
    else for (const job of jobs) out(jobLine(job));
    return ExitCode.ok;
  }
  if (action === 'cancel') {
    const job = await api.cancel(id!);
    if (json) out(JSON.stringify(job));
    else out(jobLine(job));
    return ExitCode.ok;
  }
  const place = await findJob(id!);
  const found = await findRun(ctx, id!, place);
  if (action === 'status') {
    const job = await api.get(id!);
    if (json)
      out(JSON.stringify({ ...job, run: found ? { skill: found.skill, folder: found.folder } : null }));
    else {
      out(jobLine(job));
      if (found) out(t('batch.cmd.run', { skill: found.skill, folder: visible(found.folder), id: id! }));
      else out(ctx.err.dim(t('batch.cmd.noRun')));
    }
    return ExitCode.ok;
  }
  // results: finish the run that submitted the job, as `zhi run <skill> <folder> --batch` would.
  if (!found) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'batch.cmd.noRunFor', params: { id: id! } },
      tries: [{ key: 'batch.cmd.tryFolder' }],
    });
  }
  const { run: runSkillCommand } = await import('./run.js');
  return runSkillCommand({ ...ctx, ...where(ctx, place), args: runArgs(ctx, found) });
}

/**
 * Where and how `batch results` finishes the run: in the folder it was started in, writing to
 * the same output folder, in the same permission mode (`--auto` now also lets it write).
 */
function where(ctx: AppContext, place: JobPlace | undefined): Partial<AppContext> {
  if (!place) return {};
  const config = { ...ctx.config, outputDir: place.outputDir };
  config.sources = { ...ctx.config.sources, output_dir: '--output-dir' };
  return {
    cwd: place.cwd,
    outputDir: place.outputDir,
    mode: ctx.mode === 'auto' ? 'auto' : place.mode,
    config,
  };
}

function runArgs(ctx: AppContext, found: ManifestData): AppContext['args'] {
  // As many at once as the run that submitted it, unless --jobs is given now.
  const extra: Record<string, string | true> = { batch: true };
  const jobs = ctx.args.extra.jobs ?? found.batch?.jobs;
  if (jobs !== undefined) extra.jobs = String(jobs);
  return { ...ctx.args, subcommand: 'run', positionals: [found.skill, found.folder], extra };
}

/** `batch_abc  completed  40/40 answered · 0 failed  summarize  2026-03-14 10:02` */
function jobLine(job: BatchJob): string {
  const c = jobCounts(job);
  const when = job.created_at
    ? new Date(job.created_at * 1000).toISOString().slice(0, 16).replace('T', ' ')
    : '';
  const skill = job.metadata?.zhi_skill ?? '';
  return [
    visible(job.id),
    visible(batchStatusText(job.status)),
    t('batch.cmd.counts', { completed: c.completed, total: c.total, failed: c.failed }),
    visible(skill),
    when,
  ]
    .filter(Boolean)
    .join('  ');
}

/**
 * The run record of the run that submitted job `id`: where the job index says, else one under
 * this output folder that has it (still waiting, or used up already).
 */
async function findRun(ctx: AppContext, id: string, place?: JobPlace): Promise<ManifestData | undefined> {
  const has = (m: ManifestData | undefined) =>
    m?.batch?.id === id || Boolean(m?.batch?.more?.some((j) => j.id === id) || m?.usedJobs?.includes(id));
  if (place) {
    const m = await readManifest(place.manifest);
    if (has(m)) return m;
  }
  const dir = join(ctx.outputDir, '.zhi-runs');
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const m = await readManifest(join(dir, name));
    if (has(m)) return m;
  }
  return undefined;
}
