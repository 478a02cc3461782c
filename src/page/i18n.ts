// The page's words come from the server (GET /api/strings: the keys of
// src/support/i18n/messages/page.ts in the person's language), so the page never ships a
// catalogue of its own. Only the key names are imported here, as a type, to catch a typo.
import type { page } from '../support/i18n/messages/page.js';

export type PageKey = keyof typeof page.en;
export type Params = Record<string, string | number>;

let strings: Record<string, string> = {};
let language: 'en' | 'zh' = 'en';

export function setStrings(lang: 'en' | 'zh', table: Record<string, string>): void {
  language = lang;
  strings = table;
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
}

export function lang(): 'en' | 'zh' {
  return language;
}

/** A key's text in the current language, `{name}` placeholders filled (the key itself if missing). */
export function t(key: PageKey, params?: Params): string {
  const template = strings[key] ?? key;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

/** A number as the person's language writes it (thousands grouped). */
export function num(n: number): string {
  return n.toLocaleString(language === 'zh' ? 'zh-CN' : 'en-US');
}

/** A price: ¥ for CNY, $ for USD, small amounts with more digits. */
export function money(amount: number, currency = 'CNY', approx = false): string {
  const sign = currency === 'USD' ? '$' : currency === 'CNY' ? '¥' : `${currency} `;
  const digits = amount !== 0 && Math.abs(amount) < 0.01 ? 4 : 2;
  return `${approx ? '≈' : ''}${sign}${amount.toFixed(digits)}`;
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function when(value: string | number): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  return d.toLocaleString(language === 'zh' ? 'zh-CN' : 'en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}
