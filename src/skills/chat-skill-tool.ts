/**
 * Agent Skills in chat, by progressive disclosure (agentskills.io): the chat's system prompt
 * names every skill with its description only; the model calls `skill` to load one's
 * instructions when a request matches it, and `skill` with a `path` to read one of its bundled
 * files (relative to the skill's folder, read-only, in pages).
 */
import { z } from 'zod';
import { byCodePoint } from '../support/arrays.js';
import type { Language } from '../support/i18n/index.js';
import type { AnyTool } from '../tools/types.js';
import { ToolError } from '../tools/types.js';
import { asksForCode } from './agent-skills.js';
import { BUNDLED_TRAITS, readBundled, skillFolderLines } from './bundled.js';
import { CHAT_SKILL_TOOL } from './chat-skill-name.js';
import type { Skill } from './schema.js';
import { SkillLimits } from './skill-limits.js';

/**
 * The descriptions of the chat's skill list, together, stay under this many characters: the list
 * is sent with every request. Past it, whole skills lose their description (never cut mid-way:
 * an Agent Skill's trigger words are often its description's last) and are named on one line.
 */
export const LISTED_DESCRIPTIONS_BUDGET = 8000;

const schema = z.object({
  name: z.string(),
  path: z.string().optional().describe('A file of its folder.'),
  offset: z.coerce.number().int().min(0).optional().describe('From the end marker.'),
});

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The skills as the chat's system prompt lists them. The person's own skills (and the ones they
 * installed) get a line each with their whole description: the model cannot guess what they are
 * for, and the spec's "when to use it" comes last. zhi's built-ins are named on one line: their
 * names say what they do, and the list goes out with every request.
 */
export function skillListing(
  skills: Iterable<Skill>,
  language: Language,
  budget = LISTED_DESCRIPTIONS_BUDGET,
): string {
  const sorted = [...skills].sort((a, b) => byCodePoint(a.name, b.name));
  const builtins = sorted.filter((s) => s.source === 'builtin').map((s) => s.name);
  const lines = builtins.length ? [`- built-in: ${builtins.join(', ')}`] : [];
  const unlisted: string[] = [];
  let left = budget;
  for (const s of sorted) {
    if (s.source === 'builtin') continue;
    const description = oneLine(language === 'zh' && s.descriptionZh ? s.descriptionZh : s.description);
    if (description.length > left) {
      unlisted.push(s.name);
      continue;
    }
    left -= description.length;
    lines.push(`- ${s.name}: ${description}`);
  }
  if (unlisted.length)
    lines.push(`- more (the list is full; load one to see what it is for): ${unlisted.join(', ')}`);
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
  if (skill.format === 'skill-md' && asksForCode(skill.systemPrompt)) {
    notes.push(
      'Code its instructions ask you to write and run (a Python or Node script): pass it to run_script, which shows it to the person and runs it sandboxed in the current folder; files it makes go in the output folder. The shell refuses `python3 -c`, heredocs and programs written in the output folder.',
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
    traits: BUNDLED_TRAITS,
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
