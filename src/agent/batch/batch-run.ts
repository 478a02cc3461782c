import { createHash } from 'node:crypto';
import { dirname, relative, sep } from 'node:path';
import {
  BATCH_MAX_BYTES,
  BATCH_MAX_REQUESTS,
  BatchApi,
  type BatchJob,
  batchLine,
  batchStatusText,
  FINAL_STATUSES,
  jobCounts,
} from '../../llm/batch.js';
import type { ChunkJson } from '../../llm/response.js';
import { UsageTracker } from '../../llm/usage.js';
import type { Skill } from '../../skills/schema.js';
import { ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { traitsOf } from '../../tools/index.js';
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
  /** The API's limits for one input file (tests make them small). */
  limits?: { bytes?: number; lines?: number };
}

/** Why this skill cannot be batched (it needs a person's answer mid-run), or undefined. */
export function batchBlocker(skill: Skill): ZhiError | undefined {
  // A batch job cannot wait for a person's answer in the middle of a run.
  const blocked = skill.tools.filter((name) => traitsOf(name).needsPerson);
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
  const jobs = yield* waitForJobs(p, api, rec);
  if (!jobs) return undefined;
  const byRel = new Map(p.files.map((f, i) => [relOf(f), i]));
  const primed = new Map<number, ChunkJson>();
  for (const job of jobs) {
    // An expired or cancelled job still gives what it answered; its other files are done online.
    const partial = PARTIAL_STATUSES.has(job.status) && Boolean(job.output_file_id || job.error_file_id);
    if (job.status !== 'completed' && !partial) {
      await manifest.setBatch(undefined);
      throw new ZhiError({
        kind: 'server',
        what: { key: 'batch.err.jobEnded', params: { id: job.id, status: job.status } },
        tries: [{ key: 'batch.try.again' }, { key: 'batch.try.noBatch' }],
      });
    }
    const results = await api.results(job, rt.signal);
    let answered = 0;
    let failed = 0;
    for (const [cid, r] of results) {
      const index = byRel.get(rec.requests[cid] ?? '');
      if (index === undefined) continue;
      if (r.ok) {
        primed.set(index, r.body);
        answered += 1;
      } else failed += 1;
    }
    yield batchEvent(skill, 'results', job.id, { status: job.status, ...jobCounts(job), answered, failed });
    if (partial) {
      const total = jobCounts(job).total;
      const message = t('runs.batchPartial', {
        id: job.id,
        status: batchStatusText(job.status),
        answered,
        rest: Math.max(0, total - answered),
      });
      yield { type: 'warning', message };
    }
  }
  return primed;
}

/** Statuses of a job that ended early, having answered some of its lines. */
const PARTIAL_STATUSES = new Set(['expired', 'cancelled']);

/** Wait for every job of the record (one status line per change); undefined when interrupted. */
async function* waitForJobs(
  p: BatchPhase,
  api: BatchApi,
  rec: BatchRecord,
): AsyncGenerator<RunEvent, BatchJob[] | undefined> {
  const { rt, manifest } = p;
  const ids = [rec.id, ...(rec.more ?? []).map((m) => m.id)];
  const seen = new Map<string, string>();
  for (;;) {
    const jobs: BatchJob[] = [];
    for (const id of ids) {
      const job = await api.get(id, rt.signal);
      const counts = jobCounts(job);
      const line = `${job.status} ${counts.completed} ${counts.failed}`;
      if (seen.get(id) !== line) {
        yield batchEvent(req(p), 'waiting', id, { status: job.status, ...counts });
        seen.set(id, line);
      }
      jobs.push(job);
    }
    const statuses = jobs.map((j) => j.status).join(' ');
    if (statuses !== [rec.status, ...(rec.more ?? []).map((m) => m.status)].join(' ')) {
      rec = {
        ...rec,
        status: jobs[0]!.status,
        ...(rec.more ? { more: rec.more.map((m, k) => ({ ...m, status: jobs[k + 1]!.status })) } : {}),
      };
      await manifest.setBatch(rec);
    }
    if (jobs.every((j) => FINAL_STATUSES.has(j.status))) return jobs;
    await wait(p.pollMs, rt.signal);
    if (rt.signal.aborted) return undefined;
  }
}

const req = (p: BatchPhase) => p.req.skill.name;

/**
 * Capture each file's first request and submit them as jobs within the API's limits for one
 * input file (size and lines): a new job whenever the next line would not fit, each recorded in
 * the manifest as soon as it is created (a kill never loses a job that is paid for). A request
 * too large for any input file is left out: that file runs online.
 */
async function* submit(
  p: BatchPhase,
  api: BatchApi,
  relOf: (abs: string) => string,
): AsyncGenerator<RunEvent, BatchRecord | undefined> {
  const { rt, req } = p;
  const limits = { bytes: p.limits?.bytes ?? BATCH_MAX_BYTES, lines: p.limits?.lines ?? BATCH_MAX_REQUESTS };
  let chunk: { lines: string[]; bytes: number; requests: Record<string, string> } = {
    lines: [],
    bytes: 0,
    requests: {},
  };
  let rec: BatchRecord | undefined;
  let model = '';
  const flush = async function* (): AsyncGenerator<RunEvent> {
    if (!chunk.lines.length) return;
    rec = await submitJob(p, api, chunk, rec, model);
    const id = rec.more?.at(-1)?.id ?? rec.id;
    yield batchEvent(req.skill.name, 'submitted', id, { status: 'validating', total: chunk.lines.length });
    chunk = { lines: [], bytes: 0, requests: {} };
  };
  for (const i of p.todo) {
    if (rt.signal.aborted) break;
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
    const line = batchLine(cid, rt.client!.body(first, false));
    const bytes = Buffer.byteLength(line, 'utf8') + 1;
    if (bytes > limits.bytes) continue; // larger than any input file may be: done online
    if (chunk.bytes + bytes > limits.bytes || chunk.lines.length >= limits.lines) yield* flush();
    chunk.lines.push(line);
    chunk.bytes += bytes;
    chunk.requests[cid] = relOf(file);
  }
  if (!rt.signal.aborted) yield* flush();
  return rec;
}

/** Upload one input file, create its job, and record it (the first job, or one more). */
async function submitJob(
  p: BatchPhase,
  api: BatchApi,
  chunk: { lines: string[]; requests: Record<string, string> },
  rec: BatchRecord | undefined,
  model: string,
): Promise<BatchRecord> {
  const { rt, req } = p;
  const n = (rec?.more?.length ?? -1) + 2;
  const upload = await api.upload(
    `${chunk.lines.join('\n')}\n`,
    `zhi-${req.skill.name}-${n}.jsonl`,
    rt.signal,
  );
  const job = await api.create(
    upload.id,
    { zhi_skill: req.skill.name, zhi_folder: p.manifest.data.folder },
    rt.signal,
  );
  const createdAt = new Date().toISOString();
  const next: BatchRecord = rec
    ? {
        ...rec,
        requests: { ...rec.requests, ...chunk.requests },
        more: [...(rec.more ?? []), { id: job.id, status: job.status }],
      }
    : {
        id: job.id,
        model,
        createdAt,
        requests: chunk.requests,
        status: job.status,
        mode: rt.mode === 'auto' ? 'auto' : 'approve',
      };
  await p.manifest.setBatch(next);
  await rememberJob(job.id, {
    cwd: rt.cwd,
    outputDir: dirname(dirname(p.manifest.path)),
    manifest: p.manifest.path,
    skill: req.skill.name,
    folder: p.manifest.data.folder,
    mode: next.mode ?? 'approve',
    submittedAt: createdAt,
  });
  return next;
}

function batchEvent(
  skill: string,
  phase: 'submitted' | 'waiting' | 'results',
  id: string,
  info: { status: string; total?: number; completed?: number; failed?: number; answered?: number },
): FolderEvent {
  return { type: 'folder_batch', skill, phase, id, ...info };
}
