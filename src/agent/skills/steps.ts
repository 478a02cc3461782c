import { basename, dirname, relative, resolve, sep } from 'node:path';
import { UsageTracker } from '../../llm/usage.js';
import { supportedExtensions } from '../../skills/documents.js';
import { listFolder } from '../../skills/folder.js';
import { completeInputs } from '../../skills/inputs.js';
import type { Skill } from '../../skills/schema.js';
import { ZhiError } from '../../support/errors.js';
import { displayPath } from '../../tools/paths.js';
import { type AgentResult, nestedEvent, type RunEvent } from '../events.js';
import { gated } from '../folder/call-gate.js';
import { runFolder } from '../folder/folder-run.js';
import { type Attempt, DEFAULT_JOBS, type PoolControl, poolEvents } from '../folder/pool.js';
import { skippedFiles, skippedList } from '../folder/skipped.js';
import { runOutputDir, skillFolderJob } from './folder-job.js';
import { StepRecord } from './step-record.js';
import type { RunFn, SkillRunRequest, SkillRuntime, StepOutcome } from './types.js';

/**
 * Run a per-file step (`each`) nested under the current skill; never throws (a failure is a
 * result). Its events arrive as `nested` events under the chain; nothing is shared with other
 * steps, so steps of one folder may run concurrently.
 */
export async function* runStep(
  run: RunFn,
  target: Skill,
  file: string,
  req: SkillRunRequest,
  rt: SkillRuntime,
  outputDir: string,
): AsyncGenerator<RunEvent, StepOutcome> {
  const chain = [...(req.chain ?? []), req.skill.name];
  const under = [...chain, target.name];
  const pathArg = target.args.find((a) => a.type === 'file');
  const child = new UsageTracker(req.usage.platform);
  try {
    if (!pathArg)
      throw new ZhiError({
        kind: 'usage',
        what: { key: 'skills.err.eachNoFile', params: { name: target.name } },
      });
    // A file the model's folder led to is passed on relative, so the nested run checks it again.
    const value = req.inputsFrom === 'model' ? relative(rt.cwd, file) : file;
    const values = completeInputs(target, { [pathArg.name]: value });
    const gen = run(
      {
        skill: target,
        values,
        usage: child,
        chain,
        outputDir,
        ...(req.inputsFrom ? { inputsFrom: req.inputsFrom } : {}),
      },
      rt,
    );
    let step = await gen.next();
    while (!step.done) {
      yield nestedEvent(under, step.value);
      step = await gen.next();
    }
    const r = step.value;
    const ok = r.stopReason === 'answer';
    const text = ok ? r.text || '(no result)' : r.error ? r.error.message : r.stopReason;
    return {
      text,
      ok,
      filesRead: r.filesRead,
      filesWritten: r.filesWritten,
      cost: child.total().cost,
      ...(r.error ? { error: r.error } : {}),
    };
  } catch (err) {
    if (!(err instanceof ZhiError)) throw err;
    const message = `${target.name}: ${err.whatText()}${err.whyText() ? ` ${err.whyText()}` : ''}`;
    yield nestedEvent(under, { type: 'warning', message });
    return { text: err.message, ok: false, filesRead: 0, filesWritten: [], error: err };
  } finally {
    req.usage.merge(child);
  }
}

/** Errors after which no other step should start: every one would fail the same way. */
const STOP_STEPS = new Set(['balance', 'auth', 'budget', 'config']);

function stepAttempt(r: StepOutcome): Attempt<StepOutcome> {
  const kind = r.error?.kind;
  if (r.ok) return { kind: 'done', value: r };
  if (kind === 'rate_limit' || kind === 'overloaded') return { kind: 'retry', reason: kind, value: r };
  return { kind: kind && STOP_STEPS.has(kind) ? 'stop' : 'failed', value: r };
}

/**
 * The per-file step (`each`) on every file of a folder, in the same bounded pool as folder runs
 * (`--jobs` at once, slower after a 1302/1303, a pause after a 1305, nothing more after a
 * 1113), under the folder's lock and run record (step-record.ts): files done by an earlier run
 * give their kept results without a call (`--force` redoes them). Results come back in the
 * folder's order; steps never started (interrupted) are left out; a step that stopped the pool
 * (no balance, bad key) fails the whole run with its error.
 */
export async function* runSteps(
  run: RunFn,
  target: Skill,
  all: string[],
  req: SkillRunRequest,
  rt: SkillRuntime,
  o: { outputDir: string; folder: string },
): AsyncGenerator<RunEvent, { file: string; outcome: StepOutcome }[]> {
  const record = await StepRecord.open(req, rt, target, o.folder);
  try {
    const { kept, todo } = await record.plan(all, Boolean(rt.folder?.force));
    if (kept.size) yield { type: 'skill_kept', skill: target.name, count: kept.size, total: all.length };
    const ran = new Map<string, StepOutcome>();
    for (const r of yield* poolSteps(run, target, todo, req, rt, o.outputDir, all, record))
      ran.set(r.file, r.outcome);
    const out: { file: string; outcome: StepOutcome }[] = [];
    for (const file of all) {
      const outcome = kept.get(file) ?? ran.get(file);
      if (outcome) out.push({ file, outcome });
    }
    return out;
  } finally {
    await record.close();
  }
}

async function* poolSteps(
  run: RunFn,
  target: Skill,
  files: string[],
  req: SkillRunRequest,
  rt: SkillRuntime,
  outputDir: string,
  all: string[],
  record: StepRecord,
): AsyncGenerator<RunEvent, { file: string; outcome: StepOutcome }[]> {
  const jobs = rt.folder?.jobs ?? DEFAULT_JOBS;
  // The steps (and their long documents' parts) share one budget of calls at once.
  const { rt: stepRt, gate, own } = gated(rt, jobs);
  // Which skill and model the steps run on is said once: each step's own line names its file.
  let announced = false;
  const step = async (file: string, ctl: PoolControl, emit: (ev: RunEvent) => void) => {
    const gen = runStep(run, target, file, req, stepRt, outputDir);
    let next = await gen.next();
    while (!next.done) {
      const inner = next.value.type === 'nested' ? next.value.event : next.value;
      if (inner.type === 'skill_start' && next.value.type === 'nested' && next.value.chain.length === 2) {
        if (announced) {
          next = await gen.next();
          continue;
        }
        announced = true;
      }
      // A call the client retried after a 1302: the pool slows down before the step fails.
      if (inner.type === 'retry' && (inner.error.kind === 'rate_limit' || inner.error.kind === 'overloaded'))
        ctl.pressure(inner.error.kind);
      emit(next.value);
      next = await gen.next();
    }
    await record.keep(file, next.value, next.value.cost ?? 0);
    return stepAttempt(next.value);
  };
  const { outcomes, stats } = yield* poolEvents(
    files,
    (emit: (ev: RunEvent) => void) => ({
      work: (file: string, _i: number, ctl: PoolControl) => step(file, ctl, emit),
      onStart: (i: number) => emit(stepEvent(req, all.indexOf(files[i]!), all.length, files[i]!)),
      onLimit: (n: number) => (own ? gate.setLimit(n) : undefined),
    }),
    {
      jobs,
      signal: rt.signal,
      caps: gate,
      ...(rt.folder?.pauseMs !== undefined ? { pauseMs: rt.folder.pauseMs } : {}),
    },
  );
  const stop = stats.stopped
    ? outcomes.find((o) => o.value?.error && STOP_STEPS.has(o.value.error.kind))
    : undefined;
  if (stop?.value?.error) throw stop.value.error;
  const out: { file: string; outcome: StepOutcome }[] = [];
  for (const [i, o] of outcomes.entries())
    if (o.status !== 'skipped' && o.value) out.push({ file: files[i]!, outcome: o.value });
  return out;
}

/** `[3/12] invoice-03.pdf`: a step starts. */
export function stepEvent(req: SkillRunRequest, index: number, total: number, file: string): RunEvent {
  return { type: 'skill_step', skill: req.skill.name, index, total, label: basename(file) };
}

/**
 * The run's output folder holds zhi's earlier outputs: never inputs of a folder run, wherever it
 * is, unless the person named it (or a folder inside it) as the input.
 */
export function outputsToSkip(dir: string, outputDir: string): string[] {
  const out = resolve(outputDir);
  const inside = resolve(dir) === out || resolve(dir).startsWith(out + sep);
  return inside ? [] : [out];
}

/** A folder given for a one-file input: run the whole skill per file, several at once (folder/folder-run.ts). */
export async function* runPerFile(
  run: RunFn,
  req: SkillRunRequest,
  rt: SkillRuntime,
  argName: string,
  dir: string,
  canOcr: boolean,
  kind: 'file' | 'directory' = 'directory',
): AsyncGenerator<RunEvent, AgentResult> {
  const job = skillFolderJob(run, req, rt, argName);
  if (kind === 'file') return yield* runFolder(job, dirname(dir), [dir]);
  const arg = req.skill.args.find((a) => a.name === argName);
  const { files, skipped } = await listFolder(dir, {
    extensions: supportedExtensions(arg?.extensions ? arg : undefined, canOcr),
    ...rt.selection,
    ...(req.inputsFrom === 'model' ? { containedIn: rt.cwd } : {}),
    skip: outputsToSkip(dir, runOutputDir(req, rt)),
  });
  const said = skippedFiles(skipped.map((s) => ({ file: displayPath(rt.cwd, s.file), why: s.why })));
  if (!files.length) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'skills.err.emptyFolder', params: { path: displayPath(rt.cwd, dir) } },
      ...(said ? { why: { key: 'runs.skipped.why', params: { files: skippedList(said) } } } : {}),
    });
  }
  return yield* runFolder(job, dir, files, said);
}
