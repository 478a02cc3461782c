/** A folder run's options and where its output and record go (shared by the run and its callers). */

import type { SkillRunRequest, SkillRuntime } from '../skills/run.js';
import { manifestPath } from './manifest.js';
import { DEFAULT_JOBS } from './pool.js';

/** How a folder run goes; every field has a default (`zhi run` sets them from its flags). */
export interface FolderOptions {
  /** Files at once (`--jobs`). */
  jobs: number;
  /** Redo files an earlier run finished (`--force`). */
  force: boolean;
  /** First pause after a 1305 overload (tests make it short). */
  pauseMs: number;
  /** Send every model call of every file through the Batch API, in rounds (`--batch`). */
  batch: boolean;
  /** How often a batch job's status is asked for. */
  pollMs: number;
  /** Say what would be processed and what it would cost; send nothing (`--dry-run`). */
  dryRun: boolean;
  /** Another run holds the folder's lock: wait for it (`--wait`) instead of stopping. */
  wait: boolean;
  /** The Batch API's limits for one input file (the declared ones unless tests make them small). */
  batchLimits?: { bytes?: number; lines?: number };
}

/** The output folder of a run, decided as runSkill decides it. */
export function runOutputDir(req: SkillRunRequest, rt: SkillRuntime): string {
  return req.outputDir ?? rt.outputFolder(req.skill.output.directory);
}

/** The run's options: the runtime's own (`zhi run`'s flags) over the defaults. */
export function folderOptions(rt: SkillRuntime): FolderOptions {
  return {
    jobs: DEFAULT_JOBS,
    force: false,
    pauseMs: 2000,
    batch: false,
    pollMs: 30_000,
    dryRun: false,
    wait: false,
    ...rt.folder,
  };
}

/** Where the run record of this skill on this folder lives, in the run's output folder. */
export function manifestPathOf(req: SkillRunRequest, rt: SkillRuntime, dir: string): string {
  return manifestPath(runOutputDir(req, rt), req.skill.name, dir);
}
