import { dirname } from 'node:path';
import { BatchApi } from '../../llm/batch.js';
import { UsageTracker } from '../../llm/usage.js';
import type { Skill } from '../../skills/schema.js';
import { ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { traitsOf } from '../../tools/index.js';
import type { AgentResult, RunEvent } from '../events.js';
import type { FolderEvent } from '../folder/events.js';
import { folderOptions } from '../folder/folder-options.js';
import type { RunManifest } from '../folder/manifest.js';
import { AsyncQueue } from '../queue.js';
import type { SkillRunRequest, SkillRuntime } from '../skills/run.js';
import { AnswerStore } from './answer-store.js';
import { CapturingClient } from './clients.js';
import { collectAnswers, pollJobs } from './round-jobs.js';
import { BatchRounds } from './rounds.js';

/** runSkill, passed in (folder runs start skill runs themselves, and run.ts uses them). */
export type RunFn = (req: SkillRunRequest, rt: SkillRuntime) => AsyncGenerator<RunEvent, AgentResult>;

/** A folder run's request: the skill run, the input it fills with each file, the files. */
export interface FolderInputs {
  run: RunFn;
  req: SkillRunRequest;
  rt: SkillRuntime;
  argName: string;
  dir: string;
  files: string[];
}

export interface BatchPhase extends FolderInputs {
  todo: number[];
  manifest: RunManifest;
  pollMs: number;
  /** The API's limits for one input file (tests make them small). */
  limits?: { bytes?: number; lines?: number };
}

/** Why this skill cannot be batched (it needs a person's answer mid-run), or undefined. */
export function batchBlocker(skill: Skill): ZhiError | undefined {
  // A composite skill's steps depend on each other: its combining call needs every file's result.
  const each = skill.args.find((a) => a.each)?.each;
  if (each) {
    return new ZhiError({
      kind: 'usage',
      what: { key: 'batch.err.composite', params: { skill: skill.name, each } },
      tries: [{ key: 'batch.try.noBatch' }],
    });
  }
  // A batch job cannot wait for a person's answer in the middle of a run.
  const blocked = skill.tools.filter((name) => traitsOf(name).needsPerson);
  if (!blocked.length) return undefined;
  return new ZhiError({
    kind: 'usage',
    what: { key: 'batch.err.needsPerson', params: { skill: skill.name, tools: blocked.join(', ') } },
    tries: [{ key: 'batch.try.noBatch' }],
  });
}

type LongDocumentEvent = Extract<FolderEvent, { type: 'long_document' }>;

/**
 * The first request a skill run would send for one file, and — for a document too long for one
 * message — how the run would split it (its parts and their estimated tokens). Nothing is sent.
 */
export async function captureFirst(
  run: RunFn,
  req: SkillRunRequest,
  rt: SkillRuntime,
): Promise<{ request?: import('../../llm/types.js').ChatRequest; long?: LongDocumentEvent }> {
  const capture = new CapturingClient();
  // The file's own run, as a real one would start (not another dry run or batch of it).
  // Nothing is spent here: no question about a long document's cost either.
  const own = {
    ...rt,
    llm: capture,
    costGate: undefined,
    folder: { ...rt.folder, dryRun: false, batch: false },
  };
  let long: LongDocumentEvent | undefined;
  const gen = run({ ...req, usage: new UsageTracker(req.usage.platform), trusted: true }, own);
  try {
    for (let step = await gen.next(); !step.done; step = await gen.next())
      if (step.value.type === 'long_document') long ??= step.value;
  } catch (err) {
    // The parts' calls end as interrupted: what was learnt before is the answer.
    if (!capture.request && !long) throw err;
  }
  return { ...(capture.request ? { request: capture.request } : {}), ...(long ? { long } : {}) };
}

/**
 * The Batch API part of a folder run, before its files start: the rounds that will answer every
 * model call of every file (rounds.ts). A job an earlier run submitted (in the run record) is
 * waited for first and its answers kept, so the files replay them without paying again. Resolves
 * undefined when interrupted while waiting: the job id stays in the run record, and the same
 * command later picks the results up.
 */
export async function* startRounds(p: BatchPhase): AsyncGenerator<RunEvent, BatchRounds | undefined> {
  const { rt, req, manifest } = p;
  if (!rt.client) throw new ZhiError({ kind: 'config', what: { key: 'batch.err.noApi' } });
  const blocked = batchBlocker(req.skill);
  if (blocked) throw blocked;
  const o = {
    api: new BatchApi(rt.client.http, req.usage.platform),
    client: rt.client,
    store: AnswerStore.beside(manifest.path),
    manifest,
    skill: req.skill.name,
    place: { cwd: rt.cwd, outputDir: dirname(dirname(manifest.path)) },
    mode: rt.mode === 'auto' ? ('auto' as const) : ('approve' as const),
    jobs: folderOptions(rt).jobs,
    ...(p.limits ? { limits: p.limits } : {}),
    pollMs: p.pollMs,
    signal: rt.signal,
    platform: req.usage.platform,
    expected: p.todo.length,
  };
  const rec = manifest.data.batch;
  if (rec) {
    const events = new AsyncQueue<RunEvent>();
    const picked = (async () => {
      const jobs = await pollJobs(o, rec, (ev) => events.push(ev));
      if (jobs) await collectAnswers(o, rec, jobs, (ev) => events.push(ev));
      return Boolean(jobs);
    })().finally(() => events.close());
    picked.catch(() => undefined);
    yield* events;
    if (!(await picked)) return undefined;
  }
  return new BatchRounds(o);
}

/**
 * The jobs' answers are used up once every file of the run is written; until then they are kept
 * (with the last job in the run record), so a later run — with --auto, say — writes the rest from
 * them without paying again.
 */
export async function* endRounds(
  rounds: BatchRounds,
  manifest: RunManifest,
  /** The run's files (folder-relative names). */
  rels: readonly string[],
  aborted: boolean,
): AsyncGenerator<RunEvent> {
  if (aborted) return;
  const open = rels.filter((rel) => manifest.entry(rel)?.status !== 'done');
  if (!open.length) {
    await manifest.setBatch(undefined);
    await rounds.store.discard().catch(() => undefined);
  } else if (manifest.data.batch)
    yield {
      type: 'warning',
      message: t('runs.batchKept', { id: manifest.data.batch.id, count: open.length }),
    };
}
