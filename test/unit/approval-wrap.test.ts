import { describe, expect, it } from 'vitest';
import type { ToolApproval } from '../../src/agent/loop.js';
import { formatApproval } from '../../src/cli/approval.js';
import { makeStyle } from '../../src/cli/render/style.js';
import { setLanguage } from '../../src/support/i18n/index.js';
import { textWidth } from '../../src/support/width.js';

describe('the approval screen at a narrow window', () => {
  it.each([60, 40])('wraps the extra answers and the summary at words (%i columns)', (cols) => {
    setLanguage('en');
    const req = {
      name: 'shell',
      preview: '$ ls',
      choices: [
        { key: 'w', label: 'also write in this folder', grant: 'write-cwd' },
        {
          key: 'i',
          label: 'also reach the internet (through a filter: no local or private addresses)',
          grant: 'network',
        },
      ],
      summary: {
        text: 'sandboxed: reads this folder and system files, new files only in zhi-output/, no network',
        risky: false,
      },
    } as unknown as ToolApproval;
    const lines = formatApproval(req, makeStyle(false), cols).trimEnd().split('\n');
    for (const l of lines) expect(textWidth(l)).toBeLessThan(cols);
    const words = lines.join(' ').split(/\s+/);
    expect(words).toContain('addresses)');
    expect(words).toContain('zhi-output/,');
  });
});
