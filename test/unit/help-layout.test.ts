import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import { layoutHelp } from '../../src/cli/help.js';
import { setLanguage, t } from '../../src/support/i18n/index.js';

afterEach(() => setLanguage('en'));

describe('zhi --help (issue 44 point 7)', () => {
  for (const lang of ['en', 'zh'] as const) {
    it(`${lang}: in each paragraph what a command does starts in one column, by display width; no command runs into it`, () => {
      setLanguage(lang);
      const text = layoutHelp(t('cli.help', { version: '1.0.0' }));
      expect(text).not.toContain('\t');
      for (const block of text.split('\n\n')) {
        const lines = block.split('\n');
        // Where the description starts: after the command and two or more spaces.
        const starts = new Set<number>();
        for (const line of lines) {
          const m = /^( {2}\S.*?\S) {2,}(?=\S)/.exec(line) ?? /^( {4,})(?=\S)/.exec(line);
          if (m && !line.startsWith('            |')) starts.add(stringWidth(m[0]));
        }
        expect(starts.size, block).toBeLessThanOrEqual(1);
      }
      expect(text).toMatch(
        lang === 'en' ? /--output-dir <dir> {2,}where/ : /--output-dir <目录> {2,}文件写入位置/,
      );
      // The two commands longer than the column have their description under them.
      expect(text).toMatch(/zhi --resume \[id\] \| zhi --continue\n {20,}\S/);
      expect(text).toMatch(/zhi mcp list \| add \| remove \| test \| import \| login\n {20,}\S/);
    });
  }
});
