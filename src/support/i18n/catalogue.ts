/**
 * One string of one language. From the sources (tests, the typecheck) every message group is
 * imported here; the built bundle replaces this module with catalogue-file.ts (scripts/build.mjs),
 * which reads the strings of a language and area, as JSON, the first time one is used.
 */

import { messages } from './messages/index.js';
import type { Language } from './types.js';

export function message(lang: Language, key: string): string | undefined {
  return (messages[lang] as Record<string, string>)[key];
}

/** Every string of one area (`page`): the page gets its catalogue from the server (GET /api/strings). */
export function areaMessages(lang: Language, area: string): Record<string, string> {
  const all = messages[lang] as Record<string, string>;
  return Object.fromEntries(Object.entries(all).filter(([key]) => key.startsWith(`${area}.`)));
}
