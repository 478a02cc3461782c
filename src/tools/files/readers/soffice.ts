/**
 * LibreOffice as a converter for the formats zhi has no native reader for (old binary Office,
 * WPS, RTF): `soffice --headless --convert-to` into a private temporary folder, with the run's
 * own throw-away profile (so a LibreOffice the person has open is not disturbed), a time limit
 * per file, and everything removed afterwards.
 *
 * One LibreOffice at a time per zhi: conversions asked for while one runs (a chat reading several
 * legacy files at once, a folder run's files) wait and go together into the next call, and a
 * folder run can hand over all its legacy files ahead (`prefetchConversions`), so that ten files
 * pay one LibreOffice start, not ten (see soffice-batch.ts for why not a long-lived instance).
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { findProgram } from '../../find-program.js';
import {
  type BatchInput,
  type BatchOutcome,
  convertBatch,
  type RunningBatch,
  removeProfile,
} from './soffice-batch.js';
import { stopProcessesIn, sweepSofficeLeftovers } from './soffice-leftovers.js';

/** Files in one LibreOffice call: more would make one damaged file's wait longer for the rest. */
const BATCH_MAX = 20;

/** Where LibreOffice usually lives when it is not on PATH. */
const KNOWN_PLACES: Partial<Record<NodeJS.Platform, string[]>> = {
  win32: [
    'C:\\Program Files\\LibreOffice\\program\\soffice.exe',
    'C:\\Program Files (x86)\\LibreOffice\\program\\soffice.exe',
  ],
  darwin: ['/Applications/LibreOffice.app/Contents/MacOS/soffice'],
};

/**
 * The LibreOffice program, or undefined when it is not installed (looked up once per PATH).
 * `ZHI_SOFFICE` names the program, or `off` to read without it.
 */
export function findSoffice(): string | undefined {
  return findProgram({
    env: 'ZHI_SOFFICE',
    names: process.platform === 'win32' ? ['soffice.exe', 'soffice.com'] : ['soffice', 'libreoffice'],
    places: KNOWN_PLACES,
  });
}

export class ConversionError extends Error {}

interface Job extends BatchInput {
  toExt: string;
  /** Readers waiting for it that can still be stopped; at 0 after an abort, the job is dropped. */
  waiters: number;
  /** A reader without a signal (or a folder's hand-over with one) keeps it alive. */
  keep: boolean;
  result: Promise<Buffer>;
  done: (outcome: BatchOutcome) => void;
  settled: boolean;
  key?: string;
}

const queue: Job[] = [];
const EMPTY = Buffer.alloc(0);
let running: (RunningBatch & { jobs: Job[] }) | undefined;
let scheduled = false;

/**
 * Recent conversions by content, so that reading the next page of a legacy file, or a file a
 * folder run handed over ahead, does not start LibreOffice again. Bounded by count and bytes.
 */
const recent = new Map<string, Job>();
const RECENT_MAX = 40;
const RECENT_BYTES = 32 * 1024 * 1024;
const sizes = new Map<string, number>();

function keyOf(data: Buffer, fromExt: string, toExt: string): string {
  return `${createHash('sha256').update(data).digest('hex')}${fromExt}>${toExt}`;
}

function remember(key: string, bytes: number): void {
  sizes.set(key, bytes);
  let total = [...sizes.values()].reduce((a, b) => a + b, 0);
  for (const [old, n] of sizes) {
    if (sizes.size <= RECENT_MAX && total <= RECENT_BYTES) break;
    if (old === key) continue;
    sizes.delete(old);
    recent.delete(old);
    total -= n;
  }
}

function forget(job: Job): void {
  if (job.key && recent.get(job.key) === job) {
    recent.delete(job.key);
    sizes.delete(job.key);
  }
}

/**
 * Convert `data` (a file of extension `fromExt`, e.g. ".doc") to `toExt` ("docx", "xlsx", "pptx",
 * "txt"…) with LibreOffice and return the converted bytes.
 */
export function convertWithSoffice(
  data: Buffer | string,
  fromExt: string,
  toExt: string,
  signal?: AbortSignal,
): Promise<Buffer> {
  const soffice = findSoffice();
  if (!soffice) return Promise.reject(new ConversionError('LibreOffice is not installed'));
  if (signal?.aborted) return Promise.reject(new ConversionError('Interrupted.'));
  const key = typeof data === 'string' ? undefined : keyOf(data, fromExt, toExt);
  const job = (key && recent.get(key)) || enqueue(soffice, { data, fromExt }, toExt, key);
  return wait(job, signal);
}

/**
 * Start converting files a run is about to read, all in as few LibreOffice calls as possible;
 * `convertWithSoffice` of the same bytes then takes the result. `signal` (the run's) drops them.
 */
export function prefetchConversions(
  files: { data: Buffer; fromExt: string; toExt: string }[],
  signal?: AbortSignal,
): void {
  for (const f of files.slice(0, BATCH_MAX * 2))
    convertWithSoffice(f.data, f.fromExt, f.toExt, signal).catch(() => {});
}

/** Forget the conversions kept (a run's end): what a folder run handed over is not held on. */
export function dropPrefetched(): void {
  for (const job of [...recent.values()]) if (job.settled) forget(job);
}

function enqueue(soffice: string, input: BatchInput, toExt: string, key: string | undefined): Job {
  let resolve!: (b: Buffer) => void;
  let reject!: (e: Error) => void;
  const result = new Promise<Buffer>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  result.catch(() => {});
  const job: Job = {
    ...input,
    toExt,
    waiters: 0,
    keep: false,
    result,
    settled: false,
    ...(key ? { key } : {}),
    done: (outcome) => {
      if (job.settled) return;
      job.settled = true;
      if ('ok' in outcome) {
        if (job.key) remember(job.key, outcome.ok.length);
        resolve(outcome.ok);
      } else {
        // An interrupted conversion is not an answer to keep.
        if ('again' in outcome || outcome.error === 'Interrupted.') forget(job);
        reject(new ConversionError('error' in outcome ? outcome.error : 'Interrupted.'));
      }
    },
  };
  if (key) recent.set(key, job);
  queue.push(job);
  schedule(soffice);
  return job;
}

/** The job's result for one reader; its Ctrl+C stops only its wait, and the job when nobody else waits. */
function wait(job: Job, signal: AbortSignal | undefined): Promise<Buffer> {
  if (!signal) job.keep = true;
  if (!signal || job.settled) return job.result;
  job.waiters++;
  return new Promise<Buffer>((resolve, reject) => {
    const onAbort = () => {
      reject(new ConversionError('Interrupted.'));
      if (--job.waiters > 0 || job.keep || job.settled) return;
      job.done({ error: 'Interrupted.' });
      const i = queue.indexOf(job);
      if (i >= 0) queue.splice(i, 1);
      // The call now runs only for readers that were stopped: stop it.
      if (running?.jobs.every((j) => j.settled)) stopRunning();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    job.result.then(
      (b) => {
        signal.removeEventListener('abort', onAbort);
        resolve(b);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e as Error);
      },
    );
  });
}

/** Start the next call once the current turn of the event loop has queued what it asks for. */
function schedule(soffice: string): void {
  if (running || scheduled || queue.length === 0) return;
  scheduled = true;
  setImmediate(() => {
    scheduled = false;
    void runNext(soffice);
  });
}

async function runNext(soffice: string): Promise<void> {
  if (running || queue.length === 0) return;
  const toExt = queue[0]!.toExt;
  const jobs = queue.filter((j) => j.toExt === toExt).slice(0, BATCH_MAX);
  for (const j of jobs) queue.splice(queue.indexOf(j), 1);
  sweepSofficeLeftovers();
  watchExit();
  const batch: RunningBatch & { jobs: Job[] } = { jobs, dir: '', stopped: false };
  running = batch;
  let outcomes: BatchOutcome[];
  try {
    outcomes = await convertBatch(soffice, jobs, toExt, batch);
  } catch (err) {
    outcomes = jobs.map(() => ({ error: (err as Error).message }));
  } finally {
    running = undefined;
  }
  const again: Job[] = [];
  jobs.forEach((job, i) => {
    const outcome = outcomes[i]!;
    if ('again' in outcome && !job.settled) again.push(job);
    else {
      job.done(outcome);
      // The kept result is the converted file; the person's document is not held on to.
      job.data = EMPTY;
    }
  });
  // Back to the front of the queue, in their order (at most a batch: one at a time is cheap).
  for (let i = again.length - 1; i >= 0; i--) queue.unshift(again[i]!);
  schedule(soffice);
}

function stopRunning(): void {
  if (!running) return;
  running.stopped = true;
  running.child?.kill('SIGKILL');
  if (running.dir) stopProcessesIn(running.dir);
}

let watching = false;

/** zhi's exit stops the conversion running and removes its folders (no LibreOffice outlives zhi). */
function watchExit(): void {
  if (watching) return;
  watching = true;
  process.once('exit', endConversions);
}

/** Stop the conversion running and remove its folder and the run's profile (zhi's exit; tests). */
export function endConversions(): void {
  stopRunning();
  if (running?.dir) {
    stopProcessesIn(running.dir);
    rmSync(running.dir, { recursive: true, force: true });
  }
  removeProfile();
}
