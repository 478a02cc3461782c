import { areaMessages, message } from './catalogue.js';
import type { Language, MessageKey, Params } from './types.js';

export type { Language, MessageKey, Params } from './types.js';

declare const shownBrand: unique symbol;
/**
 * Text for a person made by the catalogue (`t()`), with data in its placeholders. A plain string
 * is not one: an error's "why" must be Shown, a catalogue key, or someone else's words quoted
 * (support/errors.ts), so English written for the model cannot reach the screen unmarked.
 */
export type Shown = string & { readonly [shownBrand]: true };

/** Catalogue texts joined (lines of a usage, sentences of a problem). */
export function joinShown(parts: readonly Shown[], separator: string): Shown {
  return parts.join(separator) as Shown;
}

let current: Language = 'en';

export function setLanguage(lang: Language): void {
  current = lang;
}

export function getLanguage(): Language {
  return current;
}

/** Translate a catalogue key into the current language, filling `{name}` placeholders. */
export function t(key: MessageKey, params?: Params, lang: Language = current): Shown {
  const template = message(lang, key) ?? (lang === 'en' ? undefined : message('en', key)) ?? key;
  if (!params) return template as Shown;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  ) as Shown;
}

/**
 * Resolve the UI language: explicit flag, then config, then ZHI_LANGUAGE, then LC_ALL/LC_MESSAGES/LANG,
 * then the system locale as `Intl` reports it (Windows and macOS set no LANG for GUI-started
 * terminals, yet Node's Intl says `zh-CN` on a Chinese system), defaulting to English. `auto` (or an
 * unknown value) at any level defers to the next source; `C`/`POSIX` say nothing about language.
 */
export function resolveLanguage(
  sources: { flag?: string | undefined; config?: string | undefined },
  env: NodeJS.ProcessEnv = process.env,
  systemLocale: () => string | undefined = intlLocale,
): Language {
  for (const value of [sources.flag, sources.config, env.ZHI_LANGUAGE]) {
    const lang = normalise(value);
    if (lang) return lang;
  }
  for (const value of [env.LC_ALL, env.LC_MESSAGES, env.LANG]) {
    if (!value || /^(C|POSIX)([._@]|$)/i.test(value)) continue;
    return /^zh/i.test(value) ? 'zh' : 'en';
  }
  return /^zh/i.test(systemLocale() ?? '') ? 'zh' : 'en';
}

function intlLocale(): string | undefined {
  try {
    // Every Intl service reports the same default locale; PluralRules loads in well under a
    // millisecond where DateTimeFormat costs 40-100 ms of ICU data at every start.
    return new Intl.PluralRules().resolvedOptions().locale;
  } catch {
    return undefined;
  }
}

function normalise(value: string | undefined): Language | undefined {
  if (!value) return undefined;
  const v = value.toLowerCase();
  if (v === 'en' || v.startsWith('en-') || v.startsWith('en_')) return 'en';
  if (v === 'zh' || v.startsWith('zh-') || v.startsWith('zh_') || v === 'chinese' || v === '中文')
    return 'zh';
  return undefined;
}

/** The strings of one area in a language, English filling any gap (the page's catalogue). */
export function areaStrings(area: string, lang: Language = current): Record<string, string> {
  return { ...areaMessages('en', area), ...(lang === 'en' ? {} : areaMessages(lang, area)) };
}
