import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../support/atomic.js';
import type { Skill } from './schema.js';

/** Tools that make a user skill need the user's trust before its first run. */
export const TRUST_TOOLS = ['shell', 'file_write'] as const;

interface TrustFile {
  version: 1;
  /** skill name → sha256 of the skill file the user trusted. */
  skills: Record<string, { hash: string; file: string; at: string }>;
}

/**
 * Which user skills the user has trusted, by the content hash of their file: editing the file
 * (or replacing it) asks again. Kept in `trusted-skills.json` in the data folder.
 */
export class TrustStore {
  private data: TrustFile = { version: 1, skills: {} };

  private constructor(private readonly path: string) {}

  static async open(path: string): Promise<TrustStore> {
    const store = new TrustStore(path);
    try {
      const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<TrustFile>;
      if (parsed && typeof parsed === 'object' && parsed.skills && typeof parsed.skills === 'object') {
        store.data = { version: 1, skills: parsed.skills };
      }
    } catch {
      // Missing or unreadable: nothing is trusted yet (a damaged file only means asking again).
    }
    return store;
  }

  isTrusted(skill: Skill): boolean {
    if (skill.source === 'builtin') return true;
    return this.data.skills[skill.name]?.hash === skill.hash;
  }

  async trust(skills: Skill[]): Promise<void> {
    const at = new Date().toISOString();
    for (const s of skills) this.data.skills[s.name] = { hash: s.hash, file: s.file, at };
    await writeFileAtomic(this.path, `${JSON.stringify(this.data, null, 2)}\n`, 0o600);
  }

  async forget(name: string): Promise<void> {
    if (!(name in this.data.skills)) return;
    delete this.data.skills[name];
    await writeFileAtomic(this.path, `${JSON.stringify(this.data, null, 2)}\n`, 0o600);
  }
}

/** Does this skill itself use a tool that needs trust? */
export function usesTrustTools(skill: Skill): boolean {
  return skill.tools.some((t) => (TRUST_TOOLS as readonly string[]).includes(t));
}
