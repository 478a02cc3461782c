import { basename, relative } from 'node:path';
import { UsageTracker } from '../../llm/usage.js';
import { filesIn, supportedExtensions } from '../../skills/documents.js';
import { completeInputs } from '../../skills/inputs.js';
import type { Skill } from '../../skills/schema.js';
import { ZhiError } from '../../support/errors.js';
import { displayPath } from '../../tools/paths.js';
import type { WrittenFile } from '../../tools/types.js';
import { type AgentResult, nestedEvent, type RunEvent } from '../events.js';
import type { SkillRunRequest, SkillRuntime } from './run.js';

/** runSkill, passed in (these steps run skills themselves, and run.ts uses them). */
export type StepFn = (req: SkillRunRequest, rt: SkillRuntime) => AsyncGenerator<RunEvent, AgentResult>;

/** What one per-file step gave: its text for the caller's message, and what it read and wrote. */
export interface StepOutcome {
  text: string;
  ok: boolean;
  filesRead: number;
  filesWritten: WrittenFile[];
}

/**
 * Run a per-file step (`each`) nested under the current skill; never throws (a failure is a
 * result). Its events arrive as `nested` events under the chain; nothing is shared with other
 * steps, so steps of one folder may run concurrently.
 */
export async function* runStep(
  run: StepFn,
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
    return { text, ok, filesRead: r.filesRead, filesWritten: r.filesWritten };
  } catch (err) {
    if (!(err instanceof ZhiError)) throw err;
    const message = `${target.name}: ${err.whatText()}${err.whyText() ? ` ${err.whyText()}` : ''}`;
    yield nestedEvent(under, { type: 'warning', message });
    return { text: err.message, ok: false, filesRead: 0, filesWritten: [] };
  } finally {
    req.usage.merge(child);
  }
}

/** A folder given for a one-file input: run the whole skill per file, one after another. */
export async function* runPerFile(
  run: StepFn,
  req: SkillRunRequest,
  rt: SkillRuntime,
  argName: string,
  dir: string,
  canOcr: boolean,
): AsyncGenerator<RunEvent, AgentResult> {
  const arg = req.skill.args.find((a) => a.name === argName);
  const files = await filesIn(
    dir,
    supportedExtensions(arg?.extensions ? arg : undefined, canOcr),
    req.inputsFrom === 'model' ? rt.cwd : undefined,
  );
  if (!files.length) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'skills.err.emptyFolder', params: { path: displayPath(rt.cwd, dir) } },
    });
  }
  const total: AgentResult = {
    text: '',
    stopReason: 'answer',
    turns: 0,
    toolCalls: 0,
    filesRead: 0,
    filesWritten: [],
  };
  const sections: string[] = [];
  const failed: string[] = [];
  for (const [i, file] of files.entries()) {
    if (rt.signal.aborted) {
      total.stopReason = 'aborted';
      break;
    }
    const name = displayPath(rt.cwd, file);
    yield { type: 'skill_step', skill: req.skill.name, index: i, total: files.length, label: basename(file) };
    // A file the model's folder led to is passed on relative, so the nested run checks it again.
    const value = req.inputsFrom === 'model' ? relative(rt.cwd, file) : file;
    const r = yield* runOneFile(
      run,
      { ...req, values: { ...req.values, [argName]: value }, trusted: true },
      rt,
    );
    if (r instanceof ZhiError) {
      yield { type: 'warning', message: `${name}: ${r.whatText()}` };
      failed.push(name);
      continue;
    }
    addUp(total, r);
    if (r.text) sections.push(files.length > 1 ? `## ${name}\n\n${r.text.trim()}` : r.text);
    if (r.stopReason === 'aborted') {
      total.stopReason = 'aborted';
      break;
    }
    if (r.stopReason !== 'answer') failed.push(name);
  }
  total.text = sections.join('\n\n');
  if (failed.length && total.stopReason !== 'aborted') {
    total.stopReason = 'error';
    total.error = new ZhiError({
      kind: 'internal',
      what: { key: 'skills.err.someFailed', params: { failed: failed.length, total: files.length } },
      why: failed.join(', '),
      exitCode: 1,
    });
  }
  return total;
}

/** One file's whole run; a setup problem (unreadable file) comes back as the error instead of a result. */
async function* runOneFile(
  run: StepFn,
  req: SkillRunRequest,
  rt: SkillRuntime,
): AsyncGenerator<RunEvent, AgentResult | ZhiError> {
  try {
    const gen = run(req, rt);
    let step = await gen.next();
    while (!step.done) {
      // The answers are printed together at the end, each under its file's name; one `done` closes the whole run.
      if (step.value.type !== 'text_delta' && step.value.type !== 'done') yield step.value;
      step = await gen.next();
    }
    return step.value;
  } catch (err) {
    if (err instanceof ZhiError) return err;
    throw err;
  }
}

function addUp(total: AgentResult, r: AgentResult): void {
  total.turns += r.turns;
  total.toolCalls += r.toolCalls;
  total.filesRead += r.filesRead;
  total.filesWritten.push(...r.filesWritten);
}
