import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/cli/web/preview.js';
import { numberedName, safeUploadName } from '../../src/cli/web/upload-name.js';

describe('safeUploadName', () => {
  const fine = [
    'report.xlsx',
    '报告 1.csv',
    'a.b.c.txt',
    'Résumé.docx',
    'x'.repeat(200),
    'console.txt',
    'com10.txt',
  ];
  const refused = [
    '',
    '.',
    '..',
    '.env',
    '../x',
    'a/b',
    'a\\b',
    'C:x',
    '/etc/passwd',
    'a\u0000b',
    'a\nb',
    'a\u202Eb',
    'CON',
    'con',
    'nul.txt',
    'COM1',
    'lpt9.log',
    'AUX.tar.gz',
    'con.tents.txt',
    'name.',
    'name ',
    ' name',
    'e\u0301.txt',
    'a*b',
    'a?b',
    'a|b',
    'a"b',
    'x'.repeat(201),
    '文'.repeat(67),
  ];
  it.each(fine)('takes %j', (name) => expect(safeUploadName(name)).toBe(true));
  it.each(refused)('refuses %j', (name) => expect(safeUploadName(name)).toBe(false));
});

describe('numberedName', () => {
  it.each([
    ['a.txt', 1, 'a.txt'],
    ['a.txt', 2, 'a (2).txt'],
    ['archive.tar.gz', 3, 'archive.tar (3).gz'],
    ['README', 2, 'README (2)'],
  ] as const)('%s #%i → %s', (name, n, want) => expect(numberedName(name, n)).toBe(want));
});

describe('parseCsv', () => {
  it.each([
    [
      'a,b\n1,2\n',
      [
        ['a', 'b'],
        ['1', '2'],
      ],
    ],
    ['"x, y",z', [['x, y', 'z']]],
    [
      '"say ""hi""",2\r\n3,4',
      [
        ['say "hi"', '2'],
        ['3', '4'],
      ],
    ],
    ['"line\nbreak",1', [['line\nbreak', '1']]],
    ['a,,c', [['a', '', 'c']]],
  ] as const)('%j', (text, rows) => expect(parseCsv(text)).toEqual(rows));
});
