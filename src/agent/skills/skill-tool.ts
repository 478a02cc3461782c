import { z } from 'zod';
import { UsageTracker } from '../../llm/usage.js';
import { completeInputs, type InputValues } from '../../skills/inputs.js';
import { type Skill, skillToolName } from '../../skills/schema.js';
import { ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { displayPath } from '../../tools/paths.js';
import { type AnyTool, ToolError } from '../../tools/types.js';
import { type AgentResult, nestedEvent } from '../events.js';
import { chainProblem } from './chain.js';
import type { RunFn, SkillRuntime } from './types.js';

/** The arguments a composite skill passes: the nested skill's inputs, plus optional instructions. */
export function skillToolSchema(target: Skill): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const a of target.args) {
    const base =
      a.type === 'number'
        ? z.number()
        : a.type === 'boolean'
          ? z.boolean()
          : a.choices?.length
            ? z.enum(a.choices as [string, ...string[]])
            : z.string();
    const what =
      a.type === 'file'
        ? 'Path of a file, relative to the current directory.'
        : a.type === 'directory'
          ? 'Path of a folder, relative to the current directory.'
          : '';
    const described = base.describe([a.description, what].filter(Boolean).join(' ') || a.name);
    shape[a.name] = a.required ? described : described.optional();
  }
  if (!('instructions' in shape)) {
    shape.instructions = z
      .string()
      .optional()
      .describe(
        'Optional extra instructions for this step, e.g. the language, the focus, or the name of a file to write.',
      );
  }
  return z.object(shape);
}

/**
 * `skill_<name>`: a composite skill calls another skill as a tool. The nested run goes through
 * the same runSkill with the same runtime (permission mode, prompter, abort signal), one level
 * deeper in the chain; its usage and files are added to the caller's. A cycle or a chain deeper
 * than 3 levels is refused with a message the calling model can read.
 *
 * The wrapper itself is a `read` tool: it only starts the nested run, and every tool inside that
 * run is checked by the one permission policy (asking twice for one action would be noise).
 */
export function makeSkillTool(target: Skill, o: { rt: SkillRuntime; chain: string[]; run: RunFn }): AnyTool {
  const schema = skillToolSchema(target);
  const inputs = target.inputDescription ? ` Input: ${target.inputDescription}` : '';
  const output = target.output.description ? ` Output: ${target.output.description}` : '';
  return {
    name: skillToolName(target.name),
    description: `Run the skill "${target.name}": ${target.description}.${inputs}${output} Returns the skill's final answer.`,
    schema,
    kind: 'read',
    label: (args: Record<string, unknown>) => {
      const first = target.args.find((a) => typeof args[a.name] === 'string');
      const value = first ? String(args[first.name]).replace(/\s+/g, ' ').trim() : '';
      return value ? (value.length > 60 ? `${value.slice(0, 59)}…` : value) : skillToolName(target.name);
    },
    async execute(args: Record<string, unknown>, ctx) {
      const chain = o.chain;
      const problem = chainProblem(chain, target);
      if (problem) throw new ToolError(`Not run: ${plain(problem)} Do this step yourself.`);
      // `instructions` is ours unless the skill has an input of that name.
      const own = target.args.some((a) => a.name === 'instructions');
      const instructions = own ? undefined : args.instructions;
      const rest = Object.fromEntries(Object.entries(args).filter(([k]) => own || k !== 'instructions'));
      const given: InputValues = {};
      for (const [k, v] of Object.entries(rest)) {
        if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') given[k] = v;
      }
      const child = new UsageTracker(ctx.usage.platform);
      let result: AgentResult;
      try {
        const values = completeInputs(target, given, 'skill');
        const gen = o.run(
          {
            skill: target,
            values,
            usage: child,
            chain,
            outputDir: ctx.outputDir,
            // The model chose these inputs: their paths must stay inside the current folder.
            inputsFrom: 'model',
            ...(typeof instructions === 'string' ? { instructions } : {}),
          },
          o.rt,
        );
        // The nested run's events join the caller's stream (shown, recorded, ledgered there).
        const under = [...chain, target.name];
        let step = await gen.next();
        while (!step.done) {
          ctx.emit(nestedEvent(under, step.value));
          if (step.value.type === 'tool_start') ctx.progress(`${target.name}: ${step.value.label}`);
          step = await gen.next();
        }
        result = step.value;
      } catch (err) {
        if (err instanceof ZhiError)
          throw new ToolError(`The skill "${target.name}" could not run: ${plain(err)}`);
        throw err;
      } finally {
        ctx.usage.merge(child);
      }
      for (const f of result.filesWritten) ctx.recordFile(f);
      const files = result.filesWritten.length
        ? `\n\n[files written by ${target.name}: ${result.filesWritten.map((f) => displayPath(ctx.cwd, f.path)).join(', ')}]`
        : '';
      if (result.stopReason === 'answer')
        return `${result.text.trim() || '(the skill gave no answer)'}${files}`;
      const why = result.error ? plain(result.error) : result.stopReason;
      throw new ToolError(`The skill "${target.name}" did not finish (${result.stopReason}): ${why}${files}`);
    },
  };
}

function plain(err: ZhiError): string {
  const why = err.whyText();
  return `${t(err.what.key, err.what.params, 'en')}${why ? ` ${why}` : ''}`;
}
