import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, extname } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, type Node } from 'yaml';
import type { z } from 'zod';
import type { MessageKey } from '../support/i18n/index.js';
import { parseYamlSafe } from '../support/yaml.js';
import { MAX_DESCRIPTION, mapAllowedTools, quoteColonValues, specNameProblem } from './agent-skills.js';
import { listResources } from './bundled.js';
import {
  ARG_TYPES,
  KNOWN_KEYS,
  type Skill,
  type SkillFile,
  type SkillIssue,
  type SkillSource,
  skillFileSchema,
  toSkill,
} from './schema.js';

export const MAX_SKILL_FILE_BYTES = 256 * 1024;
/** Tools a SKILL.md gets when it names none. */
export const SKILL_MD_DEFAULT_TOOLS = ['file_read', 'file_list', 'file_write'];

export interface LoadOutcome {
  skill?: Skill;
  /** Why the file cannot be used (empty when `skill` is set). */
  errors: SkillIssue[];
  /** Things worth fixing that do not stop the skill (unknown keys, ignored tools). */
  warnings: SkillIssue[];
}

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

/** Validate a skill given as text. Line numbers in issues are 1-based lines of the whole file. */
export function parseSkillText(text: string, o: ParseOptions): LoadOutcome {
  if (!text.trim()) return fail(o.file, 'skills.err.emptyFile');
  let yamlText = text;
  let lineOffset = 0;
  let body: string | undefined;
  let bodyLine = 1;
  if (o.format === 'skill-md') {
    const fm = splitFrontMatter(text);
    if (!fm) return fail(o.file, 'skills.err.noFrontMatter', {}, 1);
    yamlText = fm.yaml;
    lineOffset = 1;
    body = fm.body;
    bodyLine = fm.bodyLine;
  }

  let lc = new LineCounter();
  let yaml = parseYamlSafe(yamlText, { lineCounter: lc, limits: { maxBytes: MAX_SKILL_FILE_BYTES } });
  const quoted = !yaml.ok && o.format === 'skill-md' ? quoteColonValues(yamlText) : undefined;
  if (quoted !== undefined) {
    // The client guide's fallback: `description: Use when: …` is quoted and parsed again.
    const retryLc = new LineCounter();
    const retry = parseYamlSafe(quoted, { lineCounter: retryLc, limits: { maxBytes: MAX_SKILL_FILE_BYTES } });
    if (retry.ok) {
      yaml = retry;
      lc = retryLc;
    }
  }
  const lineAt = (offset: number | undefined) =>
    offset === undefined ? undefined : lc.linePos(offset).line + lineOffset;
  if (!yaml.ok) {
    return {
      errors: yaml.problems.slice(0, 3).map((e) => {
        const quote =
          e.yamlCode === 'MISSING_CHAR' && e.offset !== undefined
            ? openQuoteLine(yamlText, e.offset)
            : undefined;
        return {
          file: o.file,
          line: quote !== undefined ? quote + lineOffset : lineAt(e.offset),
          message: { key: 'skills.err.yaml', params: { detail: firstLine(e.message) } },
        };
      }),
      warnings: [],
    };
  }
  const { doc } = yaml;
  const root = doc.contents;
  if (!root) return fail(o.file, 'skills.err.emptyFile');
  if (!isMap(root)) return fail(o.file, 'skills.err.notMapping', {}, lineAt(root.range?.[0]));

  const warnings: SkillIssue[] = [];
  let shellScopes: string[] | undefined;
  const raw = yaml.value as Record<string, unknown>;
  let data: Record<string, unknown> = raw;
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

  if (o.format === 'skill-md') {
    if (!body?.trim()) return { errors: [issue(o.file, 'skills.err.emptyBody', {}, bodyLine)], warnings };
    if ('system_prompt' in raw) {
      warnings.push(
        issue(
          o.file,
          'skills.warn.promptInBody',
          {},
          keyLine(root, 'system_prompt', lineAt),
          'system_prompt',
        ),
      );
    }
    data = { ...raw, system_prompt: body };
    // Agent Skills name the skill after its folder; accept a front matter without `name`.
    const folderName = basename(o.folder ?? dirname(o.file));
    if (raw.name === undefined) data.name = folderName;
    const specErrors = specProblems(raw, folderName, root, o.file, lineAt);
    if (specErrors.length) return { errors: specErrors, warnings };
    if (raw.tools === undefined) {
      const mapped = mapAllowedTools(raw['allowed-tools']);
      if (mapped.shellScopes) shellScopes = mapped.shellScopes;
      for (const ignored of mapped.ignored) {
        warnings.push(
          issue(
            o.file,
            'skills.warn.toolIgnored',
            { tool: ignored },
            keyLine(root, 'allowed-tools', lineAt),
            'allowed-tools',
          ),
        );
      }
      // A skill that ships scripts needs the shell to run them (each command still asks).
      const scripts = (o.resources ?? []).some((r) => /^scripts\//i.test(r));
      data.tools = mapped.tools ?? [...SKILL_MD_DEFAULT_TOOLS, ...(scripts ? ['shell'] : [])];
    }
    delete data['allowed-tools'];
  }

  const parsed = skillFileSchema.safeParse(data);
  if (!parsed.success) {
    return {
      errors: parsed.error.issues.slice(0, 5).map((i) => zodIssue(i, data, root, o.file, lineAt)),
      warnings,
    };
  }
  const skillData: SkillFile = parsed.data;
  const stem =
    o.format === 'skill-md' ? basename(o.folder ?? dirname(o.file)) : basename(o.file, extname(o.file));
  if (stem !== skillData.name) {
    warnings.push(
      issue(
        o.file,
        'skills.warn.nameMismatch',
        { name: skillData.name, stem },
        keyLine(root, 'name', lineAt),
        'name',
      ),
    );
  }
  const toolsNode = root.get('tools', true);
  const toolLines = isSeq(toolsNode)
    ? toolsNode.items.map((it) => lineAt((it as Node).range?.[0]) ?? 0)
    : skillData.tools.map(
        () => keyLine(root, o.format === 'skill-md' ? 'allowed-tools' : 'tools', lineAt) ?? 0,
      );
  const modelLine = keyLine(root, 'model', lineAt);
  const skill = toSkill(skillData, {
    source: o.source,
    file: o.file,
    format: o.format,
    hash: o.hash ?? createHash('sha256').update(text).digest('hex'),
    toolLines,
    resources: o.resources ?? [],
    ...(o.folder ? { folder: o.folder } : {}),
    ...(modelLine ? { modelLine } : {}),
  });
  if (shellScopes) skill.shellScopes = shellScopes;
  return { skill, errors: [], warnings };
}

/**
 * yaml reports an unclosed quote at the end of the input; the person needs the line where the
 * quote was opened: the last `key: "…` line before that point whose quote is not closed.
 */
function openQuoteLine(text: string, end: number): number | undefined {
  const lines = text.slice(0, end).split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = /^\s*(?:-\s+)?[^\s#"'][^:#]*:\s+(["'])(.*)$/.exec(lines[i]!);
    if (m && !m[2]!.trimEnd().endsWith(m[1]!)) return i + 1;
  }
  return undefined;
}

/** `---\n<yaml>\n---\n<body>`; undefined when the file does not start with front matter. */
export function splitFrontMatter(text: string): { yaml: string; body: string; bodyLine: number } | undefined {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return undefined;
  const end = lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(l));
  if (end < 0) return undefined;
  return {
    yaml: lines.slice(1, end).join('\n'),
    body: lines
      .slice(end + 1)
      .join('\n')
      .trim(),
    bodyLine: end + 2,
  };
}

export { mapAllowedTools } from './agent-skills.js';

/** The specification's rules for `name` (format, equal to the folder) and `description` length. */
function specProblems(
  raw: Record<string, unknown>,
  folder: string,
  root: import('yaml').YAMLMap,
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

type LineAt = (offset: number | undefined) => number | undefined;

function warnUnknown(
  map: import('yaml').YAMLMap,
  path: (string | number)[],
  known: readonly string[],
  out: SkillIssue[],
  file: string,
  lineAt: LineAt,
): void {
  for (const pair of map.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    if (known.includes(key)) continue;
    out.push(
      issue(
        file,
        'skills.warn.unknownKey',
        { key },
        lineAt((pair.key as Node | null)?.range?.[0]),
        fieldName([...path, key]),
      ),
    );
  }
}

function keyLine(map: import('yaml').YAMLMap, key: string, lineAt: LineAt): number | undefined {
  const pair = map.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === key);
  return pair ? lineAt((pair.key as Node | null)?.range?.[0]) : undefined;
}

/** Locate a path in the YAML tree: the line of the deepest key or item that exists. */
function lineOfPath(root: Node, path: PropertyKey[], lineAt: LineAt): number | undefined {
  let node: unknown = root;
  let line = lineAt(root.range?.[0]);
  for (const seg of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => String(isScalar(p.key) ? p.key.value : p.key) === String(seg));
      if (!pair) return line;
      line = lineAt((pair.key as Node | null)?.range?.[0]) ?? line;
      node = pair.value;
    } else if (isSeq(node) && typeof seg === 'number') {
      const item = node.items[seg] as Node | undefined;
      if (!item) return line;
      line = lineAt(item.range?.[0]) ?? line;
      node = item;
    } else return line;
  }
  return line;
}

function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let v: unknown = data;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[seg];
  }
  return v;
}

function zodIssue(i: z.core.$ZodIssue, data: unknown, root: Node, file: string, lineAt: LineAt): SkillIssue {
  const path = i.path;
  const field = fieldName(path);
  const missing = i.code === 'invalid_type' && valueAt(data, path) === undefined;
  // A missing top-level field has no line of its own; a missing nested one is shown at its parent.
  const line = missing && path.length <= 1 ? undefined : lineOfPath(root, path, lineAt);
  let key = (missing ? 'skills.err.required' : i.message) as MessageKey;
  if (!key.startsWith('skills.')) key = 'skills.err.invalid';
  return {
    file,
    ...(line ? { line } : {}),
    ...(field ? { field } : {}),
    message: { key, params: { field, types: ARG_TYPES.join(', '), max: 50, detail: i.message } },
  };
}

export function fieldName(path: PropertyKey[]): string {
  let out = '';
  for (const seg of path) out += typeof seg === 'number' ? `[${seg}]` : out ? `.${String(seg)}` : String(seg);
  return out;
}

function issue(
  file: string,
  key: MessageKey,
  params: Record<string, string | number>,
  line?: number,
  field?: string,
): SkillIssue {
  return { file, ...(line ? { line } : {}), ...(field ? { field } : {}), message: { key, params } };
}

function fail(
  file: string,
  key: MessageKey,
  params: Record<string, string | number> = {},
  line?: number,
): LoadOutcome {
  return { errors: [issue(file, key, params, line)], warnings: [] };
}

function firstLine(s: string): string {
  return s.split('\n')[0]!.trim();
}
