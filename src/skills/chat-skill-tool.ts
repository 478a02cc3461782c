/**
 * Agent Skills in chat, by progressive disclosure (agentskills.io): the chat's system prompt
 * names every skill with its description only; the model calls `skill` to load one's
 * instructions when a request matches it, and `skill` with a `path` to read one of its bundled
 * files (relative to the skill's folder, read-only, in pages).
 */
import { z } from 'zod';
import type { Language } from '../support/i18n/index.js';
import type { AnyTool } from '../tools/types.js';
import { ToolError } from '../tools/types.js';
import { BUNDLED_RESULT_BYTES, readBundled, skillFolderLines } from './bundled.js';
import type { Skill } from './schema.js';
import { SkillLimits } from './skill-limits.js';

export const CHAT_SKILL_TOOL = 'skill';
/** A description in the chat's skill list is cut here: the list is sent with every request. */
const LISTED_DESCRIPTION = 200;

const schema = z.object({
  name: z.string(),
  path: z.string().optional().describe('A file of its folder.'),
  offset: z.coerce.number().int().min(0).optional().describe('From the end marker.'),
});

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * The skills as the chat's system prompt lists them. The person's own skills (and the ones they
 * installed) get a line each with their description: the model cannot guess what they are for.
 * zhi's built-ins are named on one line: their names say what they do, and the list goes out
 * with every request.
 */
export function skillListing(skills: Iterable<Skill>, language: Language): string {
  const sorted = [...skills].sort((a, b) => a.name.localeCompare(b.name));
  const builtins = sorted.filter((s) => s.source === 'builtin').map((s) => s.name);
  const lines = builtins.length ? [`- built-in: ${builtins.join(', ')}`] : [];
  for (const s of sorted) {
    if (s.source === 'builtin') continue;
    const description = language === 'zh' && s.descriptionZh ? s.descriptionZh : s.description;
    lines.push(`- ${s.name}: ${oneLine(description, LISTED_DESCRIPTION)}`);
  }
  return lines.join('\n');
}

/** What the model gets when it loads a skill: the instructions, and how to reach its files. */
export function skillBody(skill: Skill, o: { shell: boolean }): string {
  const lines = [`<skill name="${skill.name}">`, skill.systemPrompt, '</skill>'];
  const notes = skillFolderLines(skill, { tool: `${CHAT_SKILL_TOOL} (with "path")`, shell: o.shell });
  if (skill.format === 'yaml') {
    notes.push(
      `This is one of zhi's own skills; the person can also run it as a recipe of its own with /run ${skill.name}.`,
    );
  }
  const limit = SkillLimits.note(skill);
  if (limit) notes.push(limit);
  else if (skill.tools.length) notes.push(`The skill is written for these tools: ${skill.tools.join(', ')}.`);
  return [...lines, ...notes].join('\n');
}

/**
 * The `skill` tool of a chat, over the skills found when the chat started. Loading a skill that
 * declares `allowed-tools` puts its limit on the rest of the turn (`limits`).
 */
export function chatSkillTool(
  skills: ReadonlyMap<string, Skill>,
  o: { shell: boolean; limits?: SkillLimits },
): AnyTool {
  const find = (name: string): Skill => {
    const skill = skills.get(name.trim()) ?? skills.get(name.trim().toLowerCase());
    if (!skill) {
      throw new ToolError(`There is no skill called "${name}". Skills: ${[...skills.keys()].join(', ')}.`);
    }
    return skill;
  };
  return {
    name: CHAT_SKILL_TOOL,
    description:
      "Load a listed skill's instructions before a task it fits; with path, read a file bundled with it.",
    schema,
    kind: 'read',
    maxResultBytes: BUNDLED_RESULT_BYTES,
    label: (args: z.infer<typeof schema>) => (args.path ? `${args.name}: ${args.path}` : args.name),
    async execute(args: z.infer<typeof schema>, ctx) {
      const skill = find(args.name);
      if (!args.path) {
        o.limits?.enter(skill);
        return skillBody(skill, o);
      }
      if (!skill.folder) throw new ToolError(`The skill "${skill.name}" has no bundled files.`);
      const read = await readBundled(skill.folder, skill.resources, args.path, {
        ...(args.offset ? { offset: args.offset } : {}),
        signal: ctx.signal,
        how: (next) =>
          `Call ${CHAT_SKILL_TOOL} with name "${skill.name}", path "${args.path}" and offset=${next} to read on.`,
      });
      return read.text;
    },
  };
}
