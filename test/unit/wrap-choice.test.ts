import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { wrapChoice } from '../../src/cli/ask.js';

describe('a choice in a list (issue 44 point 21)', () => {
  it('wraps at words to the window, its later lines under its first word', () => {
    const label = 'OpenRouter（openrouter.ai，GLM 模型名为 z-ai/…，美元计费；仅对话）';
    const lines = wrapChoice(label, 40).split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(stringWidth(l) + 2).toBeLessThanOrEqual(39);
    for (const l of lines.slice(1)) expect(l).toMatch(/^ {2}\S/);
    const squeeze = (x: string) => x.replace(/\s+/g, '');
    expect(squeeze(lines.join(''))).toBe(squeeze(label));
    expect(wrapChoice('Z.ai Coding Plan', 40)).toBe('Z.ai Coding Plan');
  });
});
