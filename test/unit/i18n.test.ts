import { describe, expect, it } from 'vitest';
import { resolveLanguage, t } from '../../src/support/i18n/index.js';
import { messages } from '../../src/support/i18n/messages/index.js';

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('i18n catalogue', () => {
  const en = messages.en as Record<string, string>;
  const zh = messages.zh as Record<string, string>;

  it('has a Chinese text for every English key and no extra keys', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
  });

  it('uses the same placeholders in both languages, and no empty text', () => {
    for (const key of Object.keys(en)) {
      expect(placeholders(zh[key]!), key).toEqual(placeholders(en[key]!));
      expect(en[key]!.trim().length, key).toBeGreaterThan(0);
      expect(zh[key]!.trim().length, key).toBeGreaterThan(0);
    }
  });

  it('fills placeholders', () => {
    expect(t('cli.err.unknownFlag', { flag: '--x' }, 'en')).toBe('Unknown option: --x');
    expect(t('cli.err.unknownFlag', { flag: '--x' }, 'zh')).toBe('未知选项：--x');
  });

  it('resolves the language: flag, config, ZHI_LANGUAGE, LC_ALL/LANG, default en', () => {
    expect(resolveLanguage({ flag: 'zh', config: 'en' }, {})).toBe('zh');
    expect(resolveLanguage({ flag: 'auto', config: 'zh' }, {})).toBe('zh');
    expect(resolveLanguage({}, { ZHI_LANGUAGE: 'zh' })).toBe('zh');
    expect(resolveLanguage({}, { LANG: 'zh_CN.UTF-8' })).toBe('zh');
    expect(resolveLanguage({}, { LC_ALL: 'en_US.UTF-8', LANG: 'zh_CN.UTF-8' })).toBe('en');
    expect(resolveLanguage({}, {}, () => 'en-US')).toBe('en');
  });

  it('falls back to the system locale (Intl) when no LANG says anything: Windows, macOS', () => {
    expect(resolveLanguage({}, {}, () => 'zh-CN')).toBe('zh');
    expect(resolveLanguage({}, { LANG: 'C' }, () => 'zh-Hans-CN')).toBe('zh');
    expect(resolveLanguage({}, { LC_ALL: 'POSIX' }, () => 'zh-TW')).toBe('zh');
    expect(resolveLanguage({}, { LANG: 'en_GB.UTF-8' }, () => 'zh-CN')).toBe('en');
    expect(resolveLanguage({ config: 'en' }, {}, () => 'zh-CN')).toBe('en');
    expect(resolveLanguage({}, {}, () => undefined)).toBe('en');
  });
});
