import { describe, expect, it } from 'vitest';
import { installName, missingModule, shellWord } from '../../src/tools/script/interpreters.js';

describe('what a failed script says is missing', () => {
  const cases: [language: 'python' | 'node', stderr: string, module: string | undefined, install?: string][] =
    [
      ['python', "ModuleNotFoundError: No module named 'openpyxl'", 'openpyxl', 'openpyxl'],
      ['python', "ModuleNotFoundError: No module named 'docx.shared'", 'docx', 'python-docx'],
      ['python', "ModuleNotFoundError: No module named 'PIL'", 'PIL', 'pillow'],
      ['python', 'NameError: name x is not defined', undefined],
      [
        'node',
        "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'exceljs' imported from /w/x.mjs",
        'exceljs',
        'exceljs',
      ],
      ['node', "Error: Cannot find module '@scope/pkg/sub'", '@scope/pkg', '@scope/pkg'],
      ['node', "Error: Cannot find module './local.js'", undefined],
    ];
  it.each(cases)('%s: %s', (language, stderr, module, install) => {
    expect(missingModule(language, stderr)).toBe(module);
    if (module && install) expect(installName(language, module)).toBe(install);
  });
});

describe('a word for sh', () => {
  it('quotes paths with spaces and quotes so the shell reads them as one word', () => {
    expect(shellWord('/tmp/a b/x.py')).toBe("'/tmp/a b/x.py'");
    expect(shellWord("/tmp/it's/x.py")).toBe("'/tmp/it'\\''s/x.py'");
  });
});
