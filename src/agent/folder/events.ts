import type { PushBack } from './pool.js';

/** Events of a folder run (one per file as it starts and ends), for the progress line and stream-json. */
export interface FolderCounts {
  total: number;
  done: number;
  failed: number;
  /** Done by an earlier run (skipped this time). */
  earlier: number;
}

/**
 * Files of the folder left out of the run, never sent to the model: empty ones, and files of a
 * kind the skill does not read (a program, an archive, media). `shown` holds the first few.
 */
export interface SkippedFiles {
  count: number;
  empty: number;
  shown: { file: string; why: 'empty' | 'type' }[];
}

/** A file starts, ends, has one more part of a long document done, is put back after a 1302, or had an unfinished attempt's outputs removed. */
export type FileStatus = 'started' | 'done' | 'failed' | 'retry' | 'cleaned' | 'part';

export type FolderEvent =
  | {
      type: 'folder_start';
      skill: string;
      counts: FolderCounts;
      /** Files this run will process. */
      todo: number;
      jobs: number;
      /** The manifest, as shown to the person. */
      manifest: string;
      /** The skill changed since the earlier run: its files are redone. */
      skillChanged: boolean;
      currency: string;
      /** Inputs redone (changed, or --force) whose own earlier outputs are replaced. */
      replacing?: number;
      /** Inputs done by an earlier run whose outputs are no longer on disk: done again. */
      lost?: number;
      /** Inputs of one folder sharing a name but for the extension: their outputs are named apart. */
      clashes?: { count: number; shown: { stem: string; files: string[] }[] };
      skipped?: SkippedFiles;
    }
  | {
      type: 'folder_file';
      skill: string;
      file: string;
      index: number;
      status: FileStatus;
      counts: FolderCounts;
      /** Cost of this run so far (the whole folder). */
      spent: number;
      /** Cost of this file (when it ended). */
      cost?: number;
      /** What it wrote (done, failed), or what was removed before it was done again (cleaned). */
      outputs?: string[];
      /** Why it failed or is tried again (already in the person's language). */
      reason?: string;
      /** `retry`: what the API did (too many at once, overloaded, not reached, a server error). */
      pushBack?: PushBack;
      /** `part`: a long document's pieces done (round 0: its parts, then combining rounds). */
      part?: { done: number; total: number; round: number };
    }
  | {
      type: 'folder_batch';
      skill: string;
      /** Submitted a job, saw its status change, or got its results. */
      phase: 'submitted' | 'waiting' | 'results';
      id: string;
      status: string;
      total?: number;
      completed?: number;
      failed?: number;
      /** Calls the job answered. */
      answered?: number;
      /** Which round of the run the job belongs to (1: every file's first call, 2: the next…). */
      round?: number;
    }
  | {
      /** A document too long for one message is processed in parts (map), then combined. */
      type: 'long_document';
      skill: string;
      file: string;
      parts: number;
      /** The parts' results are joined in order (a translation), not combined into one answer. */
      joined?: true;
      /** Estimated cost of the whole run on the skill's model. */
      estimate: number;
      /** The tokens that estimate is made of (map calls and the combining run). */
      tokens: { input: number; output: number };
      currency: string;
      /** Set when the estimate is more than `max_cost_per_run` leaves: the limit and what is left. */
      limit?: number;
      left?: number;
    }
  | {
      /** The API cannot be reached: the run pauses (said once), then goes on when it answers. */
      type: 'folder_wait';
      skill: string;
      phase: 'paused' | 'resumed';
      /** How long nothing new starts (paused). */
      ms?: number;
      /** Paused: calls in a row could not reach the API, or it answered them all with errors. */
      why?: 'network' | 'server';
    }
  | {
      type: 'folder_end';
      skill: string;
      counts: FolderCounts;
      spent: number;
      currency: string;
      failures: { file: string; reason: string }[];
      /** --batch: what the batch price saved against the online price of the same calls. */
      saved?: number;
      /** Every output of the folder, this run's and earlier ones', in folder order. */
      outputs: { file: string; outputs: string[] }[];
      /** Files never started (the run was stopped or interrupted). */
      notStarted: number;
      /** Files that were running when the run was interrupted (not recorded: the next run redoes them). */
      interrupted: number;
      manifest: string;
      skipped?: SkippedFiles;
    };
