/**
 * The secrets list (secrets.ts) turned into places on this computer, for the shell sandbox: every
 * entry of the list that exists under the home folder, zhi's own config, data and log folders, and
 * files and folders named like secrets (`.env`, `id_rsa`, `.pgpass`…) inside the current folder.
 * The sandbox hides each (an empty folder over a folder, an empty file over a file), so an
 * approved `cat .env` or `grep -r token ~/.config` reads nothing — the same list file_read,
 * attachments and skill folders are checked against.
 */
import { type Dirent, existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pushAll } from '../support/arrays.js';
import { HOME_SECRETS, secretByName, zhiFolders } from './secrets.js';

export interface SecretPlace {
  path: string;
  dir: boolean;
}

/**
 * How many entries of the current folder are looked through for secret names, at any depth. A
 * folder the walk does not reach within them is hidden whole: what was not checked is not shown
 * (issue 37: a `.env` five levels down, inside node_modules or after 5,000 entries was readable).
 */
const SCAN_ENTRIES = 200_000;
/** Git's own folder: its objects are many and none is named like a secret. */
const SKIP = new Set(['.git']);

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

function placeOf(path: string): SecretPlace | undefined {
  try {
    const st = statSync(path);
    return { path: real(path), dir: st.isDirectory() };
  } catch {
    return undefined;
  }
}

/** Secret-named entries under `root`, breadth-first; folders beyond the bound are hidden whole. */
export function scanFolder(root: string, limit = SCAN_ENTRIES): { found: SecretPlace[]; unchecked: number } {
  const found: SecretPlace[] = [];
  const queue = [root];
  let seen = 0;
  for (let i = 0; i < queue.length; i++) {
    const dir = queue[i] as string;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    seen += entries.length;
    if (seen > limit && dir !== root) {
      // Too many to check: this folder and every one still waiting are hidden, not trusted.
      for (const rest of queue.slice(i)) found.push({ path: real(rest), dir: true });
      return { found, unchecked: queue.length - i };
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (secretByName(e.name)) {
        const place = placeOf(path);
        if (place) found.push(place);
      } else if (e.isDirectory() && !SKIP.has(e.name)) queue.push(path);
    }
  }
  return { found, unchecked: 0 };
}

export interface SecretPlaces {
  hidden: SecretPlace[];
  /** Folders inside a hidden one that stay readable (zhi's skill folders). */
  readable: string[];
}

/** The secret places present on this computer for a command run in `cwd`. */
export function secretPlaces(opts: { home: string; env: NodeJS.ProcessEnv; cwd: string }): SecretPlaces {
  const hidden: SecretPlace[] = [];
  for (const rule of HOME_SECRETS) {
    const place = placeOf(join(opts.home, rule.path));
    if (place) hidden.push(place);
  }
  const zhi = zhiFolders(opts.env);
  for (const dir of zhi.hidden) {
    const place = placeOf(dir);
    if (place) hidden.push(place);
  }
  pushAll(hidden, scanFolder(opts.cwd).found);
  const unique = new Map(hidden.map((h) => [h.path, h]));
  return { hidden: [...unique.values()], readable: zhi.readable.filter((p) => existsSync(p)).map(real) };
}
