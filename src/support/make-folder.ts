/**
 * Create a folder and its missing parents one level at a time. Node's `mkdir(…, { recursive })`
 * never returns for a folder under /proc (it retries forever at full CPU), so zhi walks up to
 * the nearest folder that exists and creates each missing level itself: every failure is an
 * ordinary error (ENOENT, EACCES, EROFS, ENOTDIR) that names the folder.
 */
import { accessSync, constants, mkdirSync, readdirSync, rmdirSync, statSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

function notAFolder(path: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`ENOTDIR: not a directory, mkdir '${path}'`);
  err.code = 'ENOTDIR';
  err.path = path;
  return err;
}

const missingCodes = new Set(['ENOENT', 'ENOTDIR']);

/** The missing levels of `path`, outermost first; throws when a level is a file. */
function missingLevels(path: string, exists: (p: string) => boolean | undefined): string[] {
  const missing: string[] = [];
  let current = resolve(path);
  for (;;) {
    const isDir = exists(current);
    if (isDir === true) break;
    if (isDir === false) throw notAFolder(current);
    const parent = dirname(current);
    missing.unshift(current);
    if (parent === current) break;
    current = parent;
  }
  return missing;
}

function statDir(p: string): boolean | undefined {
  try {
    return statSync(p).isDirectory();
  } catch (err) {
    if (missingCodes.has((err as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw err;
  }
}

/** Create `path` and its missing parents; returns the outermost folder created, if any. */
export function makeFolderSync(path: string, mode?: number): string | undefined {
  const missing = missingLevels(path, statDir);
  for (const dir of missing) {
    try {
      mkdirSync(dir, mode === undefined ? undefined : { mode });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return missing[0];
}

/** The async twin of makeFolderSync. */
export async function makeFolder(path: string, mode?: number): Promise<string | undefined> {
  const known = new Map<string, boolean | undefined>();
  // Walk up with async stats first, then decide synchronously from what they found.
  let current = resolve(path);
  for (;;) {
    const isDir = await stat(current).then(
      (s) => s.isDirectory(),
      (err: NodeJS.ErrnoException) => {
        if (missingCodes.has(err.code ?? '')) return undefined;
        throw err;
      },
    );
    known.set(current, isDir);
    const parent = dirname(current);
    if (isDir !== undefined || parent === current) break;
    current = parent;
  }
  const missing = missingLevels(path, (p) => known.get(p));
  for (const dir of missing) {
    try {
      await mkdir(dir, mode === undefined ? undefined : { mode });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return missing[0];
}

/**
 * Remove the folders makeFolderSync created for `path` (from `path` up to `created`) while they
 * are empty, so a command that wrote nothing leaves no empty folder behind.
 */
export function removeIfEmpty(path: string, created: string): void {
  let current = resolve(path);
  const top = resolve(created);
  for (;;) {
    try {
      if (readdirSync(current).length > 0) return;
      rmdirSync(current);
    } catch {
      return;
    }
    if (current === top) return;
    const parent = dirname(current);
    if (parent === current) return;
    current = parent;
  }
}

/**
 * Can files be written in `path`? Checked before a run that was told to write there, so a folder
 * that cannot be made fails at once, naming it, instead of after the model has worked. A missing
 * folder is made and removed again. Undefined when it can; else the error that says why.
 */
export function folderProblem(path: string): NodeJS.ErrnoException | undefined {
  try {
    if (statDir(path) === true) {
      accessSync(path, constants.W_OK);
      return undefined;
    }
    const created = makeFolderSync(path);
    if (created) removeIfEmpty(path, created);
    return undefined;
  } catch (err) {
    return err as NodeJS.ErrnoException;
  }
}
