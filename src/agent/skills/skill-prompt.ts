/** The words of a skill run: its system prompt and its first message (the inputs, composed). */
import { skillFolderLines } from '../../skills/bundled.js';
import { composeMessage } from '../../skills/message.js';
import type { Skill } from '../../skills/schema.js';
import { pushAll } from '../../support/arrays.js';
import { SHELL_TOOL, traitsOf } from '../../tools/index.js';
import { displayPath } from '../../tools/paths.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { languagePreamble } from '../prompt.js';
import type { GatheredInputs, Place, SkillPlan, SkillRunRequest } from './types.js';

/** The system prompt of this run: what its tools can do decides what it is told. */
export function skillPrompt(
  req: SkillRunRequest,
  rt: Pick<Place, 'cwd' | 'houseRules' | 'today'>,
  plan: SkillPlan,
  registry: ToolRegistry,
): string {
  return skillSystemPrompt(req.skill, {
    outputDir: displayPath(rt.cwd, plan.outputDir),
    today: rt.today ?? new Date().toISOString().slice(0, 10),
    writes: registry.names().some((name) => traitsOf(name).writesOutput),
    shell: registry.has(SHELL_TOOL.name),
    ...(rt.houseRules ? { houseRules: rt.houseRules } : {}),
  });
}

/** The first message: the inputs as read, what the caller asked, the task in the person's words. */
export function firstMessage(req: SkillRunRequest, inputs: GatheredInputs): string {
  const chain = req.chain ?? [];
  return composeMessage({
    skill: req.skill,
    values: req.values,
    blocks: inputs.blocks,
    results: inputs.results,
    ...(chain.length ? { caller: chain[chain.length - 1]! } : {}),
    ...(req.instructions ? { instructions: req.instructions } : {}),
    ...(req.extraDocuments ? { extraDocuments: req.extraDocuments } : {}),
    ...(req.task?.trim() ? { task: req.task } : {}),
    ...(inputs.files.length ? { files: inputs.files } : {}),
  });
}

/** The system prompt of a skill run: the skill's own prompt, the language rule, the date, where files go. */
export function skillSystemPrompt(
  skill: Skill,
  o: { outputDir: string; today: string; writes: boolean; shell?: boolean; houseRules?: string },
): string {
  const lines = [
    skill.systemPrompt,
    '',
    languagePreamble(),
    "The labels in the user's message (Inputs, file names) are written by zhi in English: what counts is the language of the document and of the inputs' text (a Chinese document gets a Chinese answer), unless an input names the language to use.",
    `Today is ${o.today}.`,
  ];
  if (o.writes) {
    lines.push(
      `file_write saves new files in the output folder "${o.outputDir}": give it a plain file name such as "summary.md", never a folder or an absolute path. It never replaces an existing file; if a name is taken, pick another.`,
    );
    if (skill.answerIsFile)
      lines.push(
        'When file_write saves your result, the run ends there: what you wrote is your final answer and is shown as it is. Do not repeat it afterwards.',
      );
  }
  if (skill.folder)
    pushAll(lines, skillFolderLines(skill, { tool: 'read_reference', shell: Boolean(o.shell) }));
  // The folder's house rules, as the chat has them: after the skill's own words, which they do not replace.
  if (o.houseRules) lines.push('', o.houseRules);
  return lines.join('\n');
}
