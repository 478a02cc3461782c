/**
 * What a folder run killed mid-file left behind, removed before that file is done again: the
 * files its run wrote (recorded in the manifest before each write, with their bytes' sha256)
 * and the temporary files of a write cut short. A file is removed only when it is still exactly
 * what zhi wrote (a person's edit keeps it), lies inside the output folder by the one write
 * rule, and is a regular file; so the redone file gets the same names, not `-2` copies.
 */
import { lstat, readdir, realpath, rm } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { isInside, resolveWritePath } from '../../tools/paths.js';
import type { PlannedWrite } from '../../tools/types.js';
import { type OutputWrite, sha256File } from './manifest.js';

/** `.report.md.1a2b3c4d.zhi-tmp`: file_write's temporary file for `report.md`. */
function isTempOf(name: string, file: string): boolean {
  return name.startsWith(`.${file}.`) && /^\.[^/\\]+\.[0-9a-f]{8}\.zhi-tmp$/.test(name);
}

/** Remove the leftovers that are still zhi's; resolves the absolute paths removed. */
export async function removeLeftovers(outputDir: string, writes: readonly OutputWrite[]): Promise<string[]> {
  const removed: string[] = [];
  for (const w of writes) {
    const abs = await resolveWritePath(outputDir, w.path, { create: false }).then(
      (r) => r.abs,
      () => undefined,
    );
    if (!abs) continue;
    const st = await lstat(abs).catch(() => undefined);
    if (st?.isFile() && st.size === w.bytes && (await sha256File(abs).catch(() => '')) === w.sha256) {
      await rm(abs, { force: true });
      removed.push(abs);
    }
    const names = await readdir(dirname(abs)).catch(() => [] as string[]);
    for (const name of names) {
      if (isTempOf(name, basename(abs))) await rm(join(dirname(abs), name), { force: true }).catch(() => {});
    }
  }
  return removed;
}

/** A write as the manifest keeps it: relative to the output folder; undefined outside it. */
export async function outputWrite(outputDir: string, w: PlannedWrite): Promise<OutputWrite | undefined> {
  const root = await realpath(outputDir).catch(() => undefined);
  if (!root || !isInside(root, w.abs) || root === w.abs) return undefined;
  return { path: relative(root, w.abs).split(sep).join('/'), sha256: w.sha256, bytes: w.bytes };
}
