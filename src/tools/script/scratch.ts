/**
 * The script workspace: `<output folder>/.zhi-work/<run>/`, a folder zhi makes inside the output
 * folder because that is the one place the sandbox lets a command create files (and the only one
 * zhi writes to anyway); zhi's own data folder is hidden from commands as a secret place. The
 * script is written there before it runs, so inside the sandbox it is read-only (files already in
 * the output folder are), and the script cannot change itself. What it makes goes beside it, as
 * new files of the output folder, found by comparing the folder before and after.
 */
import { randomBytes } from 'node:crypto';
import { readdir, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { resolveWritePath } from '../paths.js';

export const WORK_FOLDER = '.zhi-work';

/** Folders and files looked at when comparing the output folder before and after a run. */
const MAX_ENTRIES = 5000;

/** One id per process: a chat's scripts share a folder, named by when it started. */
const RUN_ID = `${new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}-${randomBytes(3).toString('hex')}`;

/** Write the script as a new file of the workspace; returns its absolute path. */
export async function writeScript(
  outputDir: string,
  cwd: string,
  stem: string,
  ext: string,
  code: string,
): Promise<string> {
  for (let n = 1; ; n++) {
    const name = n === 1 ? `${stem}.${ext}` : `${stem}-${n}.${ext}`;
    const target = await resolveWritePath(outputDir, `${WORK_FOLDER}/${RUN_ID}/${name}`, { cwd });
    try {
      await writeFile(target.abs, code, { flag: 'wx', mode: 0o644 });
      return target.abs;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || n > 999) throw err;
    }
  }
}

/** The files of the output folder (but the workspace) and their sizes and times. */
export async function outputFiles(outputDir: string): Promise<Map<string, string>> {
  const seen = new Map<string, string>();
  const walk = async (dir: string): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (seen.size >= MAX_ENTRIES) return;
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (!(dir === outputDir && e.name === WORK_FOLDER)) await walk(path);
      } else if (e.isFile()) {
        const st = await stat(path).catch(() => undefined);
        if (st) seen.set(path, `${st.size}:${st.mtimeMs}`);
      }
    }
  };
  await walk(outputDir);
  return seen;
}

/** Files that are new or changed since `before`, with their sizes. */
export async function newFiles(
  outputDir: string,
  before: Map<string, string>,
): Promise<{ path: string; bytes: number; shown: string }[]> {
  const after = await outputFiles(outputDir);
  const out: { path: string; bytes: number; shown: string }[] = [];
  for (const [path, key] of after) {
    if (before.get(path) === key) continue;
    out.push({ path, bytes: Number(key.split(':')[0]), shown: relative(outputDir, path) });
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}
