/**
 * The strings of one language. From the sources (tests, the typecheck) every message group is
 * imported here; the built bundle replaces this module with catalogue-file.ts (scripts/build.mjs),
 * which reads one language's strings, as JSON, the first time that language is used.
 */
import type { Language } from './index.js';
import { messages } from './messages/index.js';

export function catalogue(lang: Language): Readonly<Record<string, string>> {
  return messages[lang];
}
