import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../../support/atomic.js';
import { log } from '../../support/log.js';
import { looksSecret } from './secrets.js';

export const MAX_HISTORY = 10_000;

/**
 * Input history, kept in a file: one entry per line, oldest first (a multi-line message is one
 * entry; `\` and newlines are escaped). At most 10,000 entries; consecutive duplicates and lines
 * that look like they hold a secret are never stored. Appends as it goes (a crash loses nothing)
 * and rewrites the file only when it has grown well past the limit.
 */
export class History {
  /** Newest first, the order readline wants. */
  private list: string[] = [];
  private fileLines = 0;

  constructor(
    private readonly file: string | undefined,
    private readonly max = MAX_HISTORY,
  ) {}

  static async load(file: string | undefined, max = MAX_HISTORY): Promise<History> {
    const h = new History(file, max);
    if (!file) return h;
    let text = '';
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') log().warn('history: cannot read', err);
      return h;
    }
    const lines = text.split('\n').filter((l) => l !== '');
    h.fileLines = lines.length;
    const entries = lines.map(unescapeEntry).filter((e) => e.trim() && !looksSecret(e));
    h.list = entries.slice(-max).reverse();
    return h;
  }

  /** Newest first. A copy: readline may change it freely. */
  entries(): string[] {
    return [...this.list];
  }

  get size(): number {
    return this.list.length;
  }

  /** Remember a message; false when it is not stored (empty, a repeat, or it looks secret). */
  async add(entry: string): Promise<boolean> {
    if (!entry.trim() || looksSecret(entry)) return false;
    if (this.list[0] === entry) return false;
    this.list.unshift(entry);
    if (this.list.length > this.max) this.list.length = this.max;
    if (!this.file) return true;
    try {
      await mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
      if (this.fileLines >= this.max * 1.5) {
        const all = [...this.list].reverse().map(escapeEntry);
        await writeFileAtomic(this.file, `${all.join('\n')}\n`, 0o600);
        this.fileLines = all.length;
      } else {
        await appendFile(this.file, `${escapeEntry(entry)}\n`, { encoding: 'utf8', mode: 0o600 });
        this.fileLines += 1;
      }
    } catch (err) {
      log().warn('history: cannot save', err);
    }
    return true;
  }
}

export function escapeEntry(entry: string): string {
  return entry.replace(/\\/g, '\\\\').replace(/\r?\n/g, '\\n');
}

export function unescapeEntry(line: string): string {
  return line.replace(/\\(\\|n)/g, (_, c: string) => (c === 'n' ? '\n' : '\\'));
}
