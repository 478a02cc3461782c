import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../support/atomic.js';
import { traitsOf } from '../tools/index.js';
import { listResources } from './bundled.js';
import type { SkillCatalog } from './discovery.js';
import type { Skill } from './schema.js';

interface TrustFile {
  version: 1;
  /** skill name → sha256 of the skill's files (all of a SKILL.md folder) that the user trusted. */
  skills: Record<string, { hash: string; file: string; at: string }>;
}

/**
 * The hash trust is tied to. A YAML skill is one file; an Agent Skill is its whole folder (its
 * scripts run and its references steer the model), so every file counts: path and bytes, in
 * name order. Computed from disk each time, never from the discovery cache, whose key only
 * notices changes to SKILL.md and the top folder.
 */
export async function contentHash(skill: Pick<Skill, 'file' | 'folder' | 'hash'>): Promise<string> {
  if (!skill.folder) return skill.hash;
  const h = createHash('sha256');
  const files = ['SKILL.md', ...(await listResources(skill.folder))];
  for (const rel of files) {
    const bytes = await readFile(join(skill.folder, rel)).catch(() => Buffer.alloc(0));
    h.update(`${rel}\0${bytes.length}\0`).update(bytes);
  }
  return h.digest('hex');
}

/**
 * Which user skills the user has trusted, by the content hash of their files: editing a file
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

  async isTrusted(skill: Skill): Promise<boolean> {
    if (skill.source === 'builtin') return true;
    const saved = this.data.skills[skill.name];
    return saved !== undefined && saved.hash === (await contentHash(skill));
  }

  async trust(skills: Skill[]): Promise<void> {
    const at = new Date().toISOString();
    for (const s of skills) this.data.skills[s.name] = { hash: await contentHash(s), file: s.file, at };
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
  return skill.tools.some((name) => traitsOf(name).trust !== undefined);
}

/**
 * The skill a project skill stands in for (a built-in or a personal skill of the same name), if
 * any: running it under that name needs the person's trust even when it uses no trusted tool.
 */
export function shadowedBy(
  skill: Skill,
  catalog: Pick<SkillCatalog, 'shadows'> | undefined,
): Skill | undefined {
  if (skill.source !== 'project') return undefined;
  return catalog?.shadows.get(skill.name);
}

/**
 * The skills of a run that need the user's trust and do not have it yet: those that can write
 * files or run commands, and project skills that replace a built-in or personal skill.
 */
export async function untrustedOf(
  store: TrustStore,
  skills: Skill[],
  catalog?: Pick<SkillCatalog, 'shadows'>,
): Promise<Skill[]> {
  const out: Skill[] = [];
  for (const s of skills) {
    if (s.source === 'builtin') continue;
    if (!usesTrustTools(s) && !shadowedBy(s, catalog)) continue;
    if (!(await store.isTrusted(s))) out.push(s);
  }
  return out;
}

/**
 * The skills a chat offers the model: a project skill that stands in for a built-in or personal
 * one and is not trusted gives way to the one it replaces (the chat has no place to ask; `zhi
 * run` asks, and `zhi skill trust` makes it count here too).
 */
export async function chatSkillsOf(
  store: TrustStore,
  catalog: Pick<SkillCatalog, 'skills' | 'shadows'>,
): Promise<Map<string, Skill>> {
  const out = new Map(catalog.skills);
  for (const [name, replaced] of catalog.shadows) {
    const project = catalog.skills.get(name);
    if (project && !(await store.isTrusted(project))) out.set(name, replaced);
  }
  return out;
}
