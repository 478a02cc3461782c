import { relative } from 'node:path';
import { UsageTracker } from '../../llm/usage.js';
import { supportedExtensions } from '../../skills/documents.js';
import { listFolder } from '../../skills/folder.js';
import { completeInputs } from '../../skills/inputs.js';
import type { Skill } from '../../skills/schema.js';
import { ZhiError } from '../../support/errors.js';
import { displayPath } from '../../tools/paths.js';
import { runFolder } from '../batch/folder-run.js';
import type { AgentResult } from '../events.js';
import type { runSkill, SkillEvent, SkillRunRequest, SkillRuntime } from './run.js';

/** runSkill, passed in (these steps run skills themselves, and run.ts uses them). */
type RunFn = typeof runSkill;

/** Run a per-file step (`each`) nested under the current skill; never throws (a failure is a result). */
export async function* runStep(
  run: RunFn,
  target: Skill,
  file: string,
  req: SkillRunRequest,
  rt: SkillRuntime,
  outputDir: string,
  into: AgentResult,
): AsyncGenerator<SkillEvent, { text: string; ok: boolean }> {
  const chain = [...(req.chain ?? []), req.skill.name];
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
      rt.onNested?.(step.value, [...chain, target.name]);
      step = await gen.next();
    }
    const r = step.value;
    into.filesWritten.push(...r.filesWritten);
    into.filesRead += r.filesRead;
    if (r.stopReason === 'answer') return { text: r.text || '(no result)', ok: true };
    return { text: r.error ? r.error.message : r.stopReason, ok: false };
  } catch (err) {
    if (!(err instanceof ZhiError)) throw err;
    const ev: SkillEvent = {
      type: 'warning',
      message: `${target.name}: ${err.whatText()}${err.whyText() ? ` ${err.whyText()}` : ''}`,
    };
    rt.onNested?.(ev, [...chain, target.name]);
    return { text: err.message, ok: false };
  } finally {
    req.usage.merge(child);
  }
}

/** A folder given for a one-file input: run the whole skill per file, several at once (batch/folder-run.ts). */
export async function* runPerFile(
  run: RunFn,
  req: SkillRunRequest,
  rt: SkillRuntime,
  argName: string,
  dir: string,
  canOcr: boolean,
): AsyncGenerator<SkillEvent, AgentResult> {
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
