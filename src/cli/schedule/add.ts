/**
 * `zhi schedule add <when> <skill> <inputs…> [folder options] [--name n] [--auto] [--batch]
 * [--max-cost x]`: the skill and inputs are read as `zhi run` reads them, everything the runs may
 * do is fixed now and shown with the schedule in words and its next three times, and saved only
 * after a yes (or --yes). Then the OS scheduler gets its entry.
 */
import { resolve } from 'node:path';
import type { Schedule } from '../../agent/schedule/cron.js';
import { cronText } from '../../agent/schedule/cron.js';
import { type Job, listJobs, madeUpName, NAME_RULE, readJob, saveJob } from '../../agent/schedule/job.js';
import { localTimeZone } from '../../agent/schedule/next.js';
import { parseWhen } from '../../agent/schedule/when.js';
import { skillModel } from '../../skills/resolve.js';
import type { Skill } from '../../skills/schema.js';
import { contentHash, TrustStore, untrustedOf } from '../../skills/trust.js';
import { ExitCode, type ExitCodeValue, ZhiError } from '../../support/errors.js';
import { getLanguage, t } from '../../support/i18n/index.js';
import { traitsOf } from '../../tools/index.js';
import { terminalAsker } from '../ask.js';
import { prepareRun } from '../commands/run.js';
import type { AppContext } from '../context.js';
import { outputDirOf } from '../settings.js';
import { installJob, jobSummary } from './show.js';

/** Options of `schedule add` itself; the rest go to the run. */
function takeOwn(extra: Record<string, string | true>): {
  name: string | undefined;
  maxCost: number | undefined;
  rest: Record<string, string | true>;
} {
  const { name, 'max-cost': cost, ...rest } = extra;
  if (name !== undefined && (name === true || !NAME_RULE.test(name))) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'schedule.err.badName', params: { name: String(name) } },
      why: { key: 'schedule.err.nameRule' },
    });
  }
  let maxCost: number | undefined;
  if (cost !== undefined) {
    maxCost = Number(cost);
    if (cost === true || !Number.isFinite(maxCost) || maxCost <= 0) {
      throw new ZhiError({
        kind: 'usage',
        what: { key: 'cli.err.badValue', params: { flag: '--max-cost', value: String(cost) } },
        why: { key: 'schedule.err.maxCost' },
      });
    }
  }
  return { name, maxCost, rest };
}

/** What a run that nobody watches cannot do, said now rather than at 3 in the morning. */
export async function refuseUnattended(
  ctx: AppContext,
  skill: Skill,
  catalog: Parameters<typeof untrustedOf>[2],
  auto: boolean,
): Promise<void> {
  const store = await TrustStore.open(ctx.paths.trustFile);
  if ((await untrustedOf(store, [skill], catalog)).length) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'schedule.err.untrusted', params: { skill: skill.name } },
      why: { key: 'schedule.err.untrustedWhy' },
      tries: [{ key: 'schedule.try.trust', params: { skill: skill.name } }],
    });
  }
  const writes = skill.tools.some((tool) => traitsOf(tool).writesOutput);
  if (writes && !auto) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'schedule.err.writesNeedAuto', params: { skill: skill.name } },
      why: { key: 'schedule.err.writesNeedAutoWhy' },
      tries: [{ key: 'schedule.try.auto', params: { dir: ctx.outputDir } }],
    });
  }
}

/**
 * The words after `<when>`: `<skill> <inputs…>`, or `watch <folder> <skill> <inputs…>` (a watch,
 * which runs until stopped and so is scheduled at login only).
 */
function whatToRun(when: string, schedule: Schedule, words: string[]) {
  if (words[0] !== 'watch') return { command: 'run' as const, skillName: words[0], inputs: words.slice(1) };
  const [, folder, skillName, ...rest] = words;
  if (!schedule.atLogin) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'schedule.err.watchAtLogin', params: { when } },
      tries: [
        {
          key: 'schedule.try.watchAtLogin',
          params: { folder: folder ?? '<folder>', skill: skillName ?? '<skill>' },
        },
      ],
    });
  }
  return { command: 'watch' as const, skillName, inputs: folder ? [folder, ...rest] : rest };
}

export async function add(ctx: AppContext, words: string[]): Promise<ExitCodeValue> {
  const [when, ...what] = words;
  if (!when || !what[0]) throw new ZhiError({ kind: 'usage', what: { key: 'schedule.usage.add' } });
  const schedule = parseWhen(when);
  const { command, skillName, inputs } = whatToRun(when, schedule, what);
  if (!skillName) throw new ZhiError({ kind: 'usage', what: { key: 'schedule.usage.add' } });
  const own = takeOwn(ctx.args.extra);
  const prepared = await prepareRun(ctx, skillName, inputs, own.rest);
  const { skill, catalog } = prepared;
  await refuseUnattended(ctx, skill, catalog, ctx.args.flags.auto);
  const taken = new Set((await listJobs(ctx.paths.dataDir)).map((j) => j.name));
  const existing = own.name ? await readJob(ctx.paths.dataDir, own.name) : undefined;
  const job: Job = {
    version: 1,
    name: own.name ?? madeUpName(skill.name, schedule, taken),
    when,
    cron: cronText(schedule),
    timeZone: localTimeZone(),
    skill: skill.name,
    ...(command === 'watch' ? { command } : {}),
    skillFile: skill.file,
    skillHash: await contentHash(skill),
    model: skillModel(skill, {
      override: ctx.args.flags.model,
      configured: ctx.config.skillModel,
      custom: ctx.platform.id === 'custom',
    }),
    cwd: ctx.cwd,
    inputs,
    options: own.rest,
    // Where `zhi run` would write now (the skill's own output.directory counted), fixed for every run.
    outputDir: resolve(ctx.cwd, outputDirOf(ctx, skill.output.directory)),
    auto: ctx.args.flags.auto,
    batch: prepared.folder.batch,
    maxCost: own.maxCost ?? ctx.config.maxCostPerRun,
    language: getLanguage(),
    paused: false,
    createdAt: new Date().toISOString(),
  };
  return confirmAndSave(ctx, job, schedule, existing);
}

/** Show what is fixed, ask (or take --yes), save, and give the job to the OS scheduler. */
export async function confirmAndSave(
  ctx: AppContext,
  job: Job,
  schedule: Schedule,
  replacing: Job | undefined,
): Promise<ExitCodeValue> {
  const err = (line: string) => process.stderr.write(`${line}\n`);
  err(jobSummary(ctx, job, schedule));
  if (ctx.config.sources.api_key?.startsWith('$')) err(ctx.err.yellow(t('schedule.add.keyFromEnv')));
  if (replacing) err(t('schedule.add.replaces', { name: job.name }));
  if (!ctx.args.flags.yes) {
    if (!ctx.stdinIsTTY) {
      throw new ZhiError({
        kind: 'usage',
        what: { key: 'schedule.err.notConfirmed' },
        why: { key: 'schedule.err.notConfirmedWhy' },
        tries: [{ key: 'schedule.try.yes' }],
      });
    }
    const yes = await terminalAsker(ctx.interrupt).yesNo(`${t('schedule.add.confirm')} `);
    if (!yes) {
      err(t('schedule.add.declined'));
      return ExitCode.ok;
    }
  }
  await saveJob(ctx.paths.dataDir, job);
  await installJob(ctx, job, schedule);
  process.stdout.write(`${job.name}\n`);
  err(t('schedule.add.saved', { name: job.name }));
  return ExitCode.ok;
}
