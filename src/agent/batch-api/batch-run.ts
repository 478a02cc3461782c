import { dirname } from 'node:path';
import { BatchApi } from '../../llm/batch.js';
import type { Platform } from '../../llm/platforms.js';
import type { PlatformClient } from '../../llm/types.js';
import { ZhiError } from '../../support/errors.js';
import type { RunEvent } from '../events.js';
import type { RunManifest } from '../folder/manifest.js';
import type { PermissionMode } from '../permissions.js';
import { AsyncQueue } from '../queue.js';
import { AnswerStore } from './answer-store.js';
import { collectAnswers, pollJobs } from './round-jobs.js';
import { BatchRounds } from './rounds.js';

/** What the Batch API part of a folder run needs to know of it. */
export interface BatchPhase {
  /** Builds each request's body exactly as an online call would (undefined: no platform here). */
  client: PlatformClient | undefined;
  platform: Platform;
  manifest: RunManifest;
  /** The skill's name, kept with its jobs. */
  skill: string;
  cwd: string;
  mode: PermissionMode;
  /** The run's `--jobs`, kept with its jobs for `zhi batch results`. */
  jobs: number;
  signal: AbortSignal;
  /** Files this run will start. */
  expected: number;
  pollMs: number;
  /** The API's limits for one input file (tests make them small). */
  limits?: { bytes?: number; lines?: number } | undefined;
}

/**
 * The Batch API part of a folder run, before its files start: the rounds that will answer every
 * model call of every file (rounds.ts). A job an earlier run submitted (in the run record) is
 * waited for first and its answers kept, so the files replay them without paying again. Resolves
 * undefined when interrupted while waiting: the job id stays in the run record, and the same
 * command later picks the results up.
 */
export async function* startRounds(p: BatchPhase): AsyncGenerator<RunEvent, BatchRounds | undefined> {
  const { client, manifest } = p;
  if (!client) throw new ZhiError({ kind: 'config', what: { key: 'batch.err.noApi' } });
  const o = {
    api: new BatchApi(client.http, p.platform),
    client,
    store: AnswerStore.beside(manifest.path),
    manifest,
    skill: p.skill,
    place: { cwd: p.cwd, outputDir: dirname(dirname(manifest.path)) },
    mode: p.mode === 'auto' ? ('auto' as const) : ('approve' as const),
    jobs: p.jobs,
    ...(p.limits ? { limits: p.limits } : {}),
    pollMs: p.pollMs,
    signal: p.signal,
    platform: p.platform,
    expected: p.expected,
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
