/** The Windows refusal corpus (test/fixtures/windows-corpus.txt), for the unit test and the Wine sample. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CorpusLine {
  family: string;
  line: string;
}

/** The corpus file's entries (comments and blank lines left out). */
export function readCorpus(): CorpusLine[] {
  const text = readFileSync(join(import.meta.dirname, '../fixtures/windows-corpus.txt'), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => {
      const tab = l.indexOf('\t');
      return { family: l.slice(0, tab), line: l.slice(tab + 1) };
    });
}
