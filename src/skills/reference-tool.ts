import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { isInside } from '../tools/paths.js';
import { readDocument } from '../tools/readers/index.js';
import { type AnyTool, ToolError } from '../tools/types.js';

const schema = z.object({
  path: z
    .string()
    .describe('One of the reference files listed in the instructions, e.g. "reference/style.md".'),
});

/**
 * `read_reference`: reads a reference file that sits beside an Agent Skills `SKILL.md`. The model
 * gets the list of files, not their text; it reads the ones it needs. Only listed files, only
 * inside the skill's folder.
 */
export function referenceTool(folder: string, resources: readonly string[]): AnyTool {
  return {
    name: 'read_reference',
    description: `Read one of this skill's reference files: ${resources.slice(0, 20).join(', ')}${resources.length > 20 ? ', …' : ''}.`,
    schema,
    kind: 'read',
    label: (args: z.infer<typeof schema>) => args.path,
    async execute(args: z.infer<typeof schema>, ctx) {
      const wanted = args.path.replace(/\\/g, '/').replace(/^\.\//, '');
      if (!resources.includes(wanted)) {
        throw new ToolError(
          `"${args.path}" is not one of this skill's reference files: ${resources.join(', ')}.`,
        );
      }
      const root = await realpath(folder);
      const abs = await realpath(join(folder, wanted)).catch(() => undefined);
      if (!abs || !isInside(root, abs)) throw new ToolError(`"${args.path}" cannot be read.`);
      const doc = await readDocument(abs, { signal: ctx.signal });
      return doc.text;
    },
  };
}
