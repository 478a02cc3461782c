import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { resolveReadPath } from '../tools/paths.js';
import { scopeOfName } from '../tools/scope.js';

/** Which files of a folder a run takes: its extensions, optionally subfolders, and globs. */
export interface FolderSelection {
  extensions: readonly string[];
  recursive?: boolean;
  /** Globs on the path relative to the folder (`*.pdf`, `2024/**`); none means every file. */
  include?: readonly string[];
  exclude?: readonly string[];
  /** A folder the model chose: only files that pass the one containment rule from here. */
  containedIn?: string;
  /** Folders never walked into (absolute): the run's own output folder, so its outputs are not inputs. */
  skip?: readonly string[];
}

/** Folders never walked into: zhi's own run records, version control and dependencies. */
const SKIP_DIRS = new Set(['.git', '.zhi-runs', 'node_modules', '__pycache__']);
/** A generous ceiling so a mistaken `--recursive ~` does not walk the whole disk. */
const MAX_FILES = 100_000;

type Matcher = (path: string) => boolean;

/** Why a file of the folder is not sent: it is empty, or not a kind of file the skill reads. */
export type SkipReason = 'empty' | 'type';

/** What a folder run takes, and the files it leaves out (named to the person, never sent). */
export interface FolderListing {
  files: string[];
  skipped: { file: string; why: SkipReason }[];
}

/** Files this small are read to see whether they hold anything but blanks. */
const BLANK_CHECK_BYTES = 1024;

/** An empty file, or a small one of only spaces and line breaks: nothing a model could work on. */
export async function isBlank(abs: string): Promise<boolean> {
  const st = await stat(abs).catch(() => undefined);
  if (!st || st.size === 0) return Boolean(st);
  if (st.size > BLANK_CHECK_BYTES) return false;
  const text = await readFile(abs, 'utf8').catch(() => 'x');
  return /^[\s\uFEFF]*$/.test(text);
}

async function matcher(globs: readonly string[] | undefined): Promise<Matcher | undefined> {
  if (!globs?.length) return undefined;
  const { default: picomatch } = await import('picomatch');
  // A glob without a slash matches the file name at any depth (`*.pdf` finds a/b/c.pdf too).
  return picomatch([...globs], { dot: false, nocase: true, basename: globs.every((g) => !g.includes('/')) });
}

/**
 * The files of a folder a run takes, in natural name order (2 before 10), folder by folder.
 * Hidden files, Office lock files (`~$x.docx`) and zhi's own folders are left out unsaid; files
 * of other kinds and empty ones are left out and listed in `skipped`, so the run can name them.
 */
export async function listFolder(dir: string, sel: FolderSelection): Promise<FolderListing> {
  const include = await matcher(sel.include);
  const exclude = await matcher(sel.exclude);
  const out: string[] = [];
  const skipped: FolderListing['skipped'] = [];
  const walk = async (at: string): Promise<void> => {
    const entries = await readdir(at, { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' }));
    const subdirs: string[] = [];
    for (const e of entries) {
      // Hidden files, VCS internals and state files (tools/scope.ts) are never a run's input.
      if (scopeOfName(e.name) || e.name.startsWith('~$')) continue;
      const abs = join(at, e.name);
      const st = e.isSymbolicLink() ? await stat(abs).catch(() => undefined) : undefined;
      const isDir = e.isDirectory() || Boolean(st?.isDirectory());
      const isFile = e.isFile() || Boolean(st?.isFile());
      if (isDir) {
        // Symlinked folders are not followed: they can loop or lead outside.
        if (sel.recursive && e.isDirectory() && !SKIP_DIRS.has(e.name) && !sel.skip?.includes(abs))
          subdirs.push(abs);
        continue;
      }
      if (!isFile) continue;
      const rel = relative(dir, abs).split(sep).join('/');
      if (include && !include(rel)) continue;
      if (exclude?.(rel)) continue;
      // Links leading outside and secrets are left out unsaid (tools/paths.ts decides).
      const ok = sel.containedIn
        ? await resolveReadPath(sel.containedIn, relative(sel.containedIn, abs)).then(
            (r) => r.abs,
            () => undefined,
          )
        : abs;
      if (!ok) continue;
      if (!sel.extensions.includes(extname(e.name).slice(1).toLowerCase()))
        skipped.push({ file: ok, why: 'type' });
      else if (await isBlank(ok)) skipped.push({ file: ok, why: 'empty' });
      else out.push(ok);
      if (out.length + skipped.length >= MAX_FILES) return;
    }
    for (const sub of subdirs) {
      if (out.length + skipped.length >= MAX_FILES) return;
      await walk(sub);
    }
  };
  await walk(dir);
  return { files: out, skipped };
}
