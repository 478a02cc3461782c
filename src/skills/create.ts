import { stringify } from 'yaml';
import { t } from '../support/i18n/index.js';
import type { NewSkill } from './create-schema.js';
import type { SkillCatalog } from './discovery.js';
import { parseSkillText } from './loader.js';
import { lookupSkillRef } from './resolve.js';
import type { SkillIssue } from './schema.js';

export { type NewSkill, newSkillSchema } from './create-schema.js';

/** The YAML file for a new skill, in the usual key order, the prompt as a block. */
export function newSkillYaml(s: NewSkill): string {
  const doc: Record<string, unknown> = { name: s.name, description: s.description.trim() };
  if (s.model) doc.model = s.model.toLowerCase();
  if (s.inputs?.length || s.input_description) {
    doc.input = {
      ...(s.input_description ? { description: s.input_description } : {}),
      ...(s.inputs?.length
        ? {
            args: s.inputs.map((a) => ({
              name: a.name,
              type: a.type,
              ...(a.required ? { required: true } : {}),
              ...(a.default !== undefined ? { default: a.default } : {}),
              ...(a.description ? { description: a.description } : {}),
            })),
          }
        : {}),
    };
  }
  if (s.output_description) doc.output = { description: s.output_description };
  doc.system_prompt = `${s.system_prompt.trim()}\n`;
  doc.tools = s.tools;
  if (s.max_turns) doc.max_turns = s.max_turns;
  return stringify(doc, { blockQuote: 'literal', lineWidth: 0 });
}

/**
 * Problems with a new skill the schema cannot see: its tools must exist (built-in tools, or
 * skills for a composite — not itself), and the file must load. Texts are for the model.
 */
export function newSkillProblems(
  s: NewSkill,
  yaml: string,
  catalog: SkillCatalog,
  builtinTools: readonly string[],
): string[] {
  const problems: string[] = [];
  for (const tool of s.tools) {
    if (builtinTools.includes(tool)) continue;
    const target = lookupSkillRef(tool, catalog);
    if (!target) {
      problems.push(
        `tools: "${tool}" is neither a tool (${builtinTools.join(', ')}) nor an existing skill (${[...catalog.skills.keys()].join(', ')})`,
      );
    } else if (target.name === s.name) problems.push(`tools: a skill cannot use itself ("${tool}")`);
  }
  const loaded = parseSkillText(yaml, { file: `${s.name}.yaml`, source: 'user', format: 'yaml' });
  for (const i of loaded.errors) problems.push(englishIssue(i));
  return problems;
}

function englishIssue(i: SkillIssue): string {
  return `${i.field ?? 'file'}: ${t(i.message.key, i.message.params, 'en')}`;
}
