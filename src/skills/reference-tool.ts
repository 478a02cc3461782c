import { z } from 'zod';
import type { AnyTool } from '../tools/types.js';
import { BUNDLED_TRAITS, readBundled, resourceSummary } from './bundled.js';

const schema = z.object({
  path: z
    .string()
    .describe(
      'One of the files listed in the instructions, relative to the skill folder, e.g. "reference/style.md".',
    ),
  offset: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Optional: skip this many bytes of the text, to read the next part of a long file.'),
});

/**
 * `read_reference`: reads a file that sits beside an Agent Skills `SKILL.md` (references,
 * assets, scripts). The model gets the list of files, not their text; it reads the ones it
 * needs, a page at a time. Only listed files, only inside the skill's folder.
 */
export function referenceTool(folder: string, resources: readonly string[]): AnyTool {
  return {
    name: 'read_reference',
    description: `Read one of this skill's bundled files (read-only; long files come in pages): ${resourceSummary(resources.slice(0, 20))}${resources.length > 20 ? ', …' : ''}.`,
    schema,
    kind: 'read',
    traits: BUNDLED_TRAITS,
    label: (args: z.infer<typeof schema>) => args.path,
    async execute(args: z.infer<typeof schema>, ctx) {
      const read = await readBundled(folder, resources, args.path, {
        ...(args.offset ? { offset: args.offset } : {}),
        signal: ctx.signal,
        how: (next) => `Call read_reference with path "${args.path}" and offset=${next} to read on.`,
      });
      return read.text;
    },
  };
}
