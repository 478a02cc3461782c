import { t } from '../../support/i18n/index.js';
import { displayPath } from '../../tools/paths.js';
import type { PlannedWrite } from '../../tools/types.js';
import { type AgentResult, emptyResult, type RunEvent } from '../events.js';
import { type CallGate, gated } from './call-gate.js';
import type { FileStatus, FolderCounts, FolderEvent, SkippedFiles } from './events.js';
import { classify, runOne, withFinally } from './file-run.js';
import { type FileResult, finishFolder, reasonOf } from './folder-end.js';
import { type FolderScan, relIn, scanFolder } from './folder-scan.js';
import type { CallRounds, FileSetup, FolderJob } from './job.js';
import { outputWrite, removeLeftovers } from './leftovers.js';
import { fingerprint, manifestPath, RunManifest } from './manifest.js';
import { endOnDisk } from './on-disk.js';
import { type PoolControl, poolEvents } from './pool.js';
import { clashesShown, planOutputs } from './preflight.js';
import { RunLock } from './run-lock.js';
import { checkWritten, WriteLog } from './written.js';

/** Pieces of one file (a long document's parts, a composite's steps) at once in a batch round. */
const ROUND_JOBS = 10_000;

/**
 * A folder given where the work (a skill) takes one file: run it on every file, `jobs` at once
 * (adapting to the API's limits), record each file in the run's manifest as it ends, skip files
 * an earlier run finished, and answer with every file's result in folder order.
 */
export async function* runFolder(
  job: FolderJob,
  dir: string,
  files: string[],
  skipped?: SkippedFiles,
): AsyncGenerator<RunEvent, AgentResult> {
  const o = job.options;
  // One run per folder: the lock is taken before the record is read (a dry run changes nothing).
  const lock = o.dryRun
    ? undefined
    : await RunLock.take(recordPath(job, dir), {
        wait: o.wait,
        signal: job.signal,
        folder: displayPath(job.cwd, dir),
      });
  try {
    return yield* runLocked({ job, dir, files, ...(skipped ? { skipped } : {}) });
  } finally {
    await lock?.release();
  }
}

/** Where the run record of this work on this folder lives, in the run's output folder. */
function recordPath(job: FolderJob, dir: string): string {
  return manifestPath(job.outputDir, job.name, dir);
}

async function* runLocked(s: FolderSetup): AsyncGenerator<RunEvent, AgentResult> {
  const { job } = s;
  const folder = await FolderRun.open(s);
  if (job.options.dryRun) return await job.dryRun(s.files, folder.todo);
  // Every write would be refused after its call was paid: said before the first one.
  const refused = folder.todo.length ? job.writesRefused() : undefined;
  if (refused) throw refused;
  yield* folder.announce();
  const stale = folder.manifest.data.batch;
  if (stale && !folder.todo.length) {
    // A job whose files were all done since, without it: said plainly, and no longer tracked.
    yield { type: 'warning', message: t('batch.notNeeded', { id: stale.id }) };
    await folder.manifest.setBatch(undefined);
  }
  // --batch: every model call of every file is answered by Batch API jobs, in rounds (or by the
  // job an earlier run submitted).
  let rounds: CallRounds | undefined;
  if ((job.options.batch || folder.manifest.data.batch) && folder.todo.length) {
    const { manifest, todo } = folder;
    rounds = yield* job.startRounds(manifest, todo.length);
    if (!rounds) {
      yield { type: 'warning', message: t('batch.interrupted', { id: manifest.data.batch?.id ?? '' }) };
      return emptyResult('aborted');
    }
  }
  return yield* folder.process(rounds);
}

interface FolderSetup {
  job: FolderJob;
  dir: string;
  files: string[];
  /** Files of the folder left out (empty, other kinds): named at the start and counted at the end. */
  skipped?: SkippedFiles;
}

type Emit = (ev: RunEvent) => void;

/** One folder run under way: its manifest, the files to do, the counts so far. */
class FolderRun {
  private readonly base: number;
  /** The model calls through the run's one budget (set when the pool starts). */
  private gated: { llm: FolderJob['llm']; calls: CallGate } | undefined;
  /** --batch: the rounds that answer every model call. */
  private rounds: CallRounds | undefined;
  /** Inputs redone whose earlier outputs are replaced (said once up front, not per file). */
  readonly replacing: Set<string>;
  /** Files done by an earlier run whose outputs are no longer on disk: done again. */
  private readonly lost: number;
  readonly todo: number[];
  private readonly counts: FolderCounts;

  private constructor(
    private readonly s: FolderSetup,
    readonly manifest: RunManifest,
    scan: FolderScan,
    /** Where each file's outputs go (its subfolder mirrored), and the clashes found before any call. */
    private readonly outputs: ReturnType<typeof planOutputs>,
  ) {
    this.base = s.job.usage.cost().amount;
    ({ todo: this.todo, counts: this.counts, replacing: this.replacing, lost: this.lost } = scan);
  }

  /** Open (or start) the manifest and pick the files still to do. */
  static async open(s: FolderSetup): Promise<FolderRun> {
    const { job, files } = s;
    const manifest = await RunManifest.open(recordPath(job, s.dir), {
      skill: job.name,
      skillHash: job.hash,
      model: job.recordModel,
      folder: displayPath(job.cwd, s.dir),
      currency: job.usage.platform.currency,
    });
    const scan = await scanFolder({
      ...{ dir: s.dir, files, manifest, force: job.options.force, dryRun: job.options.dryRun },
      out: { dir: job.outputDir, promised: job.promisesFile },
    });
    return new FolderRun(s, manifest, scan, planOutputs(s.dir, files));
  }

  private show(abs: string): string {
    return displayPath(this.s.job.cwd, abs);
  }

  relOf(abs: string): string {
    return relIn(this.s.dir, abs);
  }

  private spent(): number {
    return this.s.job.usage.cost().amount - this.base;
  }

  /** Which skill runs on which model, said once, then how many files and how many at once. */
  *announce(): Generator<RunEvent> {
    const { job } = this.s;
    yield { type: 'skill_start', skill: job.name, model: job.model, depth: job.depth };
    yield {
      type: 'folder_start',
      skill: job.name,
      counts: { ...this.counts },
      todo: this.todo.length,
      jobs: Math.min(job.options.jobs, Math.max(1, this.todo.length)),
      manifest: this.show(this.manifest.path),
      skillChanged: this.manifest.skillChanged,
      currency: job.usage.platform.currency,
      ...(this.replacing.size ? { replacing: this.replacing.size } : {}),
      ...(this.lost ? { lost: this.lost } : {}),
      ...(this.outputs.clashes.length ? { clashes: clashesShown(this.outputs.clashes) } : {}),
      ...(this.s.skipped ? { skipped: this.s.skipped } : {}),
    } satisfies FolderEvent;
  }

  /** Run the files still to do in the pool, then say how the folder ended. */
  async *process(rounds: CallRounds | undefined): AsyncGenerator<RunEvent, AgentResult> {
    const { job, files } = this.s;
    const o = job.options;
    this.rounds = rounds;
    // One budget of calls at once for the whole run, shared with nested runs (parts, steps).
    const { rt, gate, own } = gated({ llm: job.llm, calls: job.calls, signal: job.signal }, o.jobs);
    const legacy = import('../../tools/files/readers/legacy.js');
    // Old Office files are converted together, ahead: one LibreOffice start for the run (their
    // conversion is only started here; the files' own readings wait for it).
    await legacy
      .then((m) =>
        m.prefetchLegacy(
          this.todo.map((i) => files[i]!),
          rt.signal,
        ),
      )
      .catch(() => {});
    this.gated = { llm: rt.llm, calls: gate };
    const pool = poolEvents(
      this.todo,
      (emit: Emit) => {
        if (rounds) rounds.emit = emit;
        return {
          work: (i: number, _n: number, ctl: PoolControl) => this.file(i, ctl, emit),
          onStart: (n: number) => this.fileEvent(emit, this.todo[n]!, 'started'),
          onPause: (ms: number, why: 'network' | 'server') => emit(this.waitEvent('paused', ms, why)),
          // Waiting for a batch job takes no place in the API's concurrency: only online calls do.
          onLimit: (n: number) => (rounds || !own ? undefined : gate.setLimit(n)),
          onResume: () => emit(this.waitEvent('resumed')),
        };
      },
      {
        // A batch run starts every file at once: each round holds every file's next call.
        jobs: rounds ? Math.max(1, this.todo.length) : o.jobs,
        signal: rt.signal,
        // A batch run's calls wait for a job, not the API's cap.
        caps: rounds ? undefined : gate,
        pauseMs: o.pauseMs,
        maxPauseMs: Math.max(o.pauseMs, 60_000),
      },
    );
    const recheck = {
      ...{ files, todo: this.todo, manifest: this.manifest, counts: this.counts },
      ...{
        outputDir: job.outputDir,
        relOf: (a: string) => this.relOf(a),
        show: (a: string) => this.show(a),
      },
    };
    const { outcomes, stats } = yield* withFinally(endOnDisk(pool, recheck), async () => {
      void legacy.then((m) => m.dropPrefetched()).catch(() => {});
      await this.manifest.close().catch(() => undefined);
    });
    if (rounds) {
      const open = this.todo.map((i) => this.relOf(files[i]!));
      yield* rounds.finish(this.manifest, open, rt.signal.aborted);
    }
    const end = finishFolder({
      skill: job.name,
      currency: job.usage.platform.currency,
      files,
      todo: this.todo,
      outcomes,
      stopped: stats.stopped,
      aborted: rt.signal.aborted,
      manifest: this.manifest,
      counts: this.counts,
      spent: this.spent(),
      ...(rounds?.saved ? { saved: rounds.saved } : {}),
      show: (abs) => this.show(abs),
      relOf: (abs) => this.relOf(abs),
      ...(this.s.skipped ? { skipped: this.s.skipped } : {}),
    });
    yield end.event;
    return end.result;
  }

  private waitEvent(phase: 'paused' | 'resumed', ms?: number, why?: 'network' | 'server'): FolderEvent {
    const { name } = this.s.job;
    return { type: 'folder_wait', skill: name, phase, ...(ms ? { ms } : {}), ...(why ? { why } : {}) };
  }

  private fileEvent(
    emit: Emit,
    index: number,
    status: FileStatus,
    extra = {},
    snapshot: FolderCounts = { ...this.counts },
  ): void {
    emit({
      type: 'folder_file',
      skill: this.s.job.name,
      file: this.show(this.s.files[index]!),
      index,
      status,
      counts: snapshot,
      spent: this.spent(),
      ...extra,
    } satisfies FolderEvent);
  }

  /**
   * What one file's run is given: its calls through the run's gate (with --batch, the rounds:
   * a long document's parts and a composite's steps all at once, one round each), and every file
   * it is about to write goes into the manifest first (so a kill at any point leaves a record).
   */
  private fileSetup(i: number, log: WriteLog, replayable: () => boolean): Omit<FileSetup, 'usage'> {
    const rel = this.relOf(this.s.files[i]!);
    // Set when the pool starts, before the first file.
    const { llm, calls } = this.gated!;
    const outputDir = this.s.job.outputDir;
    const beforeWrite = async (w: PlannedWrite) => {
      log.planned.push(w);
      const out = await outputWrite(outputDir, w);
      if (out) await this.manifest.writing(rel, out);
    };
    return {
      place: this.outputs.places[i]!,
      calls,
      llm: this.rounds ? this.rounds.client(rel, llm, replayable) : llm,
      ...(this.rounds ? { jobs: ROUND_JOBS } : {}),
      beforeWrite,
    };
  }

  /** Before a file is done again: remove what an unfinished or failed attempt wrote, and say so. */
  private async clearLeftovers(i: number, emit: Emit): Promise<void> {
    const rel = this.relOf(this.s.files[i]!);
    const left = this.manifest.leftovers(rel);
    if (!left.length) return;
    const removed = await removeLeftovers(this.s.job.outputDir, left);
    await this.manifest.cleared(rel);
    if (removed.length && !this.replacing.has(rel))
      this.fileEvent(emit, i, 'cleaned', { outputs: removed.map((p) => this.show(p)) });
  }

  /** One file, start to end: run it, count it, record it in the manifest, report it. */
  private async file(i: number, ctl: PoolControl, emit: Emit) {
    const rel = this.relOf(this.s.files[i]!);
    await this.rounds?.enter(rel);
    try {
      return await this.fileRun(i, ctl, emit);
    } finally {
      this.rounds?.leave(rel);
    }
  }

  private async fileRun(i: number, ctl: PoolControl, emit: Emit) {
    const { job } = this.s;
    const file = this.s.files[i]!;
    const fp = await fingerprint(file).catch(() => undefined);
    const rel = this.relOf(file);
    await this.clearLeftovers(i, emit);
    const log = new WriteLog();
    let r: FileResult | undefined;
    // --batch: a run whose first call let go of it (nothing done yet that a new start repeats)
    // holds nothing while the round runs, and starts again once its answer is in the store.
    for (;;) {
      let quiet = true;
      const setup = this.fileSetup(i, log, () => quiet);
      r = await runOne((usage) => job.runFile(file, { ...setup, usage }), job, {
        ctl,
        forward: emit,
        log,
        part: (part) => this.fileEvent(emit, i, 'part', { part }),
        seen: (ev) => {
          if (ev.type !== 'skill_start' && ev.type !== 'turn_start') quiet = false;
        },
      });
      if (!this.rounds?.letGo(rel)) break;
      r = undefined; // its error's stack holds the conversation that was let go
      await this.rounds.resume(rel);
      // Interrupted meanwhile: not started again only to stop.
      if (job.signal.aborted) {
        r = { result: emptyResult('aborted'), cost: 0, outputs: [] };
        break;
      }
    }
    // Stopped by Ctrl+C: whatever the file's run said as it was cut off (a reader's "damaged"), it was interrupted.
    if (job.signal.aborted && r.result?.stopReason !== 'answer')
      r = { result: emptyResult('aborted'), cost: r.cost, outputs: [] };
    const written = await checkWritten(r, log, {
      outputDir: job.outputDir,
      mode: job.mode,
      promised: job.promisesFile,
      show: (abs) => this.show(abs),
    });
    const attempt = classify(r);
    if (attempt.kind === 'retry') {
      this.fileEvent(emit, i, 'retry', { reason: reasonOf(r), pushBack: attempt.reason });
      return attempt;
    }
    // An interrupted file is not counted or recorded: the next run does it again.
    if (r.result?.stopReason === 'aborted') return attempt;
    const done = attempt.kind === 'done';
    if (done) this.counts.done += 1;
    else this.counts.failed += 1;
    // The counts as this file ended (others may end while the manifest is written).
    const snapshot = { ...this.counts };
    if (fp) {
      await this.manifest.record(rel, {
        ...fp,
        status: done ? 'done' : 'failed',
        outputs: r.outputs,
        written,
        text: r.result?.text ?? '',
        cost: r.cost,
        ...(this.rounds?.batched.has(rel) ? { batch: true } : {}),
        ...(done ? {} : { error: reasonOf(r) }),
      });
    }
    const ended = { cost: r.cost, outputs: r.outputs, ...(done ? {} : { reason: reasonOf(r) }) };
    this.fileEvent(emit, i, done ? 'done' : 'failed', ended, snapshot);
    return attempt;
  }
}
