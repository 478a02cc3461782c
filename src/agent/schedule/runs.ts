/**
 * The record of each scheduled run (`schedules/<name>.runs/<start>.json`): when it started and
 * ended, what became of each file, what it cost, where the outputs are, its exit code — or why it
 * was refused or skipped. The newest `KEEP_RUNS` are kept.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../support/atomic.js';
import { makeFolder } from '../../support/make-folder.js';
import { readManifest } from '../folder/manifest.js';
import { readLedger } from '../ledger.js';
import { schedulesDir } from './job.js';

export const KEEP_RUNS = 50;

/** `waiting`: a Batch API job was submitted and left for the next run to collect. */
export type RunStatus = 'ok' | 'failed' | 'refused' | 'skipped' | 'empty' | 'waiting';

export interface RunRecord {
  job: string;
  startedAt: string;
  endedAt: string;
  status: RunStatus;
  exitCode: number;
  /** Why it was refused, skipped or failed (in the person's language when it was recorded). */
  reason?: string;
  /** A folder run's files finished by this run. */
  files?: { done: number; failed: { file: string; reason: string }[] };
  cost?: { amount: number; currency: string };
  /** Tool calls refused because nobody could be asked (or refused outright), with the reason. */
  refused?: { tool: string; reason: string }[];
  outputDir: string;
  /** Said to the person at a later start (notice.ts): once only. */
  told?: boolean;
}

function runsDir(dataDir: string, name: string): string {
  return join(schedulesDir(dataDir), `${name}.runs`);
}

export async function saveRun(dataDir: string, r: RunRecord): Promise<void> {
  const dir = runsDir(dataDir, r.job);
  await makeFolder(dir);
  const file = `${r.startedAt.replace(/[:.]/g, '-')}.json`;
  await writeFileAtomic(join(dir, file), `${JSON.stringify(r, null, 2)}\n`, 0o600);
  const all = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  for (const old of all.slice(0, Math.max(0, all.length - KEEP_RUNS)))
    await rm(join(dir, old), { force: true });
}

/** The job's run records, oldest first, with the file each is kept in. */
export async function listRuns(dataDir: string, name: string): Promise<(RunRecord & { file: string })[]> {
  const dir = runsDir(dataDir, name);
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).sort();
  const out: (RunRecord & { file: string })[] = [];
  for (const f of files) {
    try {
      out.push({ ...(JSON.parse(await readFile(join(dir, f), 'utf8')) as RunRecord), file: join(dir, f) });
    } catch {
      // a record cut short by a crash is left out, not shown as garbage
    }
  }
  return out;
}

export async function removeRuns(dataDir: string, name: string): Promise<void> {
  await rm(runsDir(dataDir, name), { recursive: true, force: true });
}

/** What a folder run finished since `since`: done files, failed ones with their reasons. */
export async function filesSince(
  manifestFile: string,
  since: string,
): Promise<RunRecord['files'] | undefined> {
  const m = await readManifest(manifestFile);
  if (!m) return undefined;
  let done = 0;
  const failed: { file: string; reason: string }[] = [];
  for (const [rel, e] of Object.entries(m.files)) {
    if (e.finishedAt < since) continue;
    if (e.status === 'done') done += 1;
    else failed.push({ file: rel, reason: e.error ?? '' });
  }
  return { done, failed };
}

/** What the skill's model calls cost since the run started (the usage ledger's lines). */
export async function costSince(
  ledgerFile: string,
  skill: string,
  since: Date,
): Promise<RunRecord['cost'] | undefined> {
  const { entries } = await readLedger(ledgerFile, since).catch(() => ({ entries: [] }));
  const mine = entries.filter((e) => e.skill === undefined || e.skill === skill);
  if (!mine.length) return undefined;
  return { amount: mine.reduce((a, e) => a + e.cost, 0), currency: mine[0]!.currency };
}
