import { readdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { byCodePoint } from '../support/arrays.js';
import { builtinSkillsDir } from '../support/install.js';
import type { AppPaths } from '../support/paths.js';
import { SkillCache } from './cache.js';
import type { LoadOutcome } from './loader.js';
import type { Skill, SkillIssue, SkillSource } from './schema.js';
import { shippedOutcome } from './shipped.js';

export interface SkillDirs {
  /** Built-ins shipped with zhi (`<package>/skills`, or an executable's own copy: support/install.ts). */
  builtinDir: string;
  /** The user's skills (`<config dir>/skills`). */
  userDir: string;
  /** The project's `.agents/skills/` and `.claude/skills/` (they override user skills). */
  projectDirs?: string[];
}

/** Every skill zhi can run, after a user skill replaced a built-in of the same name. */
export interface SkillCatalog {
  skills: Map<string, Skill>;
  /** Built-ins, including those a user skill overrides (for `skill list` and `skill edit`). */
  builtins: Map<string, Skill>;
  /**
   * Project skills that stand in for a built-in or personal skill of the same name, with the one
   * they replace: a cloned repository's `summarize` must not quietly become zhi's `summarize`,
   * so such a skill needs the person's trust before it runs (skills/trust.ts).
   */
  shadows: Map<string, Skill>;
  /** Files that could not be loaded (skipped). */
  broken: SkillIssue[][];
  /** Warnings per skill file (unknown keys…), keyed by file path. */
  warnings: Map<string, SkillIssue[]>;
  dirs: SkillDirs;
}

export function defaultSkillDirs(paths: Pick<AppPaths, 'skillsDir' | 'dataDir'>): SkillDirs {
  return { builtinDir: builtinSkillsDir(paths.dataDir), userDir: paths.skillsDir };
}

/** Where Agent Skills clients look for a project's own skills. */
export const PROJECT_SKILL_FOLDERS = ['.agents/skills', '.claude/skills'];

/**
 * The project skill folders for the current directory: from it upwards, the first folder that
 * has `.agents/skills/` or `.claude/skills/` (or is a git root, where a project ends). Never the
 * home folder itself or above it (`~/.claude/skills` holds someone's personal skills, not a project's).
 */
export async function projectSkillDirs(cwd: string, home: string | undefined): Promise<string[]> {
  const stop = home ? resolve(home) : undefined;
  let dir = resolve(cwd);
  for (;;) {
    if (dir === stop) return [];
    const found: string[] = [];
    for (const f of PROJECT_SKILL_FOLDERS) {
      const st = await stat(join(dir, f)).catch(() => undefined);
      if (st?.isDirectory()) found.push(join(dir, f));
    }
    if (found.length) return found;
    if (await stat(join(dir, '.git')).catch(() => undefined)) return [];
    const up = dirname(dir);
    if (up === dir) return [];
    dir = up;
  }
}

/** The skill folders of a command run in `cwd`: built-ins, the user's, and the project's. */
export async function skillDirsFor(
  paths: Pick<AppPaths, 'skillsDir' | 'dataDir'>,
  cwd: string,
  home: string | undefined,
): Promise<SkillDirs> {
  const projectDirs = await projectSkillDirs(cwd, home);
  return { ...defaultSkillDirs(paths), ...(projectDirs.length ? { projectDirs } : {}) };
}

/** Where loaded skill files are cached between runs. */
export function skillCacheFile(paths: Pick<AppPaths, 'dataDir'>): string {
  return join(paths.dataDir, 'cache', 'skills.json');
}

/**
 * Find the skills: built-ins first, then the user's (a user skill overrides a built-in of the
 * same name). A broken file is skipped and reported in `broken`; it never hides the others.
 * A missing folder is simply empty.
 */
export async function discoverSkills(
  dirs: SkillDirs,
  opts: { cacheFile?: string } = {},
): Promise<SkillCatalog> {
  const cache = await SkillCache.open(opts.cacheFile);
  const [builtin, user, ...project] = await Promise.all([
    loadDir(dirs.builtinDir, 'builtin', cache),
    loadDir(dirs.userDir, 'user', cache),
    ...(dirs.projectDirs ?? []).map((d) => loadDir(d, 'project', cache)),
  ]);
  await cache.save();
  const catalog: SkillCatalog = {
    skills: new Map(),
    builtins: new Map(),
    shadows: new Map(),
    broken: [],
    warnings: new Map(),
    dirs,
  };
  const add = (outcomes: LoadOutcome[], source: SkillSource) => {
    const seen = new Map<string, Skill>();
    for (const o of outcomes) {
      if (!o.skill) {
        if (o.errors.length) catalog.broken.push(o.errors);
        continue;
      }
      const other = seen.get(o.skill.name);
      if (other) {
        catalog.broken.push([
          {
            file: o.skill.file,
            field: 'name',
            message: { key: 'skills.err.duplicate', params: { name: o.skill.name, other: other.file } },
          },
        ]);
        continue;
      }
      seen.set(o.skill.name, o.skill);
      if (o.warnings.length) catalog.warnings.set(o.skill.file, o.warnings);
      if (source === 'builtin') catalog.builtins.set(o.skill.name, o.skill);
      const replaced = catalog.skills.get(o.skill.name);
      if (source === 'project' && replaced) catalog.shadows.set(o.skill.name, replaced);
      catalog.skills.set(o.skill.name, o.skill);
    }
  };
  add(builtin, 'builtin');
  add(user, 'user');
  // `.agents/skills` first: a skill in both project folders is the `.agents` one.
  add(
    project.flat().reduce<LoadOutcome[]>((acc, o) => {
      if (!o.skill || !acc.some((a) => a.skill?.name === o.skill!.name)) acc.push(o);
      return acc;
    }, []),
    'project',
  );
  return catalog;
}

/** The candidate skill files of one folder: `*.yaml`, `*.yml`, and `<dir>/SKILL.md`, in name order. */
export async function skillFilesIn(dir: string): Promise<string[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  const folders = entries.filter((e) => (e.isDirectory() || e.isSymbolicLink()) && !e.name.startsWith('.'));
  const found = await Promise.all(
    folders.map(async (e) => {
      try {
        const inner = await readdir(join(dir, e.name));
        return inner.includes('SKILL.md') ? join(dir, e.name, 'SKILL.md') : undefined;
      } catch {
        return undefined;
      }
    }),
  );
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    if ((e.isFile() || e.isSymbolicLink()) && /\.ya?ml$/i.test(e.name)) files.push(join(dir, e.name));
  }
  for (const f of found) if (f) files.push(f);
  return files.sort(byCodePoint);
}

async function loadDir(dir: string, source: SkillSource, cache: SkillCache): Promise<LoadOutcome[]> {
  const files = await skillFilesIn(dir);
  return Promise.all(
    files.map(async (f) => {
      const key = await SkillCache.keyOf(f, f.endsWith('SKILL.md'));
      const hit = cache.get(f, key);
      if (hit) return hit;
      // The YAML parser and the schema load only when a file is new or changed.
      const outcome =
        (source === 'builtin' ? await shippedOutcome(f) : undefined) ??
        (await (await import('./loader.js')).loadSkillFile(f, source));
      cache.set(f, key, outcome);
      return outcome;
    }),
  );
}

/** Does a user skill of this name replace a built-in? */
export function overridesBuiltin(catalog: SkillCatalog, skill: Skill): boolean {
  return skill.source !== 'builtin' && catalog.builtins.has(skill.name);
}
