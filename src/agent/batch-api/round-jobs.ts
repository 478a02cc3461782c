/**
 * The Batch API jobs of a round: waited for (one event per status change, the run record kept up
 * to date), then their answers read and each kept on disk at once.
 */
import type { BatchApi, BatchJob } from '../../llm/batch.js';
import { batchStatusText, FINAL_STATUSES, jobCounts, jobErrorText } from '../../llm/batch.js';
import type { ChunkJson } from '../../llm/response.js';
import { ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import type { RunEvent } from '../events.js';
import type { FolderEvent } from '../folder/events.js';
import type { BatchRecord, RunManifest } from '../folder/manifest.js';
import { wait } from '../folder/pool.js';
import type { AnswerStore } from './answer-store.js';
import { rememberJob } from './job-index.js';

/** A call's answer from a job, or why there is none (no error: the call is made online). */
export type Answer = { ok: true; body: ChunkJson } | { ok: false; error?: ZhiError };

type PollSetup = {
  api: BatchApi;
  manifest: RunManifest;
  skill: string;
  pollMs: number;
  signal: AbortSignal;
};

/** Wait for every job of a record (one event per status change); undefined when interrupted. */
export async function pollJobs(
  o: PollSetup,
  rec: BatchRecord,
  emit: (ev: RunEvent) => void,
): Promise<BatchJob[] | undefined> {
  const ids = [rec.id, ...(rec.more ?? []).map((m) => m.id)];
  const seen = new Map<string, string>();
  for (;;) {
    const jobs: BatchJob[] = [];
    for (const id of ids) {
      const job = await o.api.get(id, o.signal);
      const counts = jobCounts(job);
      const line = `${job.status} ${counts.completed} ${counts.failed}`;
      if (seen.get(id) !== line) {
        emit(batchEvent(o.skill, 'waiting', id, { status: job.status, ...counts }));
        seen.set(id, line);
      }
      jobs.push(job);
    }
    const statuses = jobs.map((j) => j.status);
    const known = o.manifest.data.batch;
    if (
      known?.id === rec.id &&
      statuses.join(' ') !== [known.status, ...(known.more ?? []).map((m) => m.status)].join(' ')
    ) {
      const more = known.more?.map((m, k) => ({ ...m, status: statuses[k + 1]! }));
      await o.manifest.setBatch({ ...known, status: statuses[0]!, ...(more ? { more } : {}) });
    }
    if (jobs.every((j) => FINAL_STATUSES.has(j.status))) return jobs;
    await wait(o.pollMs, o.signal);
    if (o.signal.aborted) return undefined;
  }
}

/** Statuses of a job that ended early, having answered some of its lines. */
const PARTIAL_STATUSES = new Set(['expired', 'cancelled']);

/**
 * The answers of finished jobs, each kept in the store at once, by the key its custom_id carries.
 * An expired or cancelled job still gives what it answered (its other calls are made online); a
 * failed one is an error that names it.
 */
export async function collectAnswers(
  o: PollSetup & { store: AnswerStore },
  rec: BatchRecord,
  jobs: BatchJob[],
  emit: (ev: RunEvent) => void,
): Promise<Map<string, Answer>> {
  const answers = new Map<string, Answer>();
  for (const job of jobs) {
    const partial = PARTIAL_STATUSES.has(job.status) && Boolean(job.output_file_id || job.error_file_id);
    if (job.status !== 'completed' && !partial) {
      await o.manifest.setBatch(undefined);
      throw jobEndedError(job);
    }
    let answered = 0;
    let failed = 0;
    for (const [cid, r] of await o.api.results(job, o.signal)) {
      if (!(cid in rec.requests)) continue;
      const key = cid.replace(/^zhi-/, '');
      if (r.ok) {
        await o.store.put(key, r.body);
        answers.set(key, { ok: true, body: r.body });
        answered += 1;
      } else {
        answers.set(key, { ok: false });
        failed += 1;
      }
    }
    emit(batchEvent(o.skill, 'results', job.id, { status: job.status, ...jobCounts(job), answered, failed }));
    if (partial) {
      const rest = Math.max(0, jobCounts(job).total - answered);
      emit({
        type: 'warning',
        message: t('runs.batchPartial', { id: job.id, status: batchStatusText(job.status), answered, rest }),
      });
    }
  }
  return answers;
}

type BatchEvent = Extract<FolderEvent, { type: 'folder_batch' }>;

/** A Batch API job's event: its status and counts as the event declares them. */
export function batchEvent(
  skill: string,
  phase: BatchEvent['phase'],
  id: string,
  info: Omit<BatchEvent, 'type' | 'skill' | 'phase' | 'id'>,
): FolderEvent {
  return { type: 'folder_batch', skill, phase, id, ...info };
}

/** A job just created, in the run record (with the ones before it in the round) and the job index. */
export async function recordJob(
  o: {
    manifest: RunManifest;
    skill: string;
    mode: 'auto' | 'approve';
    jobs?: number;
    place: { cwd: string; outputDir: string };
  },
  round: number,
  x: { rec: BatchRecord | undefined; job: BatchJob; requests: Record<string, string> },
): Promise<BatchRecord> {
  const { manifest } = o;
  const { rec, job, requests } = x;
  const createdAt = new Date().toISOString();
  const next: BatchRecord = rec
    ? {
        ...rec,
        requests: { ...rec.requests, ...requests },
        more: [...(rec.more ?? []), { id: job.id, status: job.status }],
      }
    : {
        id: job.id,
        model: manifest.data.model,
        createdAt,
        requests,
        status: job.status,
        mode: o.mode,
        ...(o.jobs ? { jobs: o.jobs } : {}),
        round,
      };
  await manifest.setBatch(next);
  await rememberJob(job.id, {
    ...o.place,
    manifest: manifest.path,
    skill: o.skill,
    folder: manifest.data.folder,
    mode: o.mode,
    submittedAt: createdAt,
  });
  return next;
}

/**
 * A job that ended with nothing to give. One the API refused (failed validation) says the API's
 * own words and fails its files (asking again would be refused the same way); another ending
 * (cancelled elsewhere, expired unanswered) may be tried again.
 */
function jobEndedError(job: BatchJob): ZhiError {
  const said = jobErrorText(job);
  if (job.status === 'failed')
    return new ZhiError({
      kind: 'bad_request',
      what: { key: 'batch.err.jobFailed', params: { id: job.id } },
      why: said ? { key: 'llm.platformSaid', params: { message: said, detail: '' } } : undefined,
      tries: [{ key: 'batch.try.noBatch' }],
    });
  return new ZhiError({
    kind: 'server',
    what: { key: 'batch.err.jobEnded', params: { id: job.id, status: job.status } },
    tries: [{ key: 'batch.try.again' }, { key: 'batch.try.noBatch' }],
  });
}
