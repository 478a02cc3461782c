import { maxBy } from '../support/arrays.js';
import { type ErrorText, ZhiError } from '../support/errors.js';
import { getLanguage, joinShown, type Shown, t } from '../support/i18n/index.js';
import { nearest } from '../support/suggest.js';
import { padToWidth, textWidth } from '../support/width.js';
import type { Skill, SkillArg } from './schema.js';

export type InputValue = string | number | boolean;
export type InputValues = Record<string, InputValue>;

/** The values without one input (what else a result depends on). */
export function withoutInput(values: InputValues, name: string): InputValues {
  const { [name]: _gone, ...rest } = values;
  return rest;
}

const PATH_TYPES = new Set(['file', 'directory']);

/** `zhi run translate [file] [--text <text>] [--to <text>]` and one line per input. */
export function skillUsage(skill: Skill, prefix = 'zhi run'): Shown {
  const parts = [`${prefix} ${skill.name}`];
  for (const a of skill.args) {
    const shown = PATH_TYPES.has(a.type)
      ? `<${a.name}>`
      : a.type === 'boolean'
        ? `--${a.name}`
        : `--${a.name} <${a.type === 'number' ? 'n' : (a.choices?.join('|') ?? a.name)}>`;
    parts.push(a.required ? shown : `[${shown}]`);
  }
  const lines = [t('skills.usageLine', { usage: parts.join(' ') })];
  const width = maxBy(skill.args, (a) => textWidth(argLabel(a)), 0);
  for (const a of skill.args) {
    const facts = [
      t(`skills.type.${a.type}`),
      a.required ? t('skills.required') : '',
      a.default !== undefined ? t('skills.defaultIs', { value: String(a.default) }) : '',
    ]
      .filter(Boolean)
      .join(', ');
    const said = getLanguage() === 'zh' && a.descriptionZh ? a.descriptionZh : a.description;
    const name = padToWidth(argLabel(a), width);
    lines.push(
      said ? t('skills.usageArg', { name, said, facts }) : t('skills.usageArgBare', { name, facts }),
    );
  }
  return joinShown(lines, '\n');
}

function argLabel(a: SkillArg): string {
  return PATH_TYPES.has(a.type) ? a.name : `--${a.name}`;
}

/** A usage error (exit 2) that shows the skill's usage. */
export function inputError(skill: Skill, what: ErrorText, prefix = 'zhi run'): ZhiError {
  return new ZhiError({
    kind: 'usage',
    what,
    why: skillUsage(skill, prefix),
    tries: [{ key: 'skills.try.show', params: { name: skill.name } }],
  });
}

const norm = (s: string) => s.toLowerCase().replace(/_/g, '-');

/**
 * Map the command line to the skill's inputs: positional words fill the file/directory inputs in
 * order (then, when a skill takes no paths, its text inputs: `zhi run fetch-page https://…`);
 * `--<name> <value>` sets any input by name. Values are typed; defaults applied; a missing
 * required input or an unknown name is a usage error that shows the skill's usage.
 */
export function mapCliInputs(
  skill: Skill,
  positionals: readonly string[],
  named: Readonly<Record<string, string | true>>,
  prefix = 'zhi run',
): InputValues {
  const values: InputValues = {};
  for (const [rawKey, raw] of Object.entries(named)) {
    const arg = skill.args.find((a) => norm(a.name) === norm(rawKey));
    if (!arg) {
      const suggestion = nearest(
        rawKey,
        skill.args.map((a) => a.name),
      );
      throw inputError(
        skill,
        suggestion
          ? {
              key: 'skills.err.unknownInputDidYouMean',
              params: { name: rawKey, skill: skill.name, suggestion },
            }
          : { key: 'skills.err.unknownInput', params: { name: rawKey, skill: skill.name } },
        prefix,
      );
    }
    values[arg.name] = coerce(skill, arg, raw, prefix);
  }
  const pathArgs = skill.args.filter((a) => PATH_TYPES.has(a.type) && !(a.name in values));
  const textArgs = skill.args.filter((a) => a.type === 'string' && !(a.name in values));
  const queue = [...positionals];
  for (const a of pathArgs) {
    const next = queue.shift();
    if (next === undefined) break;
    values[a.name] = next;
  }
  if (!skill.args.some((a) => PATH_TYPES.has(a.type))) {
    for (const a of textArgs) {
      const next = queue.shift();
      if (next === undefined) break;
      values[a.name] = next;
    }
  }
  if (queue.length) {
    throw inputError(
      skill,
      { key: 'skills.err.tooManyInputs', params: { extra: queue.join(' '), skill: skill.name } },
      prefix,
    );
  }
  return completeInputs(skill, values, prefix);
}

/** Apply defaults and check required inputs (also used for a composite skill's tool call). */
export function completeInputs(skill: Skill, given: InputValues, prefix = 'zhi run'): InputValues {
  const values: InputValues = { ...given };
  for (const a of skill.args) {
    if (values[a.name] === undefined && a.default !== undefined) values[a.name] = a.default;
    if (a.choices && values[a.name] !== undefined) values[a.name] = choice(skill, a, values[a.name]!, prefix);
  }
  const missing = skill.args.filter(
    (a) => a.required && (values[a.name] === undefined || values[a.name] === ''),
  );
  if (missing.length) {
    throw inputError(
      skill,
      { key: 'skills.err.missingInput', params: { names: missing.map((a) => a.name).join(', ') } },
      prefix,
    );
  }
  return values;
}

function coerce(skill: Skill, arg: SkillArg, raw: string | true, prefix: string): InputValue {
  if (arg.type === 'boolean') {
    if (raw === true) return true;
    const v = raw.trim().toLowerCase();
    if (['true', 'yes', 'y', '1', 'on', '是'].includes(v)) return true;
    if (['false', 'no', 'n', '0', 'off', '否'].includes(v)) return false;
    throw inputError(skill, { key: 'skills.err.badBoolean', params: { name: arg.name, value: raw } }, prefix);
  }
  if (raw === true)
    throw inputError(skill, { key: 'skills.err.inputNeedsValue', params: { name: arg.name } }, prefix);
  if (arg.type === 'number') {
    const n = Number(raw.trim());
    if (raw.trim() === '' || !Number.isFinite(n)) {
      throw inputError(
        skill,
        { key: 'skills.err.badNumber', params: { name: arg.name, value: raw } },
        prefix,
      );
    }
    return n;
  }
  return raw;
}

/** One of the input's allowed values, as the skill spells it (`--length Short` is `short`). */
function choice(skill: Skill, arg: SkillArg, value: InputValue, prefix: string): InputValue {
  const choices = arg.choices ?? [];
  const wanted = String(value).trim().toLowerCase();
  const hit = choices.find((c) => c.toLowerCase() === wanted);
  if (hit !== undefined) return hit;
  throw inputError(
    skill,
    {
      key: 'skills.err.badChoice',
      params: { name: arg.name, value: String(value), choices: choices.join(', ') },
    },
    prefix,
  );
}

/** True when the skill takes a file, folder or text input but none was given. */
export function lacksContent(skill: Skill, values: InputValues): boolean {
  const content = skill.args.filter((a) => PATH_TYPES.has(a.type) || a.name === 'text');
  return content.length > 0 && content.every((a) => values[a.name] === undefined || values[a.name] === '');
}
