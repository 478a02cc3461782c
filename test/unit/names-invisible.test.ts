import { describe, expect, it } from 'vitest';
import { checkPortable, nameProblem } from '../../src/tools/files/names.js';
import { ToolError } from '../../src/tools/types.js';

describe('file_write names: no bidi or zero-width characters', () => {
  for (const [name, clean] of [
    ['a\u202egpj.md', 'agpj.md'],
    ['report\u200b.md', 'report.md'],
    ['\u2066x\u2069.txt', 'x.txt'],
    ['a\u200fb.md', 'ab.md'],
    ['\ufeffnotes.md', 'notes.md'],
  ]) {
    it(JSON.stringify(name), () => {
      const p = nameProblem(name!);
      expect(p?.key).toBe('invisible');
      expect(p?.instead).toBe(clean);
      let err: unknown;
      try {
        checkPortable([name!], name!);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ToolError);
      expect((err as ToolError).notice?.key).toBe('safety.name.invisible');
    });
  }

  it('keeps names with emoji joiners and ordinary Chinese', () => {
    expect(nameProblem('报告-👨\u200d👩\u200d👧.md')).toBeUndefined();
    expect(nameProblem('季度报告.xlsx')).toBeUndefined();
  });
});
