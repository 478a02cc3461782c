/**
 * The built bundle's catalogue.ts (scripts/build.mjs swaps it in): each language's strings are
 * `dist/assets/i18n/<language>.json`, written by the build from messages/, and read the first time
 * that language is used. A command parses only the strings of the languages it speaks (English
 * is also the language of text for the model) instead of compiling every string of both, about
 * 250 KB of code, at every start.
 */

import { readAssetSync } from '../install.js';
import type { Language } from './index.js';

const loaded: Partial<Record<Language, Readonly<Record<string, string>>>> = {};

export function catalogue(lang: Language): Readonly<Record<string, string>> {
  loaded[lang] ??= read(lang);
  return loaded[lang];
}

function read(lang: Language): Readonly<Record<string, string>> {
  const name = `i18n/${lang}.json`;
  try {
    return JSON.parse(new TextDecoder().decode(readAssetSync(name))) as Record<string, string>;
  } catch (err) {
    // No message can be translated without it: say so in both languages, plainly.
    throw new Error(
      `zhi cannot read its messages (dist/assets/${name}): this installation is incomplete; reinstall zhi. / zhi 无法读取界面文字（dist/assets/${name}）：安装不完整，请重新安装 zhi。 (${(err as Error).message})`,
    );
  }
}
