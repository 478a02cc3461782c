/**
 * `--batch`: every model call of every file goes through the Batch API, in rounds. All the files
 * of the run go at once; each model call a file makes is queued — its JSONL line written to disk
 * at once, never kept in memory — and when every running file waits for an answer, the queued
 * calls are submitted as one round (split into jobs within the API's limits for one input file),
 * waited for, and answered. The files go on (their tools run here) to their next call: the next
 * round. So a two-call skill is two rounds, a long document's parts one round and its combining
 * the next, and every call is at the batch price. Each answer is kept on disk as it comes
 * (answer-store.ts): a run stopped while a job waits is finished by the same command (or
 * `zhi batch results`), which collects the job and replays the answers it has without paying
 * again. A call a job could not answer (a failed line, an expired job) is made online.
 * A file's first call, made before its run did anything a new start would repeat, lets the run
 * go while the round waits (its conversation holds its whole document, and thousands of files
 * wait at once): the run starts again when the answer is in the store, and replays it.
 */
import { rm } from 'node:fs/promises';
import { MessageAccumulator } from '../../llm/accumulate.js';
import { BATCH_ENDPOINT, BATCH_MAX_BYTES, BATCH_MAX_REQUESTS, type BatchApi } from '../../llm/batch.js';
import { abortedError } from '../../llm/errors.js';
import { costOf } from '../../llm/models.js';
import type { Platform } from '../../llm/platforms.js';
import { readWhole } from '../../llm/response.js';
import type { ChatRequest, LlmClient, PlatformClient, StreamEvent } from '../../llm/types.js';
import { quoted, ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { reasonForPerson, ToolError } from '../../tools/types.js';
import type { RunEvent } from '../events.js';
import type { CallRounds } from '../folder/job.js';
import type { BatchRecord, RunManifest } from '../folder/manifest.js';
import { AnswerStore } from './answer-store.js';
import { type Chunk, RoundFiles, sealed } from './round-files.js';
import { type Answer, batchEvent, collectAnswers, pollJobs, recordJob } from './round-jobs.js';

/** Once every running file waits, a moment for calls made at the same time to join the round. */
const SETTLE_MS = 50;
/** Some files neither wait nor end (a long tool, a pool paused): the round goes without them. */
const IDLE_MS = 10_000;
/** Files that work at once between rounds (read, build requests, run tools, write). */
const WORKING = 8;

export interface RoundsOptions {
  api: BatchApi;
  /** Builds each request's body exactly as an online call would send it. */
  client: PlatformClient;
  store: AnswerStore;
  manifest: RunManifest;
  skill: string;
  /** Where the run was started and writes (for `zhi batch results` from anywhere). */
  place: { cwd: string; outputDir: string };
  mode: 'auto' | 'approve';
  /** The run's `--jobs`, kept with its jobs for `zhi batch results`. */
  jobs?: number;
  limits?: { bytes?: number; lines?: number };
  pollMs: number;
  signal: AbortSignal;
  platform: Platform;
  /** Files this run will start: a round waits until each has started (or a while has passed). */
  expected: number;
}

type Waiter = (a: Answer | undefined) => void;

export class BatchRounds implements CallRounds {
  /** Where events go while the files run (the pool's stream). */
  emit: (ev: RunEvent) => void = () => undefined;
  /** What the batch price saved against the online price of the same calls. */
  saved = 0;
  /** Input files at least one of whose calls was answered by a job. */
  readonly batched = new Set<string>();
  /** Calls waiting per running file. */
  private readonly pending = new Map<string, number>();
  /** Running files with no call waiting. */
  private idle = 0;
  private entered = 0;
  private waiters = new Map<string, Waiter[]>();
  /** Input lines made and not yet written (only while the store is asked for an earlier answer). */
  private readonly lines = new Map<string, string>();
  /** Files working now (not waiting for a round); callbacks of files waiting for a place. */
  private readonly working = new Set<string>();
  private readonly room: (() => void)[] = [];
  private inFlight = false;
  private round = 0;
  private timer: NodeJS.Timeout | undefined;
  private broken: ZhiError | undefined;
  /** The next round's input files, written as its calls are queued. */
  private readonly files: RoundFiles;
  /** Files whose first call waits in a round without them (their run ended): its answer. */
  private readonly deferred = new Map<string, Promise<Answer | undefined>>();
  /** Files that already let go of a call once: a later call of theirs waits like any other. */
  private readonly wentOnce = new Set<string>();
  /** Answers a round gave for a let-go call that the store does not keep (made online instead). */
  private readonly early = new Map<string, Answer>();

  constructor(private readonly o: RoundsOptions) {
    const limits = {
      bytes: o.limits?.bytes ?? BATCH_MAX_BYTES,
      lines: o.limits?.lines ?? BATCH_MAX_REQUESTS,
    };
    this.files = new RoundFiles({ dir: o.store.dir, skill: o.skill, limits });
    // Ctrl+C: the waiting calls end as interrupted; a submitted job stays in the run record.
    o.signal.addEventListener('abort', () => this.abandon(), { once: true });
  }

  get store(): AnswerStore {
    return this.o.store;
  }

  /**
   * A file of the run starts (again). Files work a few at a time: a file reads its document and
   * builds its request, or goes on from an answer, and makes room for the next once its next call
   * waits in a round (so what a step needs for a moment is needed by a few files at once, not by
   * thousands), and the waiting files hold only their conversations (or nothing: `resume`).
   */
  async enter(rel: string): Promise<void> {
    await this.acquire(rel);
    this.pending.set(rel, 0);
    this.idle += 1;
    this.entered += 1;
    this.schedule();
  }

  /** A file of the run ended (however). */
  leave(rel: string): void {
    const n = this.pending.get(rel);
    if (n === 0) this.idle -= 1;
    this.pending.delete(rel);
    this.release(rel);
    this.schedule();
  }

  /** A place among the files working now (a file already working keeps its own). */
  private async acquire(rel: string): Promise<void> {
    while (!this.working.has(rel) && this.working.size >= WORKING && !this.o.signal.aborted)
      await new Promise<void>((resolve) => this.room.push(resolve));
    this.working.add(rel);
  }

  /** A file waits for an answer, or ended: the next one may work. */
  private release(rel: string): void {
    if (this.working.delete(rel)) this.room.shift()?.();
  }

  /**
   * The model as one file's run sees it: answers from the rounds, `online` for what they cannot
   * answer. `replayable` says the run has done nothing yet that a second start would repeat (no
   * tool, no paid reading, nothing said): its first call then lets the run go (see `resume`).
   */
  client(rel: string, online: LlmClient, replayable?: () => boolean): LlmClient {
    return { stream: (req) => this.answer(rel, req, online, replayable?.() ?? false) };
  }

  /**
   * A file whose run let go of its first call: wait (holding nothing) until the round has answered
   * it, and take a working place again: the run is started again, and its first call is answered
   * from the store.
   */
  async resume(rel: string): Promise<void> {
    const answer = this.deferred.get(rel);
    this.deferred.delete(rel);
    await answer;
    await this.acquire(rel);
  }

  /** Whether the file's run let go of its first call (and is to be started again after `resume`). */
  letGo(rel: string): boolean {
    return this.deferred.has(rel);
  }

  private async *answer(
    rel: string,
    req: ChatRequest,
    online: LlmClient,
    replayable: boolean,
  ): AsyncGenerator<StreamEvent> {
    // The request's JSON is not kept while the call waits (thousands wait at once): only its key.
    const key = this.prepare(req);
    const kept = await this.o.store.get(key);
    const early = this.early.get(key);
    this.early.delete(key);
    if (kept || early) this.lines.delete(key);
    // A first call, before anything that a new start would repeat: the run itself need not wait
    // (its conversation, with the whole document, would be held until the round answers).
    if (!kept && !early && replayable && !this.wentOnce.has(rel) && firstCall(req)) {
      this.wentOnce.add(rel);
      const answer = this.ask(rel, key).then((a) => {
        if (a && !a.ok) this.early.set(key, a);
        return a;
      });
      this.deferred.set(rel, answer);
      const error = { kind: 'server' as const, message: 'waits for its batch round', retryable: false };
      yield { type: 'error', error, partial: { role: 'assistant', content: '' } };
      return;
    }
    const a = kept ? ({ ok: true, body: kept } as const) : (early ?? (await this.ask(rel, key)));
    if (!a) {
      yield { type: 'error', error: abortedError(), partial: { role: 'assistant', content: '' } };
      return;
    }
    await this.acquire(rel);
    if (!a.ok) {
      if (a.error) throw a.error;
      // The job could not answer this call (a failed line, an expired job): it is made online.
      yield* online.stream(req);
      return;
    }
    this.batched.add(rel);
    for (const ev of readWhole(a.body, new MessageAccumulator(), req.model)) {
      if ((ev.type === 'done' || ev.type === 'error') && ev.usage) {
        const usage = { ...ev.usage, batch: true };
        const full = costOf(req.model, ev.usage, this.o.platform).amount;
        this.saved += full - costOf(req.model, usage, this.o.platform).amount;
        yield { ...ev, usage };
      } else yield ev;
    }
  }

  /** The request's input line, held until it is written or answered from the store; its key. */
  private prepare(req: ChatRequest): string {
    const { stream: _stream, request_id: _id, ...body } = this.o.client.body(req, false);
    const json = JSON.stringify(body);
    // The same call made again (a later run) is known by its content, not by its random id.
    const key = AnswerStore.keyOf(json);
    this.lines.set(
      key,
      `{"custom_id":"zhi-${key}","method":"POST","url":"${BATCH_ENDPOINT}","body":${json}}\n`,
    );
    return key;
  }

  /** Queue one call for the next round; its answer when the round has it (undefined: interrupted). */
  private ask(rel: string, key: string): Promise<Answer | undefined> {
    const line = this.lines.get(key);
    this.lines.delete(key);
    if (this.o.signal.aborted) return Promise.resolve(undefined);
    if (this.broken) return Promise.resolve({ ok: false, error: this.broken });
    const list = this.waiters.get(key);
    if (!list) {
      // Larger than any input file may be: this call is made online.
      if (!line || !this.files.add(line, key, rel, this.round + 1)) return Promise.resolve({ ok: false });
    }
    const answer = new Promise<Answer | undefined>((resolve) => {
      if (list) list.push(resolve);
      else this.waiters.set(key, [resolve]);
    });
    this.bump(rel, 1);
    this.release(rel);
    return answer.finally(() => this.bump(rel, -1));
  }

  private bump(rel: string, by: number): void {
    const n = this.pending.get(rel);
    if (n !== undefined) {
      const next = n + by;
      if (n === 0 && next > 0) this.idle -= 1;
      if (n > 0 && next === 0) this.idle += 1;
      this.pending.set(rel, next);
    }
    this.schedule();
  }

  /** When every running file waits (after a moment), or nothing has moved for a while: submit. */
  private schedule(): void {
    if (this.inFlight || !this.waiters.size || this.o.signal.aborted) return;
    clearTimeout(this.timer);
    const ready = this.entered >= this.o.expected && this.idle === 0;
    this.timer = setTimeout(
      () => {
        if (!this.inFlight && this.waiters.size && !this.o.signal.aborted) void this.flush();
      },
      ready ? SETTLE_MS : IDLE_MS,
    );
  }

  /** One round: submit the queued calls, wait for their jobs, hand every waiting call its answer. */
  private async flush(): Promise<void> {
    this.inFlight = true;
    this.round += 1;
    const chunks = this.files.take();
    const waiters = this.waiters;
    this.waiters = new Map();
    let answers = new Map<string, Answer>();
    try {
      const rec = await this.submit(chunks);
      const jobs = await pollJobs(this.o, rec, this.emit);
      if (jobs) answers = await collectAnswers(this.o, rec, jobs, this.emit);
    } catch (err) {
      this.broken =
        err instanceof ZhiError
          ? err
          : new ZhiError({
              kind: 'internal',
              what: { key: 'batch.err.round' },
              why: err instanceof ToolError ? reasonForPerson(err) : quoted(String(err), 'cli.by.program'),
            });
    } finally {
      for (const c of chunks) await rm(c.path, { force: true }).catch(() => undefined);
      const aborted = this.o.signal.aborted;
      for (const [key, list] of waiters) {
        const a = aborted
          ? undefined
          : (answers.get(key) ?? { ok: false, ...(this.broken ? { error: this.broken } : {}) });
        for (const resolve of list) resolve(a);
      }
      this.inFlight = false;
      this.schedule();
    }
  }

  /** Upload each input file and create its job, each recorded in the run record as soon as it exists. */
  private async submit(chunks: Chunk[]): Promise<BatchRecord> {
    let rec: BatchRecord | undefined;
    for (const c of chunks) {
      const upload = await this.o.api.uploadPrepared(await sealed(c), c.boundary, this.o.signal);
      await rm(c.path, { force: true });
      const meta = { zhi_skill: this.o.skill, zhi_folder: this.o.manifest.data.folder };
      const job = await this.o.api.create(upload.id, meta, this.o.signal);
      rec = await recordJob(this.o, this.round, { rec, job, requests: c.requests });
      this.emit(
        batchEvent(this.o.skill, 'submitted', job.id, {
          status: job.status,
          total: c.lines,
          round: this.round,
        }),
      );
    }
    return rec!;
  }

  /**
   * The jobs' answers are used up once every file of the run is written; until then they are kept
   * (with the last job in the run record), so a later run — with --auto, say — writes the rest from
   * them without paying again. `rels`: the run's files (folder-relative names).
   */
  async *finish(manifest: RunManifest, rels: readonly string[], aborted: boolean): AsyncGenerator<RunEvent> {
    if (aborted) return;
    const open = rels.filter((rel) => manifest.entry(rel)?.status !== 'done');
    if (!open.length) {
      await manifest.setBatch(undefined);
      await this.store.discard().catch(() => undefined);
    } else if (manifest.data.batch)
      yield {
        type: 'warning',
        message: t('runs.batchKept', { id: manifest.data.batch.id, count: open.length }),
      };
  }

  /** Interrupted: nothing more is submitted, the queued calls end as interrupted. */
  private abandon(): void {
    clearTimeout(this.timer);
    this.files.close();
    for (const resolve of this.room.splice(0)) resolve();
    if (this.inFlight) return; // the round in flight answers its calls itself
    for (const list of this.waiters.values()) for (const resolve of list) resolve(undefined);
    this.waiters.clear();
  }
}

/** The run's first call: nothing but its instructions and the person's message so far. */
function firstCall(req: ChatRequest): boolean {
  return req.messages.every((m) => m.role === 'system' || m.role === 'user');
}
