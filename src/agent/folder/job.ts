/**
 * What a folder run needs from the work it does on each file, and from whatever answers its model
 * calls another way. A folder run knows files, its run record, its lock and its pool; what runs
 * on a file (a skill run, agent/skills/folder-job.ts) and the Batch API's rounds
 * (agent/batch-api/) are given to it through these interfaces, so nothing here imports either.
 */
import type { LlmClient } from '../../llm/types.js';
import type { UsageTracker } from '../../llm/usage.js';
import type { ZhiError } from '../../support/errors.js';
import type { PlannedWrite } from '../../tools/types.js';
import type { AgentResult, RunEvent } from '../events.js';
import type { PermissionMode } from '../permissions.js';
import type { CallGate } from './call-gate.js';
import type { FolderOptions } from './folder-options.js';
import type { RunManifest } from './manifest.js';
import type { OutputPlace } from './preflight.js';

/** What one file's run is given by the folder run. */
export interface FileSetup {
  /** Where its outputs go (its subfolder mirrored) and the name it takes where stems clash. */
  place: OutputPlace;
  /** This file's own usage (merged into the run's when it ends). */
  usage: UsageTracker;
  /** The client its calls go through: the run's gate, or with --batch the rounds. */
  llm: LlmClient;
  /** The run's one budget of calls at once, shared with the file's own pieces. */
  calls: CallGate;
  /** --batch: how many of the file's own pieces (parts, steps) go at once, into one round. */
  jobs?: number;
  /** Every file it is about to write passes here first (the run record learns it). */
  beforeWrite(w: PlannedWrite): Promise<void>;
}

/** The work done on each file of a folder: a skill run (agent/skills/folder-job.ts). */
export interface FolderJob {
  /** Its name in events and in the run record's name (the skill's). */
  name: string;
  /** Changes when the work changes: its files are then done again. */
  hash: string;
  /** The model said at the start, and the one written in the run record. */
  model: string;
  recordModel: string;
  /** How deep the start line sits (the skills above it, plus one). */
  depth: number;
  /** Its written file is its answer: a file is done only when that file is on disk. */
  promisesFile: boolean;
  /** The run's output folder (its record lives in `.zhi-runs/` there). */
  outputDir: string;
  /** The run's usage: every file's calls end up here. */
  usage: UsageTracker;
  cwd: string;
  signal: AbortSignal;
  mode: PermissionMode;
  /** The client the run's calls go through, and the gate an outer run already set (if any). */
  llm: LlmClient;
  calls?: CallGate | undefined;
  options: FolderOptions;
  /** Every write would be refused after its call was paid: the error to say before the first. */
  writesRefused(): ZhiError | undefined;
  /** `--dry-run`: what the files at `todo` would cost; nothing is sent. */
  dryRun(files: string[], todo: number[]): Promise<AgentResult>;
  /**
   * `--batch` (or a job an earlier run submitted): the rounds that answer every model call;
   * undefined when interrupted while an earlier job was waited for.
   */
  startRounds(manifest: RunManifest, todo: number): AsyncGenerator<RunEvent, CallRounds | undefined>;
  /** The run on one file; a problem of that file may throw a ZhiError (it becomes the file's result). */
  runFile(file: string, setup: FileSetup): AsyncGenerator<RunEvent, AgentResult>;
}

/** Model calls of a folder run answered in rounds (the Batch API's, agent/batch-api/rounds.ts). */
export interface CallRounds {
  /** Where events go while the files run (the pool's stream). */
  emit: (ev: RunEvent) => void;
  /** What the batch price saved against the online price of the same calls. */
  readonly saved: number;
  /** Input files at least one of whose calls was answered by a job. */
  readonly batched: ReadonlySet<string>;
  /** A file starts (again) / ends: files work a few at a time between rounds. */
  enter(rel: string): Promise<void>;
  leave(rel: string): void;
  /** The client of one file's calls: each waits for its round's answer. */
  client(rel: string, online: LlmClient, replayable?: () => boolean): LlmClient;
  /** The file's run let go of its first call (nothing done yet): it starts again once answered. */
  letGo(rel: string): boolean;
  resume(rel: string): Promise<void>;
  /** The files are over: the answers kept for files still open, or discarded once all are done. */
  finish(manifest: RunManifest, rels: readonly string[], aborted: boolean): AsyncGenerator<RunEvent>;
}
