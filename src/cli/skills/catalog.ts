import { homedir } from 'node:os';
import {
  discoverSkills,
  overridesBuiltin,
  type SkillCatalog,
  skillCacheFile,
  skillDirsFor,
} from '../../skills/discovery.js';
import { describeIssue } from '../../skills/resolve.js';
import type { Skill } from '../../skills/schema.js';
import { maxBy } from '../../support/arrays.js';
import { ZhiError } from '../../support/errors.js';
import { getLanguage, t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import { nearest } from '../../support/suggest.js';
import { cutToWidth, padToWidth, textWidth } from '../../support/width.js';
import type { AppContext } from '../context.js';
import { formatWarning } from '../render/error.js';
import type { Style } from '../render/style.js';

// The skill catalogue as `zhi skill list` needs it: finding, naming and listing skills. Kept apart
// from running and editing them, so that listing does not load the agent, the tools or the YAML
// parser (the bench's `zhi skill list` row).

/** Find the skills, reporting each broken file (skipped) as a warning that names it. */
export async function loadCatalog(ctx: AppContext, warn: (text: string) => void): Promise<SkillCatalog> {
  const dirs = await skillDirsFor(ctx.paths, ctx.cwd, ctx.env.HOME || homedir());
  const catalog = await discoverSkills(dirs, { cacheFile: skillCacheFile(ctx.paths) });
  for (const issues of catalog.broken) {
    warn(formatWarning(t('skills.warn.skipped', { problem: describeIssue(issues[0]!) }), ctx.err).trimEnd());
  }
  return catalog;
}

/** Warnings about every skill file (for `skill list`). */
export function allWarnings(ctx: AppContext, catalog: SkillCatalog): string[] {
  return [...catalog.skills.values()].flatMap((s) => skillWarnings(ctx, catalog, s));
}

/** Warnings about one skill's file (unknown fields, ignored tools). */
export function skillWarnings(ctx: AppContext, catalog: SkillCatalog, skill: Skill): string[] {
  return (catalog.warnings.get(skill.file) ?? []).map((w) =>
    formatWarning(t('skills.warn.inSkill', { problem: describeIssue(w) }), ctx.err).trimEnd(),
  );
}

/** The skill of that name, or a usage error (exit 2) with a "did you mean". */
export function findSkill(catalog: SkillCatalog, name: string): Skill {
  const skill = catalog.skills.get(name);
  if (skill) return skill;
  const suggestion = nearest(name, catalog.skills.keys());
  throw new ZhiError({
    kind: 'usage',
    what: { key: 'skills.err.unknownSkill', params: { name } },
    tries: [
      ...(suggestion ? [{ key: 'cli.try.didYouMean' as const, params: { suggestion } }] : []),
      { key: 'skills.try.list' },
    ],
  });
}

export function sourceLabel(catalog: SkillCatalog, s: Skill): string {
  if (s.source === 'builtin') return t('skills.source.builtin');
  if (s.source === 'project') return t('skills.source.project');
  return overridesBuiltin(catalog, s) ? t('skills.source.override') : t('skills.source.user');
}

export function describeSkill(s: Skill): string {
  return getLanguage() === 'zh' && s.descriptionZh ? s.descriptionZh : s.description;
}

/** The skills as a table: name, description, model, source (CJK-aware widths, fitted to `width`). */
export function skillTable(
  catalog: SkillCatalog,
  o: { style: Style; width: number; defaultModel: string },
): string[] {
  const skills = [...catalog.skills.values()].sort((a, b) => a.name.localeCompare(b.name));
  if (!skills.length) return [t('skills.list.none')];
  // Names and descriptions come from skill files (a cloned project's too): shown, never run.
  const rows = skills.map((s) => [
    visible(s.name),
    visible(describeSkill(s)),
    visible(s.model ?? o.defaultModel),
    sourceLabel(catalog, s),
  ]);
  const head = [
    t('skills.list.name'),
    t('skills.list.description'),
    t('skills.list.model'),
    t('skills.list.source'),
  ];
  const widths = head.map((h, i) => maxBy(rows, (r) => textWidth(r[i]!), textWidth(h)));
  const fixed = widths[0]! + widths[2]! + widths[3]! + 6;
  widths[1] = Math.max(12, Math.min(widths[1]!, o.width - fixed));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => padToWidth(cutToWidth(c, widths[i]!), widths[i]!))
      .join('  ')
      .trimEnd();
  return [
    o.style.bold(line(head)),
    ...rows.map((r, i) =>
      skills[i]!.model ? line(r) : line(r.slice(0, 2).concat(o.style.dim(r[2]!), r[3]!)),
    ),
  ];
}
