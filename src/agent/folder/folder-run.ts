import { relative } from 'node:path';
import { skillModel } from '../../skills/resolve.js';
import { t } from '../../support/i18n/index.js';
import { displayPath } from '../../tools/paths.js';
import type { PlannedWrite } from '../../tools/types.js';
import { endRounds, type FolderInputs, type RunFn, startRounds } from '../batch-api/batch-run.js';
import type { BatchRounds } from '../batch-api/rounds.js';
import { type AgentResult, emptyResult, type RunEvent } from '../events.js';
import { dryRunFolder } from '../skills/dry-run.js';
import type { SkillRunRequest, SkillRuntime } from '../skills/run.js';
import { gated } from './call-gate.js';
import type { FileStatus, FolderCounts, FolderEvent, SkippedFiles } from './events.js';
import { classify, runOne, withFinally } from './file-run.js';
import { type FileResult, finishFolder, reasonOf } from './folder-end.js';
import { type FolderOptions, folderOptions, manifestPathOf, runOutputDir } from './folder-options.js';
import { type FolderScan, relIn, scanFolder } from './folder-scan.js';
import { outputWrite, removeLeftovers } from './leftovers.js';
import { fingerprint, RunManifest } from './manifest.js';
import { endOnDisk } from './on-disk.js';
import { type PoolControl, poolEvents } from './pool.js';
import { clashesShown, placed, planOutputs, writesRefused } from './preflight.js';
import { RunLock } from './run-lock.js';
import { checkWritten, WriteLog } from './written.js';

/** Pieces of one file (a long document's parts, a composite's steps) at once in a batch round. */
const ROUND_JOBS = 10_000;

/**
 * A folder given where the skill takes one file: run the whole skill on every file, `jobs` at
 * once (adapting to the API's limits), record each file in the run's manifest as it ends, skip
 * files an earlier run finished, and answer with every file's result in folder order.
 */
export async function* runFolder(
  run: RunFn,
  req: SkillRunRequest,
  rt: SkillRuntime,
  argName: string,
  dir: string,
  files: string[],
  skipped?: SkippedFiles,
): AsyncGenerator<RunEvent, AgentResult> {
  const o = folderOptions(rt);
  // One run per folder: the lock is taken before the record is read (a dry run changes nothing).
  const lock = o.dryRun
    ? undefined
    : await RunLock.take(manifestPathOf(req, rt, dir), {
        wait: o.wait,
        signal: rt.signal,
        folder: displayPath(rt.cwd, dir),
      });
  try {
    return yield* runLocked({ run, req, rt, argName, dir, files, o, ...(skipped ? { skipped } : {}) });
  } finally {
    await lock?.release();
  }
}

async function* runLocked(s: FolderSetup): AsyncGenerator<RunEvent, AgentResult> {
  const { run, req, rt, argName, dir, files, o } = s;
  const folder = await FolderRun.open(s);
  if (o.dryRun) return await dryRunFolder({ run, req, rt, argName, files, todo: folder.todo });
  // Every write would be refused after its call was paid: said before the first one.
  const refused = folder.todo.length ? writesRefused(req.skill, rt) : undefined;
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
  let rounds: BatchRounds | undefined;
  if ((o.batch || folder.manifest.data.batch) && folder.todo.length) {
    const { manifest, todo } = folder;
    rounds = yield* startRounds({
      ...{ run, req, rt, argName, dir, files, todo, manifest, pollMs: o.pollMs },
      ...(o.batchLimits ? { limits: o.batchLimits } : {}),
    });
    if (!rounds) {
      yield { type: 'warning', message: t('batch.interrupted', { id: manifest.data.batch?.id ?? '' }) };
      return emptyResult('aborted');
    }
  }
  return yield* folder.process(rounds);
}

interface FolderSetup extends FolderInputs {
  o: FolderOptions;
  /** Files of the folder left out (empty, other kinds): named at the start and counted at the end. */
  skipped?: SkippedFiles;
}

type Emit = (ev: RunEvent) => void;

/** One folder run under way: its manifest, the files to do, the counts so far. */
class FolderRun {
  private readonly base: number;
  /** The runtime whose model calls pass through the run's one budget (set when the pool starts). */
  private gated: SkillRuntime | undefined;
  /** --batch: the rounds that answer every model call. */
  private rounds: BatchRounds | undefined;
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
    this.base = s.req.usage.cost().amount;
    ({ todo: this.todo, counts: this.counts, replacing: this.replacing, lost: this.lost } = scan);
  }

  /** Open (or start) the manifest and pick the files still to do. */
  static async open(s: FolderSetup): Promise<FolderRun> {
    const { req, rt, files } = s;
    const skill = req.skill;
    const manifest = await RunManifest.open(manifestPathOf(req, rt, s.dir), {
      skill: skill.name,
      skillHash: skill.hash,
      model: req.model ?? skill.model ?? rt.skillModel,
      folder: displayPath(rt.cwd, s.dir),
      currency: req.usage.platform.currency,
    });
    const scan = await scanFolder({
      ...{ dir: s.dir, files, manifest, force: s.o.force, dryRun: s.o.dryRun },
      out: { dir: runOutputDir(req, rt), promised: skill.answerIsFile === true },
    });
    return new FolderRun(s, manifest, scan, planOutputs(s.dir, files));
  }

  private show(abs: string): string {
    return displayPath(this.s.rt.cwd, abs);
  }

  relOf(abs: string): string {
    return relIn(this.s.dir, abs);
  }

  private spent(): number {
    return this.s.req.usage.cost().amount - this.base;
  }

  /** Which skill runs on which model, said once, then how many files and how many at once. */
  *announce(): Generator<RunEvent> {
    const { req, rt, o } = this.s;
    const skill = req.skill;
    const model = skillModel(skill, {
      override: req.model,
      configured: rt.skillModel,
      custom: rt.platform.id === 'custom',
    });
    yield { type: 'skill_start', skill: skill.name, model, depth: (req.chain?.length ?? 0) + 1 };
    yield {
      type: 'folder_start',
      skill: skill.name,
      counts: { ...this.counts },
      todo: this.todo.length,
      jobs: Math.min(o.jobs, Math.max(1, this.todo.length)),
      manifest: this.show(this.manifest.path),
      skillChanged: this.manifest.skillChanged,
      currency: req.usage.platform.currency,
      ...(this.replacing.size ? { replacing: this.replacing.size } : {}),
      ...(this.lost ? { lost: this.lost } : {}),
      ...(this.outputs.clashes.length ? { clashes: clashesShown(this.outputs.clashes) } : {}),
      ...(this.s.skipped ? { skipped: this.s.skipped } : {}),
    } satisfies FolderEvent;
  }

  /** Run the files still to do in the pool, then say how the folder ended. */
  async *process(rounds: BatchRounds | undefined): AsyncGenerator<RunEvent, AgentResult> {
    const { req, o, files } = this.s;
    this.rounds = rounds;
    // One budget of calls at once for the whole run, shared with nested runs (parts, steps).
    const { rt, gate, own } = gated(this.s.rt, o.jobs);
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
    this.gated = rt;
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
        outputDir: runOutputDir(req, rt),
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
      yield* endRounds(rounds, this.manifest, open, rt.signal.aborted);
    }
    const end = finishFolder({
      skill: req.skill.name,
      currency: req.usage.platform.currency,
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
    const { name } = this.s.req.skill;
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
      skill: this.s.req.skill.name,
      file: this.show(this.s.files[index]!),
      index,
      status,
      counts: snapshot,
      spent: this.spent(),
      ...extra,
    } satisfies FolderEvent);
  }

  /**
   * The runtime of one file's run: every file it is about to write goes into the manifest first
   * (so a kill at any point leaves a record of it), and with --batch its model calls are answered
   * by the rounds (a long document's parts and a composite's steps all at once, one round each).
   */
  private fileRuntime(rel: string, log: WriteLog, replayable: () => boolean): SkillRuntime {
    const rt = this.gated ?? this.s.rt;
    const outputDir = runOutputDir(this.s.req, rt);
    const beforeWrite = async (w: PlannedWrite) => {
      await rt.hooks?.beforeWrite?.(w);
      log.planned.push(w);
      const out = await outputWrite(outputDir, w);
      if (out) await this.manifest.writing(rel, out);
    };
    return {
      ...rt,
      ...(this.rounds
        ? { llm: this.rounds.client(rel, rt.llm, replayable), folder: { ...rt.folder, jobs: ROUND_JOBS } }
        : {}),
      hooks: { ...rt.hooks, beforeWrite },
    };
  }

  /** Before a file is done again: remove what an unfinished or failed attempt wrote, and say so. */
  private async clearLeftovers(i: number, emit: Emit): Promise<void> {
    const rel = this.relOf(this.s.files[i]!);
    const left = this.manifest.leftovers(rel);
    if (!left.length) return;
    const removed = await removeLeftovers(runOutputDir(this.s.req, this.s.rt), left);
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
    const { run, req, rt, argName } = this.s;
    const file = this.s.files[i]!;
    const fp = await fingerprint(file).catch(() => undefined);
    const rel = this.relOf(file);
    await this.clearLeftovers(i, emit);
    // A file the model's folder led to is passed on relative, so the nested run checks it again.
    const value = req.inputsFrom === 'model' ? relative(rt.cwd, file) : file;
    const request = placed(
      { ...req, values: { ...req.values, [argName]: value }, trusted: true, mustWrite: true },
      { place: this.outputs.places[i]!, file, outputDir: runOutputDir(req, rt) },
    );
    const log = new WriteLog();
    let r: FileResult | undefined;
    // --batch: a run whose first call let go of it (nothing done yet that a new start repeats)
    // holds nothing while the round runs, and starts again once its answer is in the store.
    for (;;) {
      let quiet = true;
      r = await runOne(
        run,
        request,
        this.fileRuntime(rel, log, () => quiet),
        {
          ctl,
          forward: emit,
          log,
          part: (part) => this.fileEvent(emit, i, 'part', { part }),
          seen: (ev) => {
            if (ev.type !== 'skill_start' && ev.type !== 'turn_start') quiet = false;
          },
        },
      );
      if (!this.rounds?.letGo(rel)) break;
      r = undefined; // its error's stack holds the conversation that was let go
      await this.rounds.resume(rel);
      // Interrupted meanwhile: not started again only to stop.
      if (rt.signal.aborted) {
        r = { result: emptyResult('aborted'), cost: 0, outputs: [] };
        break;
      }
    }
    // Stopped by Ctrl+C: whatever the file's run said as it was cut off (a reader's "damaged"), it was interrupted.
    if (rt.signal.aborted && r.result?.stopReason !== 'answer')
      r = { result: emptyResult('aborted'), cost: r.cost, outputs: [] };
    const written = await checkWritten(r, log, {
      outputDir: runOutputDir(this.s.req, this.s.rt),
      mode: this.s.rt.mode,
      promised: this.s.req.skill.answerIsFile === true,
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
