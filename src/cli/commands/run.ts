import { batchBlocker } from '../../agent/skills/batchable.js';
import type { SkillCatalog } from '../../skills/discovery.js';
import { isFreeForm, splitFreeForm } from '../../skills/free-form.js';
import { type InputValues, inputError, lacksContent, mapCliInputs } from '../../skills/inputs.js';
import type { Skill } from '../../skills/schema.js';
import { type ExitCodeValue, exitCodeOf, ZhiError } from '../../support/errors.js';
import { type AppContext, requireKey } from '../context.js';
import { type FolderFlags, takeFolderFlags } from '../folder-flags.js';
import { findSkill, runFromCommandLine } from '../skills/execute.js';
import { loadCatalog, skillWarnings } from '../skills/runtime.js';
import { readStdin } from '../stdin.js';

/**
 * `zhi run <skill> [inputs…] [--<arg> <value>]…`: positional inputs fill the skill's file and
 * folder inputs in order, `--name value` sets any input; piped stdin is the document when no
 * file or text was given. A SKILL.md without declared inputs takes free text, files and stdin.
 * stdout gets the final answer only.
 */
export async function run(ctx: AppContext): Promise<ExitCodeValue> {
  const [name, ...inputs] = ctx.args.positionals;
  const { catalog, skill, folder, free, values } = await prepareRun(ctx, name, inputs, ctx.args.extra);
  // An unattended run (`zhi schedule run`) reads nothing from stdin: its inputs were fixed.
  const canRead = !ctx.stdinIsTTY && !ctx.unattended;
  let extraDocuments: { name: string; text: string }[] | undefined;
  if (free && canRead) {
    // A skill without declared inputs takes piped text as one more document.
    const piped = await readStdin();
    if (piped.trim()) extraDocuments = [{ name: 'stdin', text: piped }];
  } else if (lacksContent(skill, values) && canRead) {
    const piped = await readStdin();
    if (piped.trim()) {
      if (skill.args.some((a) => a.name === 'text' && a.type === 'string')) values.text = piped;
      else extraDocuments = [{ name: 'stdin', text: piped }];
    }
  }
  if (lacksContent(skill, values) && !extraDocuments) {
    throw inputError(skill, { key: 'skills.err.noInput', params: { skill: skill.name } });
  }
  requireKey(ctx);

  const result = await runFromCommandLine(ctx, {
    catalog,
    skill,
    values,
    ...(extraDocuments ? { extraDocuments } : {}),
    ...(free ? { task: free.task, files: free.files } : {}),
    folder,
  });
  return exitCodeOf(result);
}

export interface PreparedRun {
  catalog: SkillCatalog;
  skill: Skill;
  folder: FolderFlags;
  /** A skill without declared inputs: the task and the files named. */
  free: { task: string; files: string[] } | undefined;
  values: InputValues;
}

/**
 * The skill and its inputs read from a run's words, checked before anything is read or sent:
 * `zhi run` and `zhi schedule add` (which fixes them for later) read them the same way.
 */
export async function prepareRun(
  ctx: AppContext,
  name: string | undefined,
  inputs: string[],
  named: Readonly<Record<string, string | true>>,
): Promise<PreparedRun> {
  const warn = (text: string) => process.stderr.write(`${text}\n`);
  if (!name) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'skills.err.noSkillName' },
      tries: [{ key: 'skills.try.list' }],
    });
  }
  const catalog = await loadCatalog(ctx, warn);
  const skill = findSkill(catalog, name);
  for (const w of skillWarnings(ctx, catalog, skill)) warn(w);
  const { flags: folder, rest } = takeFolderFlags(named, skill);
  if (folder.force && ctx.args.flags.resume === true) {
    throw new ZhiError({ kind: 'usage', what: { key: 'runs.err.forceResume' } });
  }
  const free = isFreeForm(skill) ? await splitFreeForm(ctx.cwd, inputs, rest) : undefined;
  const values = free ? {} : mapCliInputs(skill, inputs, rest);
  // Said before anything is read or sent: a skill that must ask a person cannot wait in a batch job.
  const blocker = folder.batch ? batchBlocker(skill) : undefined;
  if (blocker) throw blocker;
  return { catalog, skill, folder, free, values };
}
