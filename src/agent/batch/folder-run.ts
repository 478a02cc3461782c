import { relative, resolve, sep } from 'node:path';
import type { ChunkJson } from '../../llm/response.js';
import { UsageTracker } from '../../llm/usage.js';
import { skillModel } from '../../skills/resolve.js';
import { ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { displayPath } from '../../tools/paths.js';
import type { AgentResult, RunEvent } from '../events.js';
import type { SkillRunRequest, SkillRuntime } from '../skills/run.js';
import { batchPhase } from './batch-run.js';
import { Channel } from './channel.js';
import { PrimedClient } from './clients.js';
import { dryRunFolder } from './dry-run.js';
import type { FolderCounts, FolderEvent } from './events.js';
import { fingerprint, manifestPath, RunManifest } from './manifest.js';
import { type Attempt, DEFAULT_JOBS, type PoolControl, runPool } from './pool.js';
import { pushAll } from '../../support/arrays.js';

/** How a folder run goes; every field has a default (`zhi run` sets them from its flags). */
export interface FolderOptions {
  /** Files at once (`--jobs`). */
  jobs: number;
  /** Redo files an earlier run finished (`--force`). */
  force: boolean;
  /** First pause after a 1305 overload (tests make it short). */
  pauseMs: number;
  /** Send every file's first model call through the Batch API (`--batch`). */
  batch: boolean;
  /** How often a batch job's status is asked for. */
  pollMs: number;
  /** Say what would be processed and what it would cost; send nothing (`--dry-run`). */
  dryRun: boolean;
}

/** runSkill, passed in (folder runs start skill runs themselves, and run.ts uses them). */
type RunFn = (req: SkillRunRequest, rt: SkillRuntime) => AsyncGenerator<RunEvent, AgentResult>;

/** One file's end as the pool sees it. */
interface FileResult {
  result?: AgentResult;
  error?: ZhiError;
  cost: number;
  outputs: string[];
}

/** The output folder of a run, decided as runSkill decides it. */
export function runOutputDir(req: SkillRunRequest, rt: SkillRuntime): string {
  return req.outputDir ?? rt.outputFolder(req.skill.output.directory);
}

/** The error kinds after which no other file should start: they would all fail the same way. */
const STOP_KINDS = new Set(['balance', 'auth', 'budget', 'config']);

function classify(r: FileResult): Attempt<FileResult> {
  const err = r.error ?? r.result?.error;
  if (r.result?.stopReason === 'answer') return { kind: 'done', value: r };
  if (err?.kind === 'rate_limit') return { kind: 'retry', reason: 'rate_limit', value: r };
  if (err?.kind === 'overloaded') return { kind: 'retry', reason: 'overloaded', value: r };
  if (err && STOP_KINDS.has(err.kind)) return { kind: 'stop', value: r };
  if (r.result?.stopReason === 'budget') return { kind: 'stop', value: r };
  return { kind: 'failed', value: r };
}

function reasonOf(r: FileResult | undefined): string {
  const err = r?.error ?? r?.result?.error;
  if (err) return err.whyText() ? `${err.whatText()} ${err.whyText()}` : err.whatText();
  if (r?.result?.stopReason === 'turn_limit') return t('batch.reason.turnLimit');
  if (r?.result?.stopReason === 'aborted') return t('batch.reason.aborted');
  return t('batch.reason.unknown');
}

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
): AsyncGenerator<RunEvent, AgentResult> {
  const o: FolderOptions = {
    jobs: DEFAULT_JOBS,
    force: false,
    pauseMs: 2000,
    batch: false,
    pollMs: 30_000,
    dryRun: false,
    ...rt.folder,
  };
  const skill = req.skill;
  const outputDir = runOutputDir(req, rt);
  const show = (abs: string) => displayPath(rt.cwd, abs);
  const relOf = (abs: string) => relative(dir, abs).split(sep).join('/');
  const manifest = await RunManifest.open(manifestPath(outputDir, skill.name, dir), {
    skill: skill.name,
    skillHash: skill.hash,
    model: req.model ?? skill.model ?? rt.skillModel,
    folder: show(dir),
    currency: req.usage.platform.currency,
  });
  const todo: number[] = [];
  const counts: FolderCounts = { total: files.length, done: 0, failed: 0, earlier: 0 };
  for (const [i, file] of files.entries()) {
    const fresh = o.force ? 'new' : await manifest.check(relOf(file), file);
    if (fresh === 'done') counts.earlier += 1;
    else todo.push(i);
  }
  const currency = req.usage.platform.currency;
  if (o.dryRun) return await dryRunFolder({ run, req, rt, argName, files, todo });
  // Which skill runs on which model: said once, before the folder's progress.
  const model = skillModel(skill, {
    override: req.model,
    configured: rt.skillModel,
    custom: rt.platform.id === 'custom',
  });
  yield { type: 'skill_start', skill: skill.name, model, depth: (req.chain?.length ?? 0) + 1 };
  yield {
    type: 'folder_start',
    skill: skill.name,
    counts: { ...counts },
    todo: todo.length,
    jobs: Math.min(o.jobs, Math.max(1, todo.length)),
    manifest: show(manifest.path),
    skillChanged: manifest.skillChanged,
    currency,
  } satisfies FolderEvent;

  // --batch: every file's first answer comes from one Batch API job (or the one already submitted).
  let primed: Map<number, ChunkJson> | undefined;
  if ((o.batch || manifest.data.batch) && todo.length) {
    primed = yield* batchPhase({ run, req, rt, argName, dir, files, todo, manifest, pollMs: o.pollMs });
    if (!primed) {
      yield { type: 'warning', message: t('batch.interrupted', { id: manifest.data.batch?.id ?? '' }) };
      return { text: '', stopReason: 'aborted', turns: 0, toolCalls: 0, filesRead: 0, filesWritten: [] };
    }
  }

  const channel = new Channel<RunEvent>();
  const base = req.usage.cost().amount;
  const spent = () => req.usage.cost().amount - base;
  const fileEvent = (
    index: number,
    status: 'started' | 'done' | 'failed' | 'retry',
    extra = {},
    snapshot: FolderCounts = { ...counts },
  ) =>
    channel.push({
      type: 'folder_file',
      skill: skill.name,
      file: show(files[index]!),
      index,
      status,
      counts: snapshot,
      spent: spent(),
      ...extra,
    } satisfies FolderEvent);

  const work = async (i: number, _n: number, ctl: PoolControl): Promise<Attempt<FileResult>> => {
    const file = files[i]!;
    const fp = await fingerprint(file).catch(() => undefined);
    // A file the model's folder led to is passed on relative, so the nested run checks it again.
    const value = req.inputsFrom === 'model' ? relative(rt.cwd, file) : file;
    const first = primed?.get(i);
    const fileRt = first ? { ...rt, llm: new PrimedClient(rt.llm, first) } : rt;
    const r = await runOne(
      run,
      { ...req, values: { ...req.values, [argName]: value }, trusted: true },
      fileRt,
      {
        ctl,
        forward: (ev) => channel.push(ev),
      },
    );
    const attempt = classify(r);
    if (attempt.kind === 'retry') {
      fileEvent(i, 'retry', { reason: reasonOf(r) });
      return attempt;
    }
    const aborted = r.result?.stopReason === 'aborted';
    if (attempt.kind === 'done') counts.done += 1;
    else if (!aborted) counts.failed += 1;
    // The counts as this file ended (others may end while the manifest is written).
    const snapshot = { ...counts };
    // An interrupted file is not recorded: the next run does it again.
    if (fp && !aborted) {
      await manifest.record(relOf(file), {
        ...fp,
        status: attempt.kind === 'done' ? 'done' : 'failed',
        outputs: r.outputs,
        text: r.result?.text ?? '',
        cost: r.cost,
        ...(first ? { batch: true } : {}),
        ...(attempt.kind === 'done' ? {} : { error: reasonOf(r) }),
      });
    }
    if (!aborted) {
      fileEvent(
        i,
        attempt.kind === 'done' ? 'done' : 'failed',
        {
          cost: r.cost,
          outputs: r.outputs,
          ...(attempt.kind === 'done' ? {} : { reason: reasonOf(r) }),
        },
        snapshot,
      );
    }
    return attempt;
  };

  const pool = runPool(todo, (i, n, ctl) => work(i, n, ctl), {
    jobs: o.jobs,
    signal: rt.signal,
    pauseMs: o.pauseMs,
    maxPauseMs: Math.max(o.pauseMs, 60_000),
    onStart: (n) => fileEvent(todo[n]!, 'started'),
  }).finally(() => channel.close());
  pool.catch(() => undefined);
  yield* channel.drain();
  const { outcomes, stats } = await pool.finally(() => manifest.close().catch(() => undefined));
  // The job's answers are used: a later run starts afresh (the files it did are in the manifest).
  if (primed && !rt.signal.aborted) await manifest.setBatch(undefined);
  const end = finishFolder({
    req,
    rt,
    files,
    todo,
    outcomes,
    stats,
    manifest,
    counts,
    spent: spent(),
    show,
    relOf,
  });
  yield end.event;
  return end.result;
}

/** Run the skill on one file; never throws for a problem of that file (it becomes the result). */
async function runOne(
  run: RunFn,
  req: SkillRunRequest,
  rt: SkillRuntime,
  o: { ctl: PoolControl; forward: (ev: RunEvent) => void },
): Promise<FileResult> {
  // Each file counts its own cost; every call still reaches the run's tracker (ledger, session).
  const mine = new UsageTracker(req.usage.platform);
  const outputs = (r: AgentResult | undefined) =>
    (r?.filesWritten ?? []).map((f) => displayPath(rt.cwd, resolve(rt.cwd, f.path)));
  try {
    const gen = run({ ...req, usage: mine }, rt);
    let step = await gen.next();
    while (!step.done) {
      const ev = step.value;
      if (ev.type === 'usage') {
        // The session file, the ledger and the run budget learn every call from these.
        o.forward(ev);
      } else if (ev.type === 'retry') {
        if (ev.error.kind === 'rate_limit' || ev.error.kind === 'overloaded') o.ctl.pressure(ev.error.kind);
      } else if (ev.type === 'warning' || (ev.type === 'permission' && ev.decision !== 'allowed')) {
        o.forward(ev);
      }
      step = await gen.next();
    }
    return { result: step.value, cost: mine.cost().amount, outputs: outputs(step.value) };
  } catch (err) {
    if (!(err instanceof ZhiError)) throw err;
    return { error: err, cost: mine.cost().amount, outputs: [] };
  } finally {
    req.usage.merge(mine);
  }
}

function finishFolder(o: {
  req: SkillRunRequest;
  rt: SkillRuntime;
  files: string[];
  todo: number[];
  outcomes: { status: string; value?: FileResult | undefined }[];
  stats: { stopped: boolean };
  manifest: RunManifest;
  counts: FolderCounts;
  spent: number;
  show: (abs: string) => string;
  relOf: (abs: string) => string;
}): { result: AgentResult; event: FolderEvent } {
  const total: AgentResult = {
    text: '',
    stopReason: 'answer',
    turns: 0,
    toolCalls: 0,
    filesRead: 0,
    filesWritten: [],
  };
  const byFile = new Map<number, { status: string; value?: FileResult | undefined }>();
  for (const [n, fileIndex] of o.todo.entries()) byFile.set(fileIndex, o.outcomes[n]!);
  const sections: string[] = [];
  const failures: { file: string; reason: string }[] = [];
  const outputs: { file: string; outputs: string[] }[] = [];
  let stopError: ZhiError | undefined;
  let notStarted = 0;
  for (const [i, file] of o.files.entries()) {
    const name = o.show(file);
    const outcome = byFile.get(i);
    const r = outcome?.value;
    const entry = o.manifest.entry(o.relOf(file));
    if (!outcome) {
      // Done by an earlier run: its answer and outputs come from the manifest.
      if (entry?.text) sections.push(`## ${name}\n\n${entry.text.trim()}`);
      if (entry?.outputs.length) outputs.push({ file: name, outputs: entry.outputs });
      continue;
    }
    if (outcome.status === 'skipped' || r?.result?.stopReason === 'aborted') {
      notStarted += 1;
      continue;
    }
    if (r?.result) {
      total.turns += r.result.turns;
      total.toolCalls += r.result.toolCalls;
      total.filesRead += r.result.filesRead;
      pushAll(total.filesWritten, r.result.filesWritten);
      if (r.result.text) sections.push(`## ${name}\n\n${r.result.text.trim()}`);
    }
    if (r?.outputs.length) outputs.push({ file: name, outputs: r.outputs });
    if (outcome.status === 'failed') {
      failures.push({ file: name, reason: reasonOf(r) });
      const err = r?.error ?? r?.result?.error;
      if (o.stats.stopped && err && STOP_KINDS.has(err.kind)) stopError ??= err;
    }
  }
  total.text =
    o.files.length === 1 ? (sections[0] ?? '').replace(/^## [^\n]*\n\n/, '') : sections.join('\n\n');
  if (stopError) {
    total.stopReason = 'error';
    total.error = stopError;
  } else if (o.rt.signal.aborted) {
    total.stopReason = 'aborted';
  } else if (failures.length) {
    total.stopReason = 'error';
    total.error = new ZhiError({
      kind: 'internal',
      what: { key: 'skills.err.someFailed', params: { failed: failures.length, total: o.files.length } },
      why: failures.map((f) => f.file).join(', '),
      exitCode: 1,
    });
  }
  const event: FolderEvent = {
    type: 'folder_end',
    skill: o.req.skill.name,
    counts: { ...o.counts },
    spent: o.spent,
    currency: o.req.usage.platform.currency,
    failures,
    outputs,
    notStarted,
    manifest: o.show(o.manifest.path),
  };
  return { result: total, event };
}
