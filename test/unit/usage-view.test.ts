import { afterEach, describe, expect, it } from 'vitest';
import { makeStyle } from '../../src/cli/render/style.js';
import { formatUsage } from '../../src/cli/sessions/usage-view.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import { UsageTracker } from '../../src/llm/usage.js';
import { setLanguage } from '../../src/support/i18n/index.js';
import { textWidth } from '../../src/support/width.js';

function tracker(): UsageTracker {
  const u = new UsageTracker(PLATFORMS.bigmodel);
  u.add('glm-5', {
    promptTokens: 356,
    completionTokens: 197,
    totalTokens: 553,
    reasoningTokens: 16,
    cachedTokens: 0,
  });
  return u;
}

describe('/usage', () => {
  afterEach(() => setLanguage('en'));

  it.each(['en', 'zh'] as const)('keeps each model on one line when it fits (%s)', (lang) => {
    setLanguage(lang);
    const lines = formatUsage(tracker(), { style: makeStyle(false), columns: 120 });
    expect(lines[1]).toMatch(/glm-5 .*553.*·/);
  });

  it.each(['en', 'zh'] as const)('gives the token kinds their own line at 60 columns (%s)', (lang) => {
    setLanguage(lang);
    const lines = formatUsage(tracker(), { style: makeStyle(false), columns: 60 });
    const at = lines.findIndex((l) => l.includes('glm-5'));
    expect(lines[at]).not.toContain('·');
    expect(lines[at + 1]).toMatch(/^ {4}\S.*·/);
    for (const l of lines.slice(at, at + 2)) expect(textWidth(l)).toBeLessThanOrEqual(60);
  });
});
