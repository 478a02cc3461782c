import { afterEach, describe, expect, it } from 'vitest';
import { formatWarning } from '../../src/cli/render/error.js';
import { makeStyle } from '../../src/cli/render/style.js';
import { mistypedWarning } from '../../src/cli/repl/attach/mistyped.js';
import { setLanguage } from '../../src/support/i18n/index.js';

afterEach(() => setLanguage('en'));

describe('the did-you-mean note (issue 44 point 21)', () => {
  for (const lang of ['en', 'zh'] as const) {
    for (const width of [40, 60, 100]) {
      it(`${lang}, ${width} columns: every line after the first has the same indent`, () => {
        setLanguage(lang);
        const text = formatWarning(
          mistypedWarning({ typed: 'report-2025-final.docx', suggestion: 'report-2025-finals.docx' }),
          makeStyle(true),
          width,
        );
        const lines = text.trimEnd().split('\n').slice(1);
        expect(lines.length).toBeGreaterThan(0);
        for (const l of lines) expect(l).toMatch(/^ {2}\S/);
      });
    }
  }
});
