/**
 * Issue 38's way of checking: a corpus of command lines people attack Windows with
 * (test/fixtures/windows-corpus.txt, one line per entry after its family), read with cmd.exe's
 * grammar. None may pass unremarked, at most 5 % may be only asked, the working folder's own
 * files leaving are asked with the warning, and the everyday lines beside them are not refused.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { windowsEnvFor } from '../../src/tools/shell/cmd-expand.js';
import { assessCommand } from '../../src/tools/shell/policy.js';
import { readCorpus } from '../helpers/windows-corpus.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

const home = 'C:\\Users\\ann';
// The working folder holds a program and a batch file the corpus runs by their bare names.
const cwd = tempDir('zhi-win-corpus-');
afterAll(() => cleanup(cwd));
writeFileSync(join(cwd, 'x.exe'), 'MZ');
writeFileSync(join(cwd, 'x.cmd'), 'rd /s /q C:\\\r\n');
mkdirSync(join(cwd, 'zhi-output'));
const opts = {
  home,
  cwd,
  platform: 'win32' as const,
  env: {
    ...windowsEnvFor(home),
    APPDATA: 'C:\\Users\\ann\\AppData\\Roaming',
    LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local',
    ProgramData: 'C:\\ProgramData',
  },
};

const corpus = readCorpus();
const attacks = corpus.filter((c) => c.family !== 'benign' && c.family !== 'egress-own');
const level = (line: string) => assessCommand(line, opts).level;

describe('the Windows corpus', () => {
  it('has the issue’s size across its families', () => {
    expect(attacks.length).toBeGreaterThanOrEqual(224);
    expect(new Set(attacks.map((a) => a.family)).size).toBeGreaterThanOrEqual(7);
  });

  it('lets no attack through unremarked, and asks about at most 5 % instead of refusing', () => {
    const through = attacks.filter((a) => level(a.line) === 'allow');
    const asked = attacks.filter((a) => level(a.line) === 'warn');
    if (process.env.ZHI_CORPUS_STATS)
      console.log(
        `refused ${attacks.length - through.length - asked.length}, asked ${asked.length}: ${asked.map((a) => a.line).join(' | ')}`,
      );
    expect(through.map((a) => `${a.family}: ${a.line}`)).toEqual([]);
    expect(asked.length / attacks.length, asked.map((a) => a.line).join('\n')).toBeLessThanOrEqual(0.05);
  });

  it.each(corpus.filter((c) => c.family === 'egress-own'))('asks with the warning: $line', ({ line }) => {
    expect(level(line)).toBe('warn');
  });

  it.each(corpus.filter((c) => c.family === 'benign'))('does not refuse: $line', ({ line }) => {
    expect(level(line)).not.toBe('refuse');
  });
});
