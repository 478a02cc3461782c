/**
 * What the person is told at their next zhi start, once: a scheduled run that failed, was
 * refused, skipped or found nothing to do, and — where the scheduler does not run a missed start
 * later (crontab) — a run missed while the computer was off (the schedule had a time between the
 * last record and now with no run).
 */
import { writeFileAtomic } from '../../support/atomic.js';
import { listJobs, saveJob, scheduleOf } from './job.js';
import { missedRun } from './next.js';
import { listRuns, type RunRecord } from './runs.js';

export type Notice =
  | { kind: 'run'; job: string; record: RunRecord }
  | { kind: 'missed'; job: string; at: Date };

/** A scheduled start this late is not yet missed (the run may be starting right now). */
const GRACE_MS = 10 * 60_000;

/** The notices not yet given, marked as given as they are returned. */
export async function takeNotices(dataDir: string, now = new Date()): Promise<Notice[]> {
  const out: Notice[] = [];
  for (const job of await listJobs(dataDir)) {
    const runs = await listRuns(dataDir, job.name);
    for (const r of runs) {
      if (r.told || ((r.status === 'ok' || r.status === 'waiting') && !r.refused?.length)) continue;
      const { file, ...record } = r;
      out.push({ kind: 'run', job: job.name, record });
      await writeFileAtomic(file, `${JSON.stringify({ ...record, told: true }, null, 2)}\n`, 0o600);
    }
    if (job.paused || !job.installed || job.installed.kind !== 'cron') continue;
    const last = runs.at(-1)?.startedAt;
    const since = [last, job.createdAt, job.missedToldAt]
      .filter((v): v is string => Boolean(v))
      .sort()
      .at(-1)!;
    const at = missedRun(scheduleOf(job), new Date(since), new Date(now.getTime() - GRACE_MS), job.timeZone);
    if (!at) continue;
    out.push({ kind: 'missed', job: job.name, at });
    await saveJob(dataDir, { ...job, missedToldAt: now.toISOString() });
  }
  return out;
}
