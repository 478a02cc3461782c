import { join } from 'node:path';
import { writeFileAtomic } from '../support/atomic.js';
import { t } from '../support/i18n/index.js';
import { appPaths } from '../support/paths.js';
import { shapesInBrief } from '../tools/files/writers/formats.js';
import { BUILTIN_TOOL_NAMES } from '../tools/index.js';
import { type Tool, ToolError } from '../tools/types.js';
import { type NewSkill, newSkillSchema } from './create-schema.js';
import { defaultSkillDirs, discoverSkills, skillCacheFile } from './discovery.js';
import { SKILL_CREATE_TOOL } from './skill-create-entry.js';

/** The code that checks and writes a skill (the YAML writer, the loader): loaded on first use. */
let created: typeof import('./create.js') | undefined;
async function creating(): Promise<typeof import('./create.js')> {
  created ??= await import('./create.js');
  return created;
}

/**
 * skill_create: saves a new skill (YAML) in the user's skills folder, after checking its name,
 * tools (other skills allowed, for a composite), model and limits. Risky: the user sees the YAML
 * before it is saved (approve mode); replacing an existing skill always needs the user's yes.
 */
const skillCreate: Tool<typeof newSkillSchema> = {
  name: SKILL_CREATE_TOOL.name,
  traits: SKILL_CREATE_TOOL.traits,
  description: [
    "Save a new zhi skill: a reusable recipe that runs on a cheap model with only the tools it lists. It is saved in the user's skills folder and can be run at once with `zhi run <name> <inputs>` or `/run <name>`.",
    `Write the system_prompt for a small model: numbered steps, which tool to call for each, the output file name and exact format (file_write shapes: ${shapesInBrief()}), and what the final answer contains.`,
    'Input files are read by zhi and given to the skill in its first message; images and scanned PDFs need the ocr tool.',
  ].join(' '),
  schema: newSkillSchema,
  kind: 'risky',
  label: (args: NewSkill) => args.name,
  // Before anyone is asked: load what the preview needs (the YAML writer).
  async assess() {
    await creating();
    return {};
  },
  preview: (args: NewSkill) =>
    `${t('skills.create.preview', { name: args.name })}\n${(created?.newSkillYaml(args) ?? JSON.stringify(args, null, 2)).trimEnd()}`,
  async execute(args: NewSkill, ctx) {
    const { newSkillProblems, newSkillYaml } = await creating();
    const paths = appPaths();
    const dirs = defaultSkillDirs(paths);
    const catalog = await discoverSkills(dirs, { cacheFile: skillCacheFile(paths) });
    const yaml = newSkillYaml(args);
    const problems = newSkillProblems(args, yaml, catalog, [...BUILTIN_TOOL_NAMES, SKILL_CREATE_TOOL.name]);
    if (problems.length) {
      throw new ToolError(
        `The skill was not saved: ${problems.join('; ')}. Fix this and call skill_create again.`,
      );
    }
    const existing = catalog.skills.get(args.name);
    let target = join(dirs.userDir, `${args.name}.yaml`);
    if (existing) {
      if (existing.source === 'user' && existing.format === 'skill-md') {
        throw new ToolError(
          `A skill named "${args.name}" already exists as ${existing.file} (Agent Skills format); it is not replaced. Choose another name.`,
        );
      }
      if (existing.source === 'user') target = existing.file;
      const yes = await ctx.ask({
        message: t(existing.source === 'user' ? 'skills.create.replace' : 'skills.create.overrideBuiltin', {
          name: args.name,
        }),
        detail: existing.file,
        danger: existing.source === 'user',
      });
      if (!yes) {
        throw new ToolError(
          `A ${existing.source === 'user' ? '' : 'built-in '}skill named "${args.name}" already exists and the user did not agree to replace it${
            ctx.interactive ? '' : ' (no one can be asked here)'
          }. Nothing was saved. Choose another name, or ask the user.`,
        );
      }
    }
    await writeFileAtomic(target, yaml, 0o600);
    const usage = (args.inputs ?? [])
      .map((a) => (a.type === 'file' || a.type === 'directory' ? `<${a.name}>` : `--${a.name} <value>`))
      .join(' ');
    return `Saved the skill "${args.name}" to ${target}. It can be run now: zhi run ${args.name}${usage ? ` ${usage}` : ''} (or /run ${args.name} in the chat). Tell the user how to run it.`;
  },
};

export default skillCreate;
