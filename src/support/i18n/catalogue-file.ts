/**
 * The built bundle's catalogue.ts (scripts/build.mjs swaps it in): the strings of each language
 * and area (the part of a key before its first dot: `cli`, `skills`, `install`…) are
 * `dist/assets/i18n/<language>/<area>.json`, written by the build from messages/, and read the
 * first time a key of that area is used in that language. `zhi --version` reads one small file,
 * a command the areas it speaks, instead of compiling every string of both languages (about
 * 250 KB of code) at every start.
 */

import { readAssetSync } from '../install.js';
import type { Language } from './types.js';

type Strings = Readonly<Record<string, string>>;

const loaded = new Map<string, Strings>();

export function message(lang: Language, key: string): string | undefined {
  const dot = key.indexOf('.');
  const area = dot < 0 ? key : key.slice(0, dot);
  const name = `${lang}/${area}`;
  let strings = loaded.get(name);
  if (!strings) {
    strings = read(lang, area);
    loaded.set(name, strings);
  }
  return strings[key];
}

function read(lang: Language, area: string): Strings {
  try {
    return parse(`i18n/${lang}/${area}.json`);
  } catch (err) {
    // No such area (a key that does not exist), if the area every install has is there.
    if (/^[\w-]+$/.test(area) && area !== 'install' && canRead(`i18n/${lang}/install.json`)) return {};
    // No message can be translated without them: say so in both languages, plainly.
    throw new Error(
      `zhi cannot read its messages (dist/assets/i18n/${lang}/): this installation is incomplete; reinstall zhi. / zhi 无法读取界面文字（dist/assets/i18n/${lang}/）：安装不完整，请重新安装 zhi。 (${(err as Error).message})`,
    );
  }
}

function parse(name: string): Strings {
  return JSON.parse(new TextDecoder().decode(readAssetSync(name))) as Strings;
}

function canRead(name: string): boolean {
  try {
    parse(name);
    return true;
  } catch {
    return false;
  }
}

/** Every string of one area (`page`): the page gets its catalogue from the server (GET /api/strings). */
export function areaMessages(lang: Language, area: string): Record<string, string> {
  if (!/^[\w-]+$/.test(area)) return {};
  message(lang, `${area}.`);
  return { ...loaded.get(`${lang}/${area}`) };
}
