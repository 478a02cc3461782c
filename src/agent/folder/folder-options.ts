/** A folder run's options (shared by the run and its callers). */

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

/** The run's options: those given (`zhi run`'s flags) over the defaults. */
export function folderOptions(given?: Partial<FolderOptions>): FolderOptions {
  return {
    jobs: DEFAULT_JOBS,
    force: false,
    pauseMs: 2000,
    batch: false,
    pollMs: 30_000,
    dryRun: false,
    wait: false,
    ...given,
  };
}
