/**
 * `--dry-run` of a composite skill (a folder input with `each: <skill>`): what its per-file step
 * would cost on the files not done yet (each one's first request built as the run would build it,
 * nothing sent), then its own run over all the results. The results' size is not known before
 * they exist: when they could be more than one message takes, they are combined in rounds
 * first, and the count of calls is said as a least.
 */
import { checkPath } from '../../skills/documents.js';
import { completeInputs } from '../../skills/inputs.js';
import { resultBlock } from '../../skills/message.js';
import type { Skill, SkillArg } from '../../skills/schema.js';
import { t } from '../../support/i18n/index.js';
import { OCR_TOOL } from '../../tools/ocr/entry.js';
import { displayPath } from '../../tools/paths.js';
import type { AgentResult } from '../events.js';
import { estimateTextTokens } from '../tokens.js';
import { fitBytes } from './combine-results.js';
import {
  addTokens,
  callsOf,
  callsPerFile,
  dryRunReport,
  estimateFiles,
  MAX_RESULT_BYTES,
} from './dry-run.js';
import { folderInputs } from './gather.js';
import { StepRecord } from './step-record.js';
import type { Place, RunFn, SkillPlan, SkillRunRequest, SkillRuntime, Toolbox } from './types.js';

/** The first folder input with a per-file step, its folder and its step skill (undefined: none). */
async function eachInput(
  req: SkillRunRequest,
  rt: Pick<Toolbox, 'catalog'> & Pick<Place, 'cwd'>,
  plan: SkillPlan,
): Promise<{ arg: SkillArg; dir: string; target: Skill; files: string[] } | undefined> {
  for (const arg of req.skill.args) {
    const v = req.values[arg.name];
    const target = arg.each ? rt.catalog.skills.get(arg.each) : undefined;
    if (arg.type !== 'directory' || !target || typeof v !== 'string' || !v) continue;
    const where = await checkPath(rt.cwd, v, arg, req.inputsFrom);
    const canOcr = plan.tools.builtin.includes(OCR_TOOL.name);
    const { files } = await folderInputs(where.abs, arg, canOcr, req, rt);
    return { arg, dir: where.abs, target, files };
  }
  return undefined;
}

/**
 * The dry run of a composite skill the person ran with `--dry-run`; undefined when this is not
 * one (no dry run, a nested run, no per-file step, or a step that takes no file: the real run
 * says what is wrong).
 */
export async function dryRunEach(
  run: RunFn,
  req: SkillRunRequest,
  rt: SkillRuntime,
  plan: SkillPlan,
): Promise<AgentResult | undefined> {
  if (!rt.folder?.dryRun || req.chain?.length) return undefined;
  const found = await eachInput(req, rt, plan);
  const pathArg = found?.target.args.find((a) => a.type === 'file');
  if (!found || !pathArg || !found.files.length) return undefined;
  const { target, files, dir } = found;
  // The steps an earlier run finished are not done again (their kept results are read).
  const record = await StepRecord.open(req, rt, target, dir);
  const { kept, todo } = await record.plan(files, Boolean(rt.folder?.force));
  await record.close();
  const step: SkillRunRequest = {
    skill: target,
    values: completeInputs(target, { [pathArg.name]: files[0]! }),
    usage: req.usage,
    chain: [...(req.chain ?? []), req.skill.name],
    outputDir: plan.outputDir,
  };
  const totals = await estimateFiles(
    { run, req: step, rt, argName: pathArg.name, files, todo: todo.map((f) => files.indexOf(f)) },
    callsPerFile(target),
  );
  // The skill's own run reads every result: those kept as they are, the others at their guess.
  const keptText = [...kept.entries()].map(([f, r]) =>
    resultBlock({ file: displayPath(rt.cwd, f), text: r.text, ok: true }, r.text),
  );
  const guessed = [...totals.tokens.values()].reduce((n, x) => n + x.completion, 0);
  const prompt =
    estimateTextTokens(`${req.skill.systemPrompt}\n${keptText.join('\n\n')}`) + guessed + 300 * files.length;
  const own = callsOf(prompt, callsPerFile(req.skill));
  addTokens(totals, plan.model, own.prompt, own.completion);
  totals.calls += own.calls;
  totals.rows.push({ name: t('runs.dry.eachOwn', { skill: req.skill.name }), tokens: prompt });
  // Results that could be more than one message takes are combined in rounds first.
  const keptBytes = keptText.reduce((n, x) => n + Buffer.byteLength(x, 'utf8'), 0);
  totals.atLeast ||= keptBytes + todo.length * MAX_RESULT_BYTES > fitBytes();
  const head = t('runs.dry.eachHead', {
    each: target.name,
    todo: todo.length,
    total: files.length,
    folder: `${displayPath(rt.cwd, dir)}/`,
    done: files.length - todo.length,
    skill: req.skill.name,
  });
  // The per-file steps of a composite skill are not sent through the Batch API.
  return dryRunReport(req, totals, { head, batch: false });
}
