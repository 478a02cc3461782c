import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, extname } from 'node:path';
import { isMap, isSeq, LineCounter, type Node } from 'yaml';
import { pushAll } from '../support/arrays.js';
import { parseYamlSafe } from '../support/yaml.js';
import { SCRIPT_TOOL, SHELL_TOOL, SKILL_DEFAULT_TOOL_NAMES } from '../tools/index.js';
import {
  asksForCode,
  MAX_DESCRIPTION,
  mapAllowedTools,
  quoteColonValues,
  specNameProblem,
} from './agent-skills.js';
import { isScript, listResources } from './bundled.js';
import { splitFrontMatter } from './front-matter.js';
import type { LoadOutcome } from './issues.js';
import {
  fail,
  firstLine,
  issue,
  keyLine,
  type LineAt,
  openQuoteLine,
  warnUnknown,
  zodIssue,
} from './issues.js';
import {
  isValidSkillName,
  KNOWN_KEYS,
  type Skill,
  type SkillFile,
  type SkillIssue,
  type SkillSource,
  skillFileSchema,
  toSkill,
} from './schema.js';

export type { LoadOutcome } from './issues.js';

export const MAX_SKILL_FILE_BYTES = 256 * 1024;
/** Tools a SKILL.md gets when it names none: those whose traits say so (tools/index.ts). */
export const SKILL_MD_DEFAULT_TOOLS = SKILL_DEFAULT_TOOL_NAMES;

export interface ParseOptions {
  file: string;
  source: SkillSource;
  format: 'yaml' | 'skill-md';
  folder?: string;
  resources?: string[];
  hash?: string;
}

/** Read and validate one skill file (`<name>.yaml` / `.yml`, or `<name>/SKILL.md`). Never throws. */
export async function loadSkillFile(file: string, source: SkillSource): Promise<LoadOutcome> {
  const format = basename(file) === 'SKILL.md' ? 'skill-md' : 'yaml';
  let bytes: Buffer;
  try {
    const info = await stat(file);
    if (info.size > MAX_SKILL_FILE_BYTES) return fail(file, 'skills.err.tooBig', { max: '256 KB' });
    bytes = await readFile(file);
  } catch (err) {
    return fail(file, 'skills.err.unreadable', { reason: (err as Error).message });
  }
  const folder = format === 'skill-md' ? dirname(file) : undefined;
  const resources = folder ? await listResources(folder) : [];
  return parseSkillBytes(bytes, { file, source, format, ...(folder ? { folder } : {}), resources });
}

export function parseSkillBytes(bytes: Buffer, o: ParseOptions): LoadOutcome {
  if (bytes.subarray(0, 8192).includes(0)) return fail(o.file, 'skills.err.binary');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Files saved by Chinese Windows editors are often GBK.
    text = new TextDecoder('gb18030').decode(bytes);
  }
  const hash = o.hash ?? createHash('sha256').update(bytes).digest('hex');
  return parseSkillText(text.replace(/^\uFEFF/, ''), { ...o, hash });
}

type YamlRoot = import('yaml').YAMLMap;

/** The YAML part of a skill file (all of a .yaml; the front matter of a SKILL.md) and its body. */
interface SkillParts {
  yamlText: string;
  lineOffset: number;
  body?: string;
  bodyLine: number;
}

/** Validate a skill given as text. Line numbers in issues are 1-based lines of the whole file. */
export function parseSkillText(text: string, o: ParseOptions): LoadOutcome {
  if (!text.trim()) return fail(o.file, 'skills.err.emptyFile');
  const parts = skillParts(text, o);
  if (!parts) return fail(o.file, 'skills.err.noFrontMatter', {}, 1);
  const parsed = parseYamlPart(parts, o);
  if ('errors' in parsed) return parsed;
  const { root, raw, lineAt } = parsed;
  const warnings = unknownKeyWarnings(root, o, lineAt);
  let data: Record<string, unknown> = raw;
  let limits: Pick<Skill, 'shellScopes' | 'allowedTools'> = {};
  if (o.format === 'skill-md') {
    const md = skillMdData(raw, root, parts, o, lineAt, warnings);
    if ('errors' in md) return md;
    ({ data, limits } = md);
  }
  const checked = skillFileSchema.safeParse(data);
  if (!checked.success) {
    return {
      errors: checked.error.issues.slice(0, 5).map((i) => zodIssue(i, data, root, o.file, lineAt)),
      warnings,
    };
  }
  const skill = buildSkill(checked.data, root, o, text, lineAt, warnings);
  return { skill: { ...skill, ...limits }, errors: [], warnings };
}

function skillParts(text: string, o: ParseOptions): SkillParts | undefined {
  if (o.format !== 'skill-md') return { yamlText: text, lineOffset: 0, bodyLine: 1 };
  const fm = splitFrontMatter(text);
  return fm ? { yamlText: fm.yaml, lineOffset: 1, body: fm.body, bodyLine: fm.bodyLine } : undefined;
}

/** Parse the YAML part; a SKILL.md gets the client guide's fallback for unquoted colons. */
function parseYamlPart(
  parts: SkillParts,
  o: ParseOptions,
): { root: YamlRoot; raw: Record<string, unknown>; lineAt: LineAt } | LoadOutcome {
  const limits = { maxBytes: MAX_SKILL_FILE_BYTES };
  let lc = new LineCounter();
  let yaml = parseYamlSafe(parts.yamlText, { lineCounter: lc, limits });
  const quoted = !yaml.ok && o.format === 'skill-md' ? quoteColonValues(parts.yamlText) : undefined;
  if (quoted !== undefined) {
    // The client guide's fallback: `description: Use when: …` is quoted and parsed again.
    const retryLc = new LineCounter();
    const retry = parseYamlSafe(quoted, { lineCounter: retryLc, limits });
    if (retry.ok) {
      yaml = retry;
      lc = retryLc;
    }
  }
  const lineAt: LineAt = (offset) =>
    offset === undefined ? undefined : lc.linePos(offset).line + parts.lineOffset;
  if (!yaml.ok) {
    const errors = yaml.problems.slice(0, 3).map((e) => {
      const quote =
        e.yamlCode === 'MISSING_CHAR' && e.offset !== undefined
          ? openQuoteLine(parts.yamlText, e.offset)
          : undefined;
      const line = quote !== undefined ? quote + parts.lineOffset : lineAt(e.offset);
      return issue(o.file, 'skills.err.yaml', { detail: firstLine(e.message) }, line);
    });
    return { errors, warnings: [] };
  }
  const root = yaml.doc.contents;
  if (!root) return fail(o.file, 'skills.err.emptyFile');
  if (!isMap(root)) return fail(o.file, 'skills.err.notMapping', {}, lineAt(root.range?.[0]));
  return { root, raw: yaml.value as Record<string, unknown>, lineAt };
}

/** Warnings for keys zhi does not know, at every level of the file. */
function unknownKeyWarnings(root: YamlRoot, o: ParseOptions, lineAt: LineAt): SkillIssue[] {
  const warnings: SkillIssue[] = [];
  const known: readonly string[] =
    o.format === 'skill-md'
      ? [...KNOWN_KEYS.top.filter((k) => k !== 'system_prompt'), ...KNOWN_KEYS.skillMd]
      : KNOWN_KEYS.top;
  warnUnknown(root, [], known, warnings, o.file, lineAt);
  const input = root.get('input', true);
  if (isMap(input)) {
    warnUnknown(input, ['input'], KNOWN_KEYS.input, warnings, o.file, lineAt);
    const args = input.get('args', true);
    if (isSeq(args)) {
      args.items.forEach((item, i) => {
        if (isMap(item)) warnUnknown(item, ['input', 'args', i], KNOWN_KEYS.arg, warnings, o.file, lineAt);
      });
    }
  }
  const output = root.get('output', true);
  if (isMap(output)) warnUnknown(output, ['output'], KNOWN_KEYS.output, warnings, o.file, lineAt);
  return warnings;
}

/**
 * A SKILL.md as zhi's skill data: the body is the prompt, the folder names the skill,
 * `allowed-tools` gives the tools (and the shell's scopes), `metadata.version` the version.
 */
function skillMdData(
  raw: Record<string, unknown>,
  root: YamlRoot,
  parts: SkillParts,
  o: ParseOptions,
  lineAt: LineAt,
  warnings: SkillIssue[],
): { data: Record<string, unknown>; limits: Pick<Skill, 'shellScopes' | 'allowedTools'> } | LoadOutcome {
  if (!parts.body?.trim())
    return { errors: [issue(o.file, 'skills.err.emptyBody', {}, parts.bodyLine)], warnings };
  if ('system_prompt' in raw) {
    const line = keyLine(root, 'system_prompt', lineAt);
    warnings.push(issue(o.file, 'skills.warn.promptInBody', {}, line, 'system_prompt'));
  }
  const data: Record<string, unknown> = { ...raw, system_prompt: parts.body };
  // Agent Skills name the skill after its folder; accept a front matter without `name`.
  const folderName = basename(o.folder ?? dirname(o.file));
  if (raw.name === undefined) data.name = folderName;
  // The client guide's leniency: a slip of the specification (a long description, a name unlike
  // its folder) loads with a warning. A name zhi cannot use at all gives way to the folder's.
  if (typeof raw.name === 'string' && !isValidSkillName(raw.name) && isValidSkillName(folderName))
    data.name = folderName;
  pushAll(warnings, specProblems(raw, folderName, root, o.file, lineAt));
  const metadata = raw.metadata as Record<string, unknown> | undefined;
  if (raw.version === undefined && typeof metadata === 'object' && metadata?.version !== undefined)
    data.version = metadata.version;
  delete data['allowed-tools'];
  if (raw.tools !== undefined) return { data, limits: {} };
  const mapped = mapAllowedTools(raw['allowed-tools']);
  for (const ignored of mapped.ignored) {
    const line = keyLine(root, 'allowed-tools', lineAt);
    warnings.push(issue(o.file, 'skills.warn.toolIgnored', { tool: ignored }, line, 'allowed-tools'));
  }
  // A skill that ships scripts (in any folder) needs the shell to run them (each command still asks).
  const scripts = (o.resources ?? []).some(isScript);
  const code = asksForCode(parts.body) ? [SCRIPT_TOOL.name] : [];
  data.tools = mapped.tools ?? [...SKILL_MD_DEFAULT_TOOLS, ...(scripts ? [SHELL_TOOL.name] : []), ...code];
  const limits = {
    ...(mapped.shellScopes ? { shellScopes: mapped.shellScopes } : {}),
    ...(mapped.tools ? { allowedTools: mapped.tools } : {}),
  };
  return { data, limits };
}

/** The Skill of checked data, with the lines later errors point at. */
function buildSkill(
  skillData: SkillFile,
  root: YamlRoot,
  o: ParseOptions,
  text: string,
  lineAt: LineAt,
  warnings: SkillIssue[],
): Skill {
  const stem =
    o.format === 'skill-md' ? basename(o.folder ?? dirname(o.file)) : basename(o.file, extname(o.file));
  // A SKILL.md's name and folder are compared by specProblems, with the specification's words.
  if (stem !== skillData.name && o.format !== 'skill-md') {
    const line = keyLine(root, 'name', lineAt);
    warnings.push(issue(o.file, 'skills.warn.nameMismatch', { name: skillData.name, stem }, line, 'name'));
  }
  const toolsNode = root.get('tools', true);
  const toolLines = isSeq(toolsNode)
    ? toolsNode.items.map((it) => lineAt((it as Node).range?.[0]) ?? 0)
    : skillData.tools.map(
        () => keyLine(root, o.format === 'skill-md' ? 'allowed-tools' : 'tools', lineAt) ?? 0,
      );
  const modelLine = keyLine(root, 'model', lineAt);
  return toSkill(skillData, {
    source: o.source,
    file: o.file,
    format: o.format,
    hash: o.hash ?? createHash('sha256').update(text).digest('hex'),
    toolLines,
    resources: o.resources ?? [],
    ...(o.folder ? { folder: o.folder } : {}),
    ...(modelLine ? { modelLine } : {}),
  });
}

export { mapAllowedTools } from './agent-skills.js';
export { splitFrontMatter } from './front-matter.js';

/** The specification's rules for `name` (format, equal to the folder) and `description` length: warnings. */
function specProblems(
  raw: Record<string, unknown>,
  folder: string,
  root: YamlRoot,
  file: string,
  lineAt: LineAt,
): SkillIssue[] {
  const out: SkillIssue[] = [];
  if (typeof raw.name === 'string') {
    const problem = specNameProblem(raw.name, folder);
    if (problem) out.push(issue(file, problem.key, problem.params, keyLine(root, 'name', lineAt), 'name'));
  }
  if (typeof raw.description === 'string' && raw.description.length > MAX_DESCRIPTION) {
    out.push(
      issue(
        file,
        'skills.spec.description',
        { length: raw.description.length, max: MAX_DESCRIPTION },
        keyLine(root, 'description', lineAt),
        'description',
      ),
    );
  }
  return out;
}
