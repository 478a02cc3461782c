import { dirname, relative } from 'node:path';
import { UsageTracker } from '../../llm/usage.js';
import { supportedExtensions } from '../../skills/documents.js';
import { listFolder } from '../../skills/folder.js';
import { completeInputs } from '../../skills/inputs.js';
import type { Skill } from '../../skills/schema.js';
import { ZhiError } from '../../support/errors.js';
import { displayPath } from '../../tools/paths.js';
import type { WrittenFile } from '../../tools/types.js';
import { runFolder } from '../batch/folder-run.js';
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

/** A folder given for a one-file input: run the whole skill per file, several at once (batch/folder-run.ts). */
export async function* runPerFile(
  run: StepFn,
  req: SkillRunRequest,
  rt: SkillRuntime,
  argName: string,
  dir: string,
  canOcr: boolean,
  kind: 'file' | 'directory' = 'directory',
): AsyncGenerator<RunEvent, AgentResult> {
  if (kind === 'file') return yield* runFolder(run, req, rt, argName, dirname(dir), [dir]);
  const arg = req.skill.args.find((a) => a.name === argName);
  const files = await listFolder(dir, {
    extensions: supportedExtensions(arg?.extensions ? arg : undefined, canOcr),
    ...rt.selection,
    ...(req.inputsFrom === 'model' ? { containedIn: rt.cwd } : {}),
  });
  if (!files.length) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'skills.err.emptyFolder', params: { path: displayPath(rt.cwd, dir) } },
    });
  }
  return yield* runFolder(run, req, rt, argName, dir, files);
}
