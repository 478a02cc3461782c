import { chooseModel } from '../llm/choose.js';
import { chatModelIds } from '../llm/models.js';
import { type ErrorText, ZhiError } from '../support/errors.js';
import { type Shown, t } from '../support/i18n/index.js';
import { nearest } from '../support/suggest.js';
import type { SkillCatalog } from './discovery.js';
import { SKILL_TOOL_PREFIX } from './names.js';
import type { Skill, SkillIssue } from './schema.js';

/** A skill's `tools`, split into built-in tools and the other skills it calls (composite). */
export interface SkillTools {
  builtin: string[];
  skills: Skill[];
  /** MCP servers whose tools the skill uses (`tools: [mcp:github]`). */
  mcp: string[];
}

/**
 * Resolve each entry of `tools`: a built-in tool name, or another skill (`analyze` or
 * `skill_analyze`). An entry that is neither is an error naming the file, line and field.
 */
export function resolveTools(
  skill: Skill,
  catalog: SkillCatalog,
  builtinTools: readonly string[],
): SkillTools {
  const out: SkillTools = { builtin: [], skills: [], mcp: [] };
  skill.tools.forEach((name, i) => {
    if (name.startsWith('mcp:')) {
      if (!out.mcp.includes(name.slice(4))) out.mcp.push(name.slice(4));
      return;
    }
    if (builtinTools.includes(name)) {
      if (!out.builtin.includes(name)) out.builtin.push(name);
      return;
    }
    const target = lookupSkillRef(name, catalog);
    if (target) {
      if (!out.skills.includes(target)) out.skills.push(target);
      return;
    }
    const known = [...builtinTools, ...catalog.skills.keys()];
    const suggestion = nearest(name.replace(/^skill_/, ''), known);
    throw skillError(
      {
        file: skill.file,
        line: skill.toolLines[i],
        field: `tools[${i}]`,
        message: { key: 'skills.err.unknownTool', params: { name, tools: builtinTools.join(', ') } },
      },
      suggestion ? [{ key: 'cli.try.didYouMean', params: { suggestion } }] : [],
    );
  });
  for (const arg of skill.args) {
    if (arg.each && !catalog.skills.has(arg.each)) {
      throw skillError({
        file: skill.file,
        field: `input.args.${arg.name}.each`,
        message: { key: 'skills.err.unknownEach', params: { name: arg.each } },
      });
    }
  }
  return out;
}

export function lookupSkillRef(name: string, catalog: SkillCatalog): Skill | undefined {
  if (name.startsWith(SKILL_TOOL_PREFIX)) {
    const bare = catalog.skills.get(name.slice(SKILL_TOOL_PREFIX.length));
    if (bare) return bare;
  }
  return catalog.skills.get(name);
}

/** Every skill this one can reach (itself included), through composite tools and `each`. */
export function skillClosure(skill: Skill, catalog: SkillCatalog, builtinTools: readonly string[]): Skill[] {
  const seen = new Map<string, Skill>();
  const visit = (s: Skill) => {
    if (seen.has(s.name)) return;
    seen.set(s.name, s);
    for (const name of s.tools) {
      if (builtinTools.includes(name)) continue;
      const target = lookupSkillRef(name, catalog);
      if (target) visit(target);
    }
    for (const arg of s.args) {
      const target = arg.each ? catalog.skills.get(arg.each) : undefined;
      if (target) visit(target);
    }
  };
  visit(skill);
  return [...seen.values()];
}

/**
 * The model a skill runs on: the override (`--model`), else the skill's, else the configured
 * skill model, as chooseModel decides. A GLM id zhi does not know runs as is. Another model the
 * skill names that zhi does not know (`claude-sonnet-4-5` in a skill written for Claude) falls
 * back to the configured skill model, through `onFallback`; an unknown `--model` or configured
 * model, and models without tool calling, are refused (except on a custom platform, whose models
 * zhi does not know).
 */
export function skillModel(
  skill: Skill,
  o: {
    override?: string | undefined;
    configured: string;
    custom: boolean;
    onFallback?: (asked: string, used: string) => void;
  },
): string {
  const fallback = Boolean(!o.override && skill.model && o.onFallback);
  const choice = chooseModel(
    [
      { model: o.override, source: '--model' },
      // A model named for another vendor's platform falls back; a GLM id or a model without tools does not.
      {
        model: skill.model,
        source: 'skill',
        ...(fallback ? { optional: ['unknown', 'ocr', 'invalid'] } : {}),
      },
      { model: o.configured, source: 'config' },
    ],
    { platform: { id: o.custom ? 'custom' : 'bigmodel' }, role: 'skill', needsTools: skill.tools.length > 0 },
  );
  if (choice.ok) {
    if (fallback && choice.source !== 'skill') o.onFallback?.(skill.model!.toLowerCase(), choice.model);
    return choice.model;
  }
  const text: ErrorText =
    choice.problem === 'no_tools'
      ? { key: 'skills.err.modelNoTools', params: { model: choice.model } }
      : {
          key: 'skills.err.unknownModel',
          params: { model: choice.model, models: chatModelIds().join(', ') },
        };
  const suggestion = choice.problem === 'no_tools' ? undefined : nearest(choice.model, chatModelIds());
  const tries: ErrorText[] = suggestion ? [{ key: 'cli.try.didYouMean', params: { suggestion } }] : [];
  // The skill's own model is its file's fault: say where.
  if (choice.source !== 'skill') throw new ZhiError({ kind: 'usage', what: text, tries });
  throw skillError({ file: skill.file, line: skill.modelLine, field: 'model', message: text }, tries);
}

/** `file, line 4, tools[1]: message` */
export function describeIssue(i: SkillIssue): Shown {
  const where = [i.file, i.line ? t('skills.line', { line: i.line }) : '', i.field ?? '']
    .filter(Boolean)
    .join(', ');
  return t('skills.issue', { where, problem: t(i.message.key, i.message.params) });
}

/** A problem in a skill file as an error (exit code 3: the user's skill file needs fixing). */
export function skillError(i: SkillIssue, tries: ErrorText[] = []): ZhiError {
  return new ZhiError({
    kind: 'config',
    what: { key: 'skills.err.inFile', params: { file: i.file } },
    why: describeIssue(i),
    tries: [...tries, { key: 'skills.try.fix', params: { file: i.file } }],
  });
}
