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

/** How deep and how many entries of the current folder are looked through for secret names. */
const SCAN_DEPTH = 4;
const SCAN_ENTRIES = 5000;
/** Folders not worth looking through (large, and not where people keep keys). */
const SKIP = new Set(['node_modules', '.git', '.venv', 'venv', '__pycache__', '.cache', 'dist', 'build']);

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

/** Secret-named entries under `root`, breadth-first, bounded. */
function scan(root: string): SecretPlace[] {
  const found: SecretPlace[] = [];
  let queue = [root];
  let seen = 0;
  for (let depth = 0; depth < SCAN_DEPTH && queue.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of queue) {
      let entries: Dirent[];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        if (++seen > SCAN_ENTRIES) return found;
        const path = join(dir, e.name);
        if (secretByName(e.name)) {
          const place = placeOf(path);
          if (place) found.push(place);
        } else if (e.isDirectory() && !SKIP.has(e.name)) next.push(path);
      }
    }
    queue = next;
  }
  return found;
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
  pushAll(hidden, scan(opts.cwd));
  const unique = new Map(hidden.map((h) => [h.path, h]));
  return { hidden: [...unique.values()], readable: zhi.readable.filter((p) => existsSync(p)).map(real) };
}
