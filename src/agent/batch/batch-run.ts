import { createHash } from 'node:crypto';
import { dirname, relative, sep } from 'node:path';
import { BatchApi, batchLine, FINAL_STATUSES, jobCounts } from '../../llm/batch.js';
import type { ChunkJson } from '../../llm/response.js';
import { UsageTracker } from '../../llm/usage.js';
import type { Skill } from '../../skills/schema.js';
import { ZhiError } from '../../support/errors.js';
import type { AgentResult, RunEvent } from '../events.js';
import type { SkillRunRequest, SkillRuntime } from '../skills/run.js';
import { CapturingClient } from './clients.js';
import type { FolderEvent } from './events.js';
import { rememberJob } from './job-index.js';
import type { BatchRecord, RunManifest } from './manifest.js';
import { wait } from './pool.js';

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
}

/** Tools that need a person's answer while the run goes on: a batch job cannot wait for one. */
const NEEDS_PERSON = ['shell'];

/** Why this skill cannot be batched (it needs a person's answer mid-run), or undefined. */
export function batchBlocker(skill: Skill): ZhiError | undefined {
  const blocked = skill.tools.filter((name) => NEEDS_PERSON.includes(name));
  if (!blocked.length) return undefined;
  return new ZhiError({
    kind: 'usage',
    what: { key: 'batch.err.needsPerson', params: { skill: skill.name, tools: blocked.join(', ') } },
    tries: [{ key: 'batch.try.noBatch' }],
  });
}

/** The first request a skill run would send for one file, learnt without sending it. */
export async function captureFirstRequest(
  run: RunFn,
  req: SkillRunRequest,
  rt: SkillRuntime,
): Promise<import('../../llm/types.js').ChatRequest | undefined> {
  return (await captureFirst(run, req, rt)).request;
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
 * The Batch API part of a folder run: submit the first model call of every file still to do as
 * one JSONL job (or find the job an earlier run submitted, from the manifest), wait for it, and
 * hand back each file's first answer. Resolves undefined when interrupted while waiting: the job
 * id stays in the manifest, so the same command later picks the results up.
 */
export async function* batchPhase(
  p: BatchPhase,
): AsyncGenerator<RunEvent, Map<number, ChunkJson> | undefined> {
  const { rt, req, manifest } = p;
  const skill = req.skill.name;
  if (!rt.client) throw new ZhiError({ kind: 'config', what: { key: 'batch.err.noApi' } });
  const blocked = batchBlocker(req.skill);
  if (blocked) throw blocked;
  const api = new BatchApi(rt.client.http, req.usage.platform);
  const relOf = (abs: string) => relative(p.dir, abs).split(sep).join('/');
  let rec = manifest.data.batch;
  if (!rec) {
    rec = yield* submit(p, api, relOf);
    if (!rec) return new Map();
  }
  // Wait for the job: one status line per change.
  let last = '';
  let job = await api.get(rec.id, rt.signal);
  while (true) {
    const counts = jobCounts(job);
    const seen = `${job.status} ${counts.completed} ${counts.failed}`;
    if (seen !== last) {
      yield batchEvent(skill, 'waiting', rec.id, { status: job.status, ...counts });
      last = seen;
    }
    if (rec.status !== job.status) await manifest.setBatch({ ...rec, status: job.status });
    if (FINAL_STATUSES.has(job.status)) break;
    await wait(p.pollMs, rt.signal);
    if (rt.signal.aborted) return undefined;
    job = await api.get(rec.id, rt.signal);
  }
  if (job.status !== 'completed') {
    await manifest.setBatch(undefined);
    throw new ZhiError({
      kind: 'server',
      what: { key: 'batch.err.jobEnded', params: { id: rec.id, status: job.status } },
      tries: [{ key: 'batch.try.again' }, { key: 'batch.try.noBatch' }],
    });
  }
  const results = await api.results(job, rt.signal);
  const byRel = new Map(p.files.map((f, i) => [relOf(f), i]));
  const primed = new Map<number, ChunkJson>();
  let failed = 0;
  for (const [cid, r] of results) {
    const index = byRel.get(rec.requests[cid] ?? '');
    if (index === undefined) continue;
    if (r.ok) primed.set(index, r.body);
    else failed += 1;
  }
  yield batchEvent(skill, 'results', rec.id, {
    status: job.status,
    ...jobCounts(job),
    answered: primed.size,
    failed,
  });
  return primed;
}

/** Capture each file's first request and submit them as one job; the job goes into the manifest. */
async function* submit(
  p: BatchPhase,
  api: BatchApi,
  relOf: (abs: string) => string,
): AsyncGenerator<RunEvent, BatchRecord | undefined> {
  const { rt, req } = p;
  const lines: string[] = [];
  const requests: Record<string, string> = {};
  let model = '';
  for (const i of p.todo) {
    if (rt.signal.aborted) return undefined;
    const file = p.files[i]!;
    const value = req.inputsFrom === 'model' ? relative(rt.cwd, file) : file;
    const first = await captureFirstRequest(
      p.run,
      { ...req, values: { ...req.values, [p.argName]: value } },
      rt,
    ).catch((err: unknown) => {
      if (err instanceof ZhiError) return undefined; // this file will be run (and fail) online
      throw err;
    });
    if (!first) continue;
    model ||= first.model;
    const cid = `zhi-${i}-${createHash('sha256').update(relOf(file)).digest('hex').slice(0, 10)}`;
    requests[cid] = relOf(file);
    lines.push(batchLine(cid, rt.client!.body(first, false)));
  }
  if (!lines.length) return undefined;
  const upload = await api.upload(`${lines.join('\n')}\n`, `zhi-${req.skill.name}.jsonl`, rt.signal);
  const job = await api.create(
    upload.id,
    { zhi_skill: req.skill.name, zhi_folder: p.manifest.data.folder },
    rt.signal,
  );
  const rec: BatchRecord = {
    id: job.id,
    model,
    createdAt: new Date().toISOString(),
    requests,
    status: job.status,
    mode: rt.mode === 'auto' ? 'auto' : 'approve',
  };
  await p.manifest.setBatch(rec);
  await rememberJob(job.id, {
    cwd: rt.cwd,
    outputDir: dirname(dirname(p.manifest.path)),
    manifest: p.manifest.path,
    skill: req.skill.name,
    folder: p.manifest.data.folder,
    mode: rec.mode ?? 'approve',
    submittedAt: rec.createdAt,
  });
  yield batchEvent(req.skill.name, 'submitted', job.id, { status: job.status, total: lines.length });
  return rec;
}

function batchEvent(
  skill: string,
  phase: 'submitted' | 'waiting' | 'results',
  id: string,
  info: { status: string; total?: number; completed?: number; failed?: number; answered?: number },
): FolderEvent {
  return { type: 'folder_batch', skill, phase, id, ...info };
}
