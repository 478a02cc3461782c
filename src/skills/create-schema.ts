/**
 * skill_create's arguments, apart from the code that saves a skill (create.ts), so the tool can be
 * offered without loading the YAML writer and the skill loader at every chat start.
 */
import { z } from 'zod';
import { chatModelIds, findModel } from '../llm/models.js';
import { ARG_TYPES, MAX_SKILL_NAME, MAX_TURNS_LIMIT, SKILL_NAME_RE } from './schema.js';

/** What the model gives skill_create. Checked here so a bad call never reaches the user's approval. */
export const newSkillSchema = z.object({
  name: z
    .string()
    .max(MAX_SKILL_NAME)
    .regex(
      SKILL_NAME_RE,
      'use only letters, digits, "-" and "_", starting with a letter or digit (no spaces, slashes or dots)',
    )
    .describe('Skill name, e.g. "invoice-summary": letters, digits, "-" and "_"; at most 64 characters.'),
  description: z.string().min(1).describe('One line saying what the skill does (shown in `zhi skill list`).'),
  system_prompt: z
    .string()
    .min(20)
    .describe(
      'The instructions the skill model follows. It runs on a small model: write numbered steps, name each tool call, give the output file name and its exact format, and what the final answer must contain.',
    ),
  tools: z
    .array(z.string())
    .describe(
      'Tools the skill may use: file_read, file_list, file_write, ocr, web_fetch, shell; and other skills by name to build a composite skill (each becomes a tool skill_<name>).',
    ),
  model: z
    .string()
    .optional()
    .refine(
      (m) => m === undefined || Boolean(findModel(m) && findModel(m)!.kind !== 'ocr' && findModel(m)!.tools),
      {
        message: `unknown model or a model without tool calling; use one of: ${chatModelIds()
          .filter((m) => findModel(m)?.tools)
          .join(', ')}`,
      },
    )
    .describe('Model that runs the skill. Leave it out for the default, glm-4-flash (free).'),
  max_turns: z
    .number()
    .int()
    .min(1)
    .max(MAX_TURNS_LIMIT)
    .optional()
    .describe('Turn limit from 1 to 50 (default 15).'),
  inputs: z
    .array(
      z.object({
        name: z
          .string()
          .regex(/^[a-zA-Z][a-zA-Z0-9_-]*$/, 'start with a letter; letters, digits, "-" and "_"'),
        type: z.enum(ARG_TYPES),
        required: z.boolean().optional(),
        description: z.string().optional(),
        default: z.union([z.string(), z.number(), z.boolean()]).optional(),
      }),
    )
    .optional()
    .describe(
      'The inputs. On the command line, file and directory inputs are given in order (`zhi run name a.pdf`), the others as `--name value`.',
    ),
  input_description: z.string().optional().describe('One line about what the skill takes.'),
  output_description: z.string().optional().describe('One line about what the skill produces.'),
});
export type NewSkill = z.infer<typeof newSkillSchema>;
