/**
 * Before a folder run starts: which files an earlier run finished (and whose outputs are still on
 * disk), which are new, changed or lost, and what the run record forgets before they are redone.
 */
import { relative, sep } from 'node:path';
import type { FolderCounts } from './events.js';
import type { RunManifest } from './manifest.js';

export interface FolderScan {
  /** Indexes of the files still to do, in folder order. */
  todo: number[];
  counts: FolderCounts;
  /** Inputs redone (changed, --force) whose own earlier outputs are replaced. */
  replacing: Set<string>;
  /** Files done by an earlier run whose outputs are no longer on disk. */
  lost: number;
}

/** The folder-relative name a run record keeps for a file (`/` on every system). */
export function relIn(dir: string, abs: string): string {
  return relative(dir, abs).split(sep).join('/');
}

export async function scanFolder(o: {
  dir: string;
  files: readonly string[];
  manifest: RunManifest;
  force: boolean;
  dryRun: boolean;
  /** The run's output folder, and whether the skill promises a file (then none written is not done). */
  out: { dir: string; promised: boolean };
}): Promise<FolderScan> {
  const scan: FolderScan = {
    todo: [],
    counts: { total: o.files.length, done: 0, failed: 0, earlier: 0 },
    replacing: new Set(),
    lost: 0,
  };
  const redo: string[] = [];
  const lost: string[] = [];
  for (const [i, file] of o.files.entries()) {
    const rel = relIn(o.dir, file);
    const fresh = o.force ? 'new' : await o.manifest.check(rel, file, o.out);
    if (fresh === 'done') scan.counts.earlier += 1;
    else scan.todo.push(i);
    if (o.force || fresh === 'changed') redo.push(rel);
    if (fresh === 'lost') lost.push(rel);
  }
  scan.lost = lost.length;
  // A dry run changes nothing; a real run un-does the files it redoes (--force, changed inputs,
  // outputs gone) before it starts them: their own earlier outputs are replaced (said up front).
  if (o.dryRun) return scan;
  if (redo.length) for (const rel of await o.manifest.forget(redo)) scan.replacing.add(rel);
  if (lost.length) await o.manifest.forget(lost);
  return scan;
}
