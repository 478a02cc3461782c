/** A tool call's arguments as the model sent them: parsed against the tool's schema, and shown. */
import type { z } from 'zod';
import { t } from '../support/i18n/index.js';
import type { AnyTool } from '../tools/types.js';

/** The arguments, checked; or what is wrong with them, for the model (English). */
export function parseArgs(tool: AnyTool, raw: string): { value: unknown } | { error: string } {
  let json: unknown;
  const text = raw.trim() === '' ? '{}' : raw;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return {
      error: t('agent.tool.badJson', { name: tool.name, detail: (err as Error).message }, 'en'),
    };
  }
  const parsed = (tool.schema as z.ZodType).safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((i) => `${i.path.length ? i.path.join('.') : '(arguments)'}: ${i.message}`)
      .join('; ');
    return { error: t('agent.tool.badArgs', { name: tool.name, problems }, 'en') };
  }
  return { value: parsed.data };
}

/** The arguments as a person sees them when the tool has no preview of its own. */
export function defaultPreview(args: unknown): string {
  const text = JSON.stringify(args, null, 2) ?? '';
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}
