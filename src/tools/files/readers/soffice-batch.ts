/**
 * One `soffice --headless --convert-to` call for several files at once. A LibreOffice start is
 * most of a conversion's cost (about 1 CPU-second, where one more small file in the same call
 * costs a few hundredths). A long-lived LibreOffice was measured too (7.4): an instance started
 * with `--accept` converts the first file another `soffice --convert-to` hands it with the same
 * profile, then quits; one that holds a document open stays and converts each handed-over file
 * for about 20 ms of CPU, but it runs for the whole session, and a zhi killed with `kill -9`
 * would leave it running. So files are converted in batches instead, each in a private
 * temporary folder (inputs, outputs) with the run's own profile: LibreOffice runs only while
 * it converts.
 *
 * Time is bounded per file, not per call: LibreOffice says "convert …" on stdout for each file,
 * and a call silent for longer than the limit is stopped. Files already converted keep their
 * result, the one in progress is said to have taken too long, the rest are handed back.
 */
import { type ChildProcess, execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SOFFICE_PREFIX, stopProcessesIn } from './soffice-leftovers.js';

/** Longest silence of LibreOffice while it converts one file (tests shorten it). */
export const limits = { fileMs: 120_000 };

export interface BatchInput {
  /** The file's bytes, or the path of a file to copy. */
  data: Buffer | string;
  /** The extension LibreOffice should see (".doc"). */
  fromExt: string;
}

export type BatchOutcome = { ok: Buffer } | { error: string } | { again: true };

/** The call now running, so that zhi's exit and Ctrl+C can stop it. */
export interface RunningBatch {
  child?: ChildProcess;
  dir: string;
  stopped: boolean;
  /** Set when the call was killed (a time limit): its profile may be left locked. */
  killed?: boolean;
}

let profileDir: string | undefined;

/** The run's LibreOffice profile: made by the first call, reused by the next (a warm profile starts faster). */
async function profile(): Promise<string> {
  profileDir ??= await mkdtemp(join(tmpdir(), `${SOFFICE_PREFIX}profile-`));
  return profileDir;
}

/** A killed LibreOffice may leave its profile locked or half written: the next call makes a new one. */
async function dropProfile(): Promise<void> {
  const dir = profileDir;
  profileDir = undefined;
  if (dir) {
    stopProcessesIn(dir);
    await rm(dir, { recursive: true, force: true }).catch(() => {});
  }
}

/** Remove the run's profile now (zhi's exit): the next call, if any, makes a new one. */
export function removeProfile(): void {
  const dir = profileDir;
  profileDir = undefined;
  if (dir) {
    stopProcessesIn(dir);
    rmSync(dir, { recursive: true, force: true });
  }
}

interface CallResult {
  timedOut: boolean;
  failure?: string;
}

function callSoffice(
  soffice: string,
  args: string[],
  home: string,
  running: RunningBatch,
): Promise<CallResult> {
  return new Promise((resolve) => {
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        running.killed = true;
        running.child?.kill('SIGKILL');
        stopProcessesIn(running.dir);
      }, limits.fileMs);
    };
    const child = execFile(
      soffice,
      args,
      { windowsHide: true, maxBuffer: 4 * 1024 * 1024, env: { ...process.env, HOME: home } },
      (err, _stdout, stderr) => {
        if (timer) clearTimeout(timer);
        const failure = err ? stderr.trim().split('\n').pop() || err.message : undefined;
        resolve({ timedOut, ...(failure ? { failure } : {}) });
      },
    );
    running.child = child;
    child.stdout?.on('data', arm);
    arm();
  });
}

/**
 * Convert `inputs` to `toExt` in one LibreOffice call; one outcome per input, in order.
 * `running` is filled in as the call starts, so that it can be stopped from outside.
 */
export async function convertBatch(
  soffice: string,
  inputs: BatchInput[],
  toExt: string,
  running: RunningBatch,
): Promise<BatchOutcome[]> {
  const dir = await mkdtemp(join(tmpdir(), SOFFICE_PREFIX));
  running.dir = dir;
  try {
    const names = inputs.map((inp, i) => join(dir, `input-${i}${inp.fromExt}`));
    await Promise.all(
      inputs.map((inp, i) =>
        typeof inp.data === 'string' ? copyFile(inp.data, names[i]!) : writeFile(names[i]!, inp.data),
      ),
    );
    const outDir = join(dir, 'out');
    await mkdir(outDir);
    if (running.stopped) return inputs.map(() => ({ error: 'Interrupted.' }));
    const args = [
      `-env:UserInstallation=${pathToFileURL(join(await profile(), 'p')).href}`,
      '--headless',
      '--norestore',
      '--nologo',
      '--convert-to',
      toExt,
      '--outdir',
      outDir,
      ...names,
    ];
    const call = await callSoffice(soffice, args, dir, running);
    const made = new Set(await readdir(outDir).catch(() => [] as string[]));
    const suffix = `.${toExt.split(':')[0]!.toLowerCase()}`;
    let blamed = false;
    const outcomes: BatchOutcome[] = [];
    for (let i = 0; i < inputs.length; i++) {
      const out = [...made].find((f) => f.toLowerCase() === `input-${i}${suffix}`);
      if (out) outcomes.push({ ok: await readFile(join(outDir, out)) });
      else if (running.stopped) outcomes.push({ error: 'Interrupted.' });
      else if (call.timedOut && !blamed) {
        // LibreOffice converts in the order given: the first file without a result was the slow one.
        blamed = true;
        outcomes.push({ error: 'LibreOffice took too long' });
      } else if (call.timedOut) outcomes.push({ again: true });
      else
        outcomes.push({
          error:
            inputs.length === 1 && call.failure
              ? call.failure
              : 'LibreOffice could not open the file (it may be damaged or password-protected)',
        });
    }
    return outcomes;
  } finally {
    if (running.stopped || running.killed) {
      stopProcessesIn(dir);
      await dropProfile();
    }
    await rm(dir, { recursive: true, force: true }).catch(() => {});
  }
}
