import { readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../support/atomic.js';
import type { LoadOutcome } from './loader.js';

/** Bump when the shape of a loaded Skill or of its issues changes. */
const CACHE_SCHEMA = 2;

interface Entry {
  key: string;
  outcome: LoadOutcome;
}

interface CacheData {
  schema: number;
  version: string;
  entries: Record<string, Entry>;
}

/**
 * Loaded skill files, keyed by path and checked by size, modification time and inode (and the
 * folder's, for a SKILL.md, whose reference files are listed). A hit skips reading and parsing
 * the YAML, which is most of the cost of discovery in a fresh process. A damaged or outdated
 * cache is simply rebuilt.
 */
export class SkillCache {
  private data: CacheData = { schema: CACHE_SCHEMA, version: __ZHI_VERSION__, entries: {} };
  private readonly used = new Set<string>();
  private dirty = false;

  private constructor(private readonly file: string | undefined) {}

  static async open(file: string | undefined): Promise<SkillCache> {
    const cache = new SkillCache(file);
    if (!file) return cache;
    try {
      const data = JSON.parse(await readFile(file, 'utf8')) as CacheData;
      if (
        data?.schema === CACHE_SCHEMA &&
        data.version === __ZHI_VERSION__ &&
        data.entries &&
        typeof data.entries === 'object'
      ) {
        cache.data = data;
      }
    } catch {
      // No cache yet, or unreadable: start empty.
    }
    return cache;
  }

  /** The key of a file as it is now; undefined when it cannot be read. */
  static async keyOf(file: string, folder: boolean): Promise<string | undefined> {
    try {
      const [st, dir] = await Promise.all([stat(file), folder ? stat(dirname(file)) : undefined]);
      return `${st.size}:${st.mtimeMs}:${st.ino}${dir ? `:${dir.mtimeMs}` : ''}`;
    } catch {
      return undefined;
    }
  }

  get(file: string, key: string | undefined): LoadOutcome | undefined {
    this.used.add(file);
    const e = this.data.entries[file];
    return key && e?.key === key ? e.outcome : undefined;
  }

  set(file: string, key: string | undefined, outcome: LoadOutcome): void {
    this.used.add(file);
    if (!key) return;
    this.data.entries[file] = { key, outcome };
    this.dirty = true;
  }

  /** Save when something changed (entries added, or files gone). Never fails discovery. */
  async save(): Promise<void> {
    if (!this.file) return;
    for (const f of Object.keys(this.data.entries)) {
      if (!this.used.has(f)) {
        delete this.data.entries[f];
        this.dirty = true;
      }
    }
    if (!this.dirty) return;
    try {
      await writeFileAtomic(this.file, JSON.stringify(this.data), 0o600);
      this.dirty = false;
    } catch {
      // A read-only data folder only costs speed.
    }
  }
}
