/**
 * `zhi schedule run <name>`: the job's run now, in the foreground, exactly as the scheduler starts
 * it — nobody is asked (what would ask is refused and reported), the options fixed when it was
 * scheduled, never two at once (a second is skipped and recorded), a changed skill file stops it
 * until `zhi schedule confirm`, and every run leaves a record.
 */
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { RunEvent } from '../../agent/events.js';
import { manifestPath } from '../../agent/folder/manifest.js';
import { RunLock } from '../../agent/folder/run-lock.js';
import { type Job, schedulesDir } from '../../agent/schedule/job.js';
import { notifyDesktop } from '../../agent/schedule/os/notify.js';
import { costSince, filesSince, type RunRecord, type RunStatus, saveRun } from '../../agent/schedule/runs.js';
import { contentHash } from '../../skills/trust.js';
import { ExitCode, type ExitCodeValue, toZhiError, ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import type { ParsedArgs } from '../args.js';
import { type AppContext, buildContext } from '../context.js';
import { loadCatalog } from '../skills/catalog.js';

/**
 * How long a scheduled run waits for a Batch API job before leaving it to the next run (jobs take
 * minutes to a day; the scheduler's next start, or `zhi schedule run`, collects the results).
 */
const BATCH_WAIT_MS = Number(process.env.ZHI_SCHEDULE_BATCH_WAIT_MS) || 10 * 60_000;

/** The command line of the run, as `zhi run` would have parsed it, with the job's fixed options. */
function runArgs(job: Job, base: ParsedArgs): ParsedArgs {
  return {
    flags: {
      ...base.flags,
      auto: job.auto,
      model: job.model,
      outputDir: job.outputDir,
      outputFormat: 'text',
      language: job.language,
      yes: false,
      resume: undefined,
      command: undefined,
    },
    subcommand: job.command === 'watch' ? 'watch' : 'run',
    positionals:
      job.command === 'watch'
        ? [job.inputs[0] ?? '.', job.skill, ...job.inputs.slice(1)]
        : [job.skill, ...job.inputs],
    extra: { ...job.options },
  };
}

function refused(what: ZhiError['what'], why?: ZhiError['what'], tries: ZhiError['what'][] = []): ZhiError {
  return new ZhiError({ kind: 'usage', what, ...(why ? { why } : {}), tries });
}

/** The skill as it is now, checked against the fingerprint taken when the job was scheduled. */
async function checkSkill(ctx: AppContext, job: Job): Promise<void> {
  const catalog = await loadCatalog(ctx, () => undefined);
  const skill = catalog.skills.get(job.skill);
  if (!skill) {
    throw refused({ key: 'schedule.err.skillGone', params: { skill: job.skill } }, undefined, [
      { key: 'schedule.try.remove', params: { name: job.name } },
    ]);
  }
  if ((await contentHash(skill)) !== job.skillHash) {
    throw refused(
      { key: 'schedule.err.skillChanged', params: { skill: job.skill, file: skill.file } },
      { key: 'schedule.err.skillChangedWhy' },
      [{ key: 'schedule.try.confirm', params: { name: job.name } }],
    );
  }
}

export async function runJob(ctx: AppContext, job: Job): Promise<ExitCodeValue> {
  const startedAt = new Date();
  const record: RunRecord = {
    job: job.name,
    startedAt: startedAt.toISOString(),
    endedAt: '',
    status: 'ok',
    exitCode: 0,
    outputDir: job.outputDir,
  };
  const finish = async (status: RunStatus, exitCode: number, reason?: string) => {
    await saveRun(ctx.paths.dataDir, {
      ...record,
      endedAt: new Date().toISOString(),
      status,
      exitCode,
      ...(reason ? { reason } : {}),
    });
  };
  let lock: RunLock;
  try {
    lock = await ctx.interrupt.run((signal) =>
      RunLock.take(join(schedulesDir(ctx.paths.dataDir), job.name), {
        wait: false,
        signal,
        folder: job.name,
      }),
    );
  } catch (err) {
    const e = toZhiError(err);
    await finish('skipped', e.exitCode, [e.whatText(), e.whyText()].filter(Boolean).join(' '));
    throw e;
  }
  try {
    return await runLocked(ctx, job, record, startedAt);
  } finally {
    await lock.release();
  }
}

async function runLocked(
  ctx: AppContext,
  job: Job,
  record: RunRecord,
  startedAt: Date,
): Promise<ExitCodeValue> {
  let code: ExitCodeValue = ExitCode.ok;
  let status: RunStatus = 'ok';
  let reason: string | undefined;
  let runCtx: AppContext | undefined;
  const refused: { tool: string; reason: string }[] = [];
  const handOff = new BatchHandOff(ctx, BATCH_WAIT_MS);
  try {
    process.chdir(job.cwd);
    runCtx = await buildContext(runArgs(job, ctx.args), ctx.interrupt, ctx.env);
    runCtx.stdinIsTTY = false;
    runCtx.unattended = true;
    runCtx.config = { ...runCtx.config, maxCostPerRun: job.maxCost };
    runCtx.watchRun = (ev) => {
      noteRefusal(ev, refused);
      handOff.see(ev);
    };
    await checkSkill(runCtx, job);
    const { run } =
      job.command === 'watch' ? await import('../commands/watch.js') : await import('../commands/run.js');
    code = await run(runCtx);
    if (handOff.left) {
      // Not a failure: the job goes on at the platform, and its id is in the run record.
      code = ExitCode.ok;
      status = 'waiting';
      reason = t('schedule.run.batchLeft', { id: handOff.left, name: job.name });
      process.stderr.write(`${reason}\n`);
    } else if (code !== ExitCode.ok) status = 'failed';
  } catch (err) {
    handOff.done();
    const e = toZhiError(err);
    code = e.exitCode;
    status = e.kind === 'usage' ? 'refused' : 'failed';
    reason = [e.whatText(), e.whyText()].filter(Boolean).join(' ');
    process.stderr.write(`${t('schedule.run.stopped', { name: job.name })}\n`);
    await save();
    throw e;
  }
  handOff.done();
  await save();
  return code;

  async function save(): Promise<void> {
    const folder = job.inputs[0] ? resolve(job.cwd, job.inputs[0]) : undefined;
    const isFolder = folder ? (await stat(folder).catch(() => undefined))?.isDirectory() : false;
    const files =
      folder && isFolder
        ? await filesSince(manifestPath(job.outputDir, job.skill, folder), record.startedAt)
        : undefined;
    const cost = await costSince(ctx.paths.usageLedger, job.skill, startedAt);
    if (status === 'ok' && files && files.done === 0 && files.failed.length === 0) status = 'empty';
    if (status === 'waiting' && files?.failed.length) status = 'failed';
    if (status === 'ok' && files?.failed.length) status = 'failed';
    if (!reason && files?.failed.length) {
      const total = files.done + files.failed.length;
      reason = t('schedule.run.filesFailed', { failed: files.failed.length, total });
    }
    await saveRun(ctx.paths.dataDir, {
      ...record,
      endedAt: new Date().toISOString(),
      status,
      exitCode: code,
      ...(reason ? { reason } : {}),
      ...(files ? { files } : {}),
      ...(cost ? { cost } : {}),
      ...(refused.length ? { refused: refused.slice(0, 50) } : {}),
    });
    // Nobody watched this run: one that went wrong or did nothing is shown on the desktop too.
    if (status === 'failed' || status === 'refused' || status === 'empty') {
      const body = [t(`schedule.status.${status}`), reason].filter(Boolean).join(' — ');
      await notifyDesktop({ title: t('schedule.notify.title', { name: job.name }), body });
    }
  }
}

/** A call that was not allowed (nobody to ask, or refused outright), kept for the run record. */
function noteRefusal(ev: RunEvent, into: { tool: string; reason: string }[]): void {
  const inner = ev.type === 'nested' ? ev.event : ev;
  if (inner.type !== 'permission' || inner.decision === 'allowed') return;
  into.push({ tool: inner.name, reason: inner.notice ?? inner.reason ?? inner.decision });
}

/**
 * A scheduled `--batch` run does not sit for hours on a job: once a Batch API job has been waited
 * for BATCH_WAIT_MS, the run stops as Ctrl+C would (the job id stays in the folder's run record)
 * and the next run picks the results up — without a person, and without overlapping the next.
 */
class BatchHandOff {
  private timer: NodeJS.Timeout | undefined;
  private job: string | undefined;
  /** The job left for the next run, once the wait ran out. */
  left: string | undefined;

  constructor(
    private readonly ctx: AppContext,
    private readonly waitMs: number,
  ) {}

  see(ev: RunEvent): void {
    const inner = ev.type === 'nested' ? ev.event : ev;
    if (inner.type !== 'folder_batch') return;
    if (inner.phase === 'results') {
      this.done();
      return;
    }
    this.job = inner.id;
    this.timer ??= setTimeout(() => {
      this.left = this.job;
      this.ctx.interrupt.stop();
    }, this.waitMs);
  }

  done(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
