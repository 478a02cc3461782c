import { basename, relative } from 'node:path';
import { UsageTracker } from '../../llm/usage.js';
import { filesIn, supportedExtensions } from '../../skills/documents.js';
import { completeInputs } from '../../skills/inputs.js';
import type { Skill } from '../../skills/schema.js';
import { ZhiError } from '../../support/errors.js';
import { displayPath } from '../../tools/paths.js';
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

/** A folder given for a one-file input: run the whole skill per file, one after another. */
export async function* runPerFile(
  run: RunFn,
  req: SkillRunRequest,
  rt: SkillRuntime,
  argName: string,
  dir: string,
  canOcr: boolean,
): AsyncGenerator<SkillEvent, AgentResult> {
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
    let r: AgentResult;
    try {
      const value = req.inputsFrom === 'model' ? relative(rt.cwd, file) : file;
      const gen = run({ ...req, values: { ...req.values, [argName]: value }, trusted: true }, rt);
      let step = await gen.next();
      while (!step.done) {
        // The answers are printed together at the end, each under its file's name.
        if (step.value.type !== 'text_delta') yield step.value;
        step = await gen.next();
      }
      r = step.value;
    } catch (err) {
      if (!(err instanceof ZhiError)) throw err;
      yield { type: 'warning', message: `${name}: ${err.whatText()}` };
      failed.push(name);
      continue;
    }
    total.turns += r.turns;
    total.toolCalls += r.toolCalls;
    total.filesRead += r.filesRead;
    total.filesWritten.push(...r.filesWritten);
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
