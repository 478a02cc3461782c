/**
 * `zhi watch`'s eye on a folder (issue 41 point 4): what is in it (name, size, modification
 * time), and when it has changed and then settled — the same picture twice, a settle interval
 * apart, so a file still being copied or written is not read half-way.
 *
 * It polls rather than subscribing to change notifications: a shared network folder (SMB, NFS),
 * where documents from outside land in an office, sends none, and a poll of a few thousand names
 * every two seconds costs next to nothing. The run that follows decides what is new or changed
 * (the run record's fingerprints); this only says when to look.
 */
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { extname, join, relative, resolve, sep } from 'node:path';
import { readManifest } from './manifest.js';

export interface WatchOptions {
  /** Subfolders too (`--recursive`). */
  recursive: boolean;
  /** Folders never looked into (absolute): the run's own output folder. */
  skip: readonly string[];
  /** Only files with these extensions count (the skill's); none: every file. */
  extensions?: readonly string[];
  /** How often the folder is looked at while nothing happens. */
  pollMs: number;
  /** How long a changed folder must stay the same before the run starts. */
  settleMs: number;
}

/** What a file looks like from outside: enough to see it changed. */
export interface FileLook {
  size: number;
  mtimeMs: number;
}

/** Relative name (with `/`) → how every file that counts looks. */
export type FolderPicture = ReadonlyMap<string, FileLook>;

/** Folders never walked into: zhi's run records, version control, dependencies. */
const SKIP_DIRS = new Set(['.git', '.zhi-runs', 'node_modules', '__pycache__']);
/** A ceiling, so a watch of a huge tree stays a cheap look. */
const MAX_FILES = 100_000;

/** Office's lock files (`~$report.docx`), hidden files and half-downloaded ones do not count. */
function ignored(name: string): boolean {
  return name.startsWith('.') || name.startsWith('~$') || /\.(crdownload|part|partial|tmp)$/i.test(name);
}

/** What the folder holds now. A folder that cannot be read (removed, unplugged) is empty. */
export async function lookAt(dir: string, o: WatchOptions): Promise<FolderPicture> {
  const out = new Map<string, FileLook>();
  const skip = new Set(o.skip.map((s) => resolve(s)));
  const exts = o.extensions?.map((e) => e.toLowerCase());
  const queue = [dir];
  for (let i = 0; i < queue.length && out.size < MAX_FILES; i++) {
    const folder = queue[i] as string;
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const path = join(folder, e.name);
      if (ignored(e.name)) continue;
      if (e.isDirectory()) {
        if (o.recursive && !SKIP_DIRS.has(e.name) && !skip.has(resolve(path))) queue.push(path);
        continue;
      }
      if (exts && !exts.includes(extname(e.name).slice(1).toLowerCase())) continue;
      const st = await stat(path).catch(() => undefined);
      if (st?.isFile())
        out.set(relative(dir, path).split(sep).join('/'), { size: st.size, mtimeMs: st.mtimeMs });
    }
  }
  return out;
}

const same = (a: FileLook | undefined, b: FileLook | undefined) =>
  !!a && !!b && a.size === b.size && a.mtimeMs === b.mtimeMs;

export function samePicture(a: FolderPicture, b: FolderPicture): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (!same(v, b.get(k))) return false;
  return true;
}

/**
 * Whether the folder holds a file the run record has not seen as it is now: new, changed, or
 * never finished. A file that failed is not tried again until it changes, so a watch never pays
 * for the same failure twice; a round with nothing to do is not started at all.
 */
export async function somethingNew(picture: FolderPicture, record: string): Promise<boolean> {
  const data = await readManifest(record).catch(() => undefined);
  if (!data) return picture.size > 0;
  for (const [rel, look] of picture) {
    const entry = data.files[rel];
    if (!entry || entry.size !== look.size || entry.mtimeMs !== Math.round(look.mtimeMs)) return true;
  }
  return false;
}

/** Wait `ms`, or less when the signal aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    if (signal.aborted) return done();
    const timer = setTimeout(finish, ms);
    function finish() {
      clearTimeout(timer);
      signal.removeEventListener('abort', finish);
      done();
    }
    signal.addEventListener('abort', finish, { once: true });
  });
}

/**
 * Wait until the folder differs from `since` and then holds still for the settle interval; the
 * settled picture, or undefined when the signal stopped the wait (Ctrl+C).
 */
export async function nextSettled(
  dir: string,
  o: WatchOptions,
  since: FolderPicture,
  signal: AbortSignal,
): Promise<FolderPicture | undefined> {
  let last = since;
  // Look until something changed…
  while (!signal.aborted) {
    await pause(o.pollMs, signal);
    if (signal.aborted) break;
    last = await lookAt(dir, o);
    if (!samePicture(last, since)) break;
  }
  // …then until two looks a settle interval apart agree (nothing still growing or arriving).
  while (!signal.aborted) {
    await pause(o.settleMs, signal);
    if (signal.aborted) break;
    const now = await lookAt(dir, o);
    if (samePicture(now, last)) return samePicture(now, since) ? nextSettled(dir, o, since, signal) : now;
    last = now;
  }
  return undefined;
}
