import { z } from 'zod';
import type { ErrorText } from '../support/errors.js';
import { SKILL_TOOL_PREFIX } from './names.js';
import { CHUNKINGS, type Chunking } from './split.js';

/** Skill names: safe as file names and as the suffix of a tool name (`skill_<name>`). */
export const SKILL_NAME_RE = /^[a-zA-Z0-9][a-zA-Z0-9_-]*$/;
export const MAX_SKILL_NAME = 64;
export const DEFAULT_MAX_TURNS = 15;
export const MAX_TURNS_LIMIT = 50;
/** Composite skills may nest this deep (the skill the user ran counts as level 1). */
export const MAX_SKILL_DEPTH = 3;
/** Prefix of the tool that runs another skill inside a composite skill. */
export { SKILL_TOOL_PREFIX };

export const ARG_TYPES = ['file', 'directory', 'string', 'number', 'boolean'] as const;
export type ArgType = (typeof ARG_TYPES)[number];

export interface SkillArg {
  name: string;
  type: ArgType;
  required: boolean;
  default?: string | number | boolean;
  description?: string;
  /** The description in Chinese, shown when zhi speaks Chinese (the built-ins have one). */
  descriptionZh?: string;
  /** Directory args only: run this skill on every supported file first and hand over the results. */
  each?: string;
  /** Directory args only: which file extensions count (without the dot, lower case). */
  extensions?: string[];
  /** Text args only: the values allowed (`--length short|medium|long`), checked before a run. */
  choices?: string[];
}

/** `project`: found in the current project's `.agents/skills/` or `.claude/skills/`. */
export type SkillSource = 'builtin' | 'user' | 'project';

/** A skill as loaded from disk, validated and with defaults applied (the model default stays open). */
export interface Skill {
  name: string;
  description: string;
  descriptionZh?: string;
  /** The author's own version of the skill, if it gives one. */
  version?: string;
  systemPrompt: string;
  /** As written in the file: built-in tool names and other skills (`analyze` or `skill_analyze`). */
  tools: string[];
  /** Undefined: the configured skill model (`skill_model`, default glm-4-flash). */
  model?: string;
  maxTurns: number;
  /** Ask for thinking (only used when the model supports it). */
  thinking: boolean;
  inputDescription?: string;
  args: SkillArg[];
  output: { description?: string; directory?: string };
  source: SkillSource;
  /** The file that defines it (`<name>.yaml` or `<name>/SKILL.md`). */
  file: string;
  format: 'yaml' | 'skill-md';
  /** The skill's own folder (Agent Skills format), with its reference files (relative paths). */
  folder?: string;
  resources: string[];
  /** sha256 of the file's bytes, for trust. */
  hash: string;
  /** Line of each entry of `tools`, for errors found later (an unknown tool or skill). */
  toolLines: number[];
  /** Line of the `model` key, if any. */
  modelLine?: number;
  /**
   * Documents longer than the model can take: `combine` processes the parts and combines their
   * results in one more call (summaries, analyses); `concat` joins the parts' results in order
   * into one file (translation). Undefined: a long document is cut at the budget.
   */
  mapReduce?: 'combine' | 'concat';
  /**
   * `output.answer: file`: the file the skill writes is its answer. The run ends when its
   * file_write succeeds and the content written is shown and returned: one model call, never a
   * second generation of the same text.
   */
  answerIsFile?: boolean;
  /** Where long documents are split (default headings, then paragraphs). */
  chunking?: Chunking;
  /** `allowed-tools: Bash(python3:*)`: the shell may run only commands with these prefixes. */
  shellScopes?: string[];
  /**
   * A SKILL.md's `allowed-tools`, mapped to zhi's names, when it declares one: in chat, only these
   * tools run while the skill is in use (skills/skill-limits.ts); `zhi run` gives it only these.
   */
  allowedTools?: string[];
}

/** A problem in a skill file, located as precisely as the file allows. */
export interface SkillIssue {
  file: string;
  line?: number;
  /** Dotted path of the field, e.g. `input.args[0].type`. */
  field?: string;
  message: ErrorText;
}

const nameSchema = z
  .string({ error: 'skills.err.notText' })
  .min(1, { error: 'skills.err.empty' })
  .max(MAX_SKILL_NAME, { error: 'skills.err.nameLong' })
  .regex(SKILL_NAME_RE, { error: 'skills.err.name' });

const text = z
  .string({ error: 'skills.err.notText' })
  .refine((s) => s.trim().length > 0, { error: 'skills.err.empty' });

const argSchema = z
  .object({
    name: z
      .string({ error: 'skills.err.notText' })
      .regex(/^[a-zA-Z][a-zA-Z0-9_-]*$/, { error: 'skills.err.argName' })
      .max(40, { error: 'skills.err.argName' }),
    type: z.enum(ARG_TYPES, { error: 'skills.err.argType' }),
    required: z.boolean({ error: 'skills.err.notBool' }).optional(),
    default: z.union([z.string(), z.number(), z.boolean()], { error: 'skills.err.default' }).optional(),
    description: z.string({ error: 'skills.err.notText' }).optional(),
    description_zh: z.string({ error: 'skills.err.notText' }).optional(),
    each: nameSchema.optional(),
    extensions: z
      .array(
        z
          .string({ error: 'skills.err.notText' })
          .regex(/^\.?[a-zA-Z0-9]+$/, { error: 'skills.err.extension' }),
        {
          error: 'skills.err.notList',
        },
      )
      .optional(),
    choices: z
      .array(z.string({ error: 'skills.err.notText' }).min(1, { error: 'skills.err.empty' }), {
        error: 'skills.err.notList',
      })
      .min(1, { error: 'skills.err.notList' })
      .optional(),
  })
  .superRefine((arg, ctx) => {
    if (arg.default !== undefined) {
      const want = arg.type === 'number' ? 'number' : arg.type === 'boolean' ? 'boolean' : 'string';
      if (typeof arg.default !== want)
        ctx.addIssue({ code: 'custom', path: ['default'], message: 'skills.err.defaultType' });
    }
    if (arg.choices !== undefined && arg.type !== 'string')
      ctx.addIssue({ code: 'custom', path: ['choices'], message: 'skills.err.choicesText' });
    else if (arg.choices && arg.default !== undefined && !arg.choices.includes(String(arg.default)))
      ctx.addIssue({ code: 'custom', path: ['default'], message: 'skills.err.defaultChoice' });
    if ((arg.each !== undefined || arg.extensions !== undefined) && arg.type !== 'directory') {
      ctx.addIssue({
        code: 'custom',
        path: [arg.each !== undefined ? 'each' : 'extensions'],
        message: 'skills.err.dirOnly',
      });
    }
  });

/** The YAML format (plan §4.2). Unknown keys are reported by the loader as warnings, not here. */
export const skillFileSchema = z.object({
  name: nameSchema,
  description: text,
  description_zh: z.string({ error: 'skills.err.notText' }).optional(),
  /** The author's version (`version: 1.2` in YAML, `metadata: {version: …}` in SKILL.md), shown when shared. */
  version: z
    .union([z.string(), z.number()], { error: 'skills.err.notText' })
    .transform((v) => String(v).trim())
    .optional(),
  system_prompt: text,
  tools: z.array(
    z
      .string({ error: 'skills.err.notText' })
      .regex(/^(mcp:)?[a-zA-Z0-9][a-zA-Z0-9_-]*$/, { error: 'skills.err.toolName' })
      .max(MAX_SKILL_NAME + SKILL_TOOL_PREFIX.length, { error: 'skills.err.toolName' }),
    { error: 'skills.err.notList' },
  ),
  model: z.string({ error: 'skills.err.notText' }).min(1, { error: 'skills.err.empty' }).optional(),
  max_turns: z
    .number({ error: 'skills.err.notNumber' })
    .int({ error: 'skills.err.maxTurns' })
    .min(1, { error: 'skills.err.maxTurns' })
    .max(MAX_TURNS_LIMIT, { error: 'skills.err.maxTurns' })
    .optional(),
  thinking: z.boolean({ error: 'skills.err.notBool' }).optional(),
  map_reduce: z.union([z.boolean(), z.literal('concat')], { error: 'skills.err.mapReduce' }).optional(),
  chunking: z.enum(CHUNKINGS, { error: 'skills.err.chunking' }).optional(),
  input: z
    .object(
      {
        description: z.string({ error: 'skills.err.notText' }).optional(),
        args: z
          .array(argSchema, { error: 'skills.err.notList' })
          .superRefine((args, ctx) => {
            const seen = new Set<string>();
            args.forEach((a, i) => {
              if (seen.has(a.name))
                ctx.addIssue({ code: 'custom', path: [i, 'name'], message: 'skills.err.argDuplicate' });
              seen.add(a.name);
            });
          })
          .optional(),
      },
      { error: 'skills.err.notMap' },
    )
    .optional(),
  output: z
    .object(
      {
        description: z.string({ error: 'skills.err.notText' }).optional(),
        directory: z
          .string({ error: 'skills.err.notText' })
          .refine((d) => isSafeRelativeDir(d), { error: 'skills.err.outputDir' })
          .optional(),
        answer: z.literal('file', { error: 'skills.err.answer' }).optional(),
      },
      { error: 'skills.err.notMap' },
    )
    .optional(),
});

export type SkillFile = z.infer<typeof skillFileSchema>;

/** Keys a skill file may have, per level, for the unknown-key warnings. */
export const KNOWN_KEYS = {
  top: [
    'name',
    'description',
    'description_zh',
    'version',
    'system_prompt',
    'tools',
    'model',
    'max_turns',
    'thinking',
    'map_reduce',
    'chunking',
    'input',
    'output',
  ],
  input: ['description', 'args'],
  arg: [
    'name',
    'type',
    'required',
    'default',
    'description',
    'description_zh',
    'each',
    'extensions',
    'choices',
  ],
  output: ['description', 'directory', 'answer'],
  /** Agent Skills front matter keys zhi accepts besides its own. */
  skillMd: ['allowed-tools', 'license', 'compatibility', 'metadata'],
} as const;

/** A relative folder without `..` (a skill may not send files outside the current directory). */
export function isSafeRelativeDir(dir: string): boolean {
  const d = dir.trim();
  if (!d || d.startsWith('/') || d.startsWith('\\') || /^[a-zA-Z]:/.test(d) || d.startsWith('~'))
    return false;
  return !d.split(/[\\/]+/).some((part) => part === '..');
}

export function isValidSkillName(name: string): boolean {
  return name.length <= MAX_SKILL_NAME && SKILL_NAME_RE.test(name);
}

/** Turn validated file data into a Skill (defaults applied). */
export function toSkill(
  data: SkillFile,
  meta: Pick<Skill, 'source' | 'file' | 'format' | 'hash' | 'toolLines' | 'resources'> & {
    folder?: string;
    modelLine?: number;
  },
): Skill {
  const skill: Skill = {
    name: data.name,
    description: data.description.trim(),
    systemPrompt: data.system_prompt.trim(),
    tools: [...data.tools],
    maxTurns: data.max_turns ?? DEFAULT_MAX_TURNS,
    thinking: data.thinking ?? false,
    args: (data.input?.args ?? []).map((a) => {
      const arg: SkillArg = { name: a.name, type: a.type, required: a.required ?? false };
      if (a.default !== undefined) arg.default = a.default;
      if (a.description) arg.description = a.description.trim();
      if (a.description_zh?.trim()) arg.descriptionZh = a.description_zh.trim();
      if (a.each) arg.each = a.each;
      if (a.extensions) arg.extensions = a.extensions.map((e) => e.replace(/^\./, '').toLowerCase());
      if (a.choices) arg.choices = a.choices.map((c) => c.trim());
      return arg;
    }),
    output: {
      ...(data.output?.description ? { description: data.output.description.trim() } : {}),
      ...(data.output?.directory ? { directory: data.output.directory.trim() } : {}),
    },
    source: meta.source,
    file: meta.file,
    format: meta.format,
    resources: meta.resources,
    hash: meta.hash,
    toolLines: meta.toolLines,
  };
  if (data.description_zh?.trim()) skill.descriptionZh = data.description_zh.trim();
  if (data.version) skill.version = data.version.slice(0, 40);
  if (data.model) skill.model = data.model.trim().toLowerCase();
  if (data.input?.description?.trim()) skill.inputDescription = data.input.description.trim();
  if (meta.folder) skill.folder = meta.folder;
  if (meta.modelLine) skill.modelLine = meta.modelLine;
  if (data.map_reduce) skill.mapReduce = data.map_reduce === 'concat' ? 'concat' : 'combine';
  if (data.chunking) skill.chunking = data.chunking;
  if (data.output?.answer === 'file') skill.answerIsFile = true;
  return skill;
}

/** The tool name under which a skill is offered to a composite skill. */
export function skillToolName(name: string): string {
  return `${SKILL_TOOL_PREFIX}${name}`;
}
