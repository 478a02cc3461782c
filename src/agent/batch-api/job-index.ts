/**
 * Which folder run submitted which Batch API job, kept under zhi's data folder: `zhi batch
 * results <id>` finds the run from anywhere, any number of times, and finishes it where it was
 * started (same folder, output folder and permission mode). Entries older than 60 days go.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../support/atomic.js';
import { appPaths } from '../../support/paths.js';

export interface JobPlace {
  /** The folder zhi ran in, the output folder, the run record (all absolute). */
  cwd: string;
  outputDir: string;
  manifest: string;
  skill: string;
  /** The input folder as given, relative to `cwd` when it was inside it. */
  folder: string;
  mode: 'auto' | 'approve';
  submittedAt: string;
}

const KEEP_MS = 60 * 24 * 3600 * 1000;

function indexPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(appPaths(env).dataDir, 'batch-jobs.json');
}

async function readIndex(): Promise<Record<string, JobPlace>> {
  try {
    const data = JSON.parse(await readFile(indexPath(), 'utf8')) as unknown;
    return data && typeof data === 'object' ? (data as Record<string, JobPlace>) : {};
  } catch {
    return {};
  }
}

/** Remember where job `id` was submitted (a failure to save is not the run's problem). */
export async function rememberJob(id: string, place: JobPlace): Promise<void> {
  const all = await readIndex();
  const now = Date.now();
  for (const [k, v] of Object.entries(all))
    if (now - Date.parse(v.submittedAt) > KEEP_MS || Number.isNaN(Date.parse(v.submittedAt))) delete all[k];
  all[id] = place;
  await writeFileAtomic(indexPath(), `${JSON.stringify(all, null, 1)}\n`).catch(() => undefined);
}

export async function findJob(id: string): Promise<JobPlace | undefined> {
  const found = (await readIndex())[id];
  return found && typeof found.cwd === 'string' && typeof found.manifest === 'string' ? found : undefined;
}
