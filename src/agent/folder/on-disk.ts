/**
 * The end of a folder run counts what is on disk, not what was written once: the output folder
 * may have been moved away or files deleted while the run went on (a file manager, a sync
 * client). A file recorded done whose outputs are gone by the end is failed with that reason —
 * so the summary tells the truth and the next run does it again.
 */
import { lstat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { t } from '../../support/i18n/index.js';
import type { FolderCounts } from './events.js';
import type { FileResult } from './folder-end.js';
import type { RunManifest } from './manifest.js';
import type { PoolOutcome } from './pool.js';

export interface Recheck {
  /** The run's files and, per pool item, which of them it is. */
  files: readonly string[];
  todo: readonly number[];
  manifest: RunManifest;
  /** The run's output folder (the manifest's outputs are relative to it). */
  outputDir: string;
  relOf: (abs: string) => string;
  show: (abs: string) => string;
}

async function isFile(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined))?.isFile() ?? false;
}

/** Fail the files of this run whose recorded outputs are gone; resolves how many were. */
async function failGoneOutputs(o: Recheck & { outcomes: PoolOutcome<FileResult>[] }): Promise<number> {
  let gone = 0;
  for (const [n, index] of o.todo.entries()) {
    const outcome = o.outcomes[n];
    if (outcome?.status !== 'done') continue;
    const rel = o.relOf(o.files[index]!);
    const entry = o.manifest.entry(rel);
    const written = entry?.written ?? [];
    const missing: string[] = [];
    for (const w of written)
      if (!(await isFile(join(o.outputDir, w.path)))) missing.push(join(o.outputDir, w.path));
    if (!entry || !missing.length) continue;
    gone += 1;
    const folder = dirname(missing[0]!);
    const reason = (await lstat(folder).catch(() => undefined))?.isDirectory()
      ? t('runs.notWritten.missing', { files: missing.map((p) => o.show(p)).join(', ') })
      : t('runs.notWritten.folderGone', { folder: o.show(folder) });
    const value = outcome.value;
    value.notWritten = reason;
    value.outputs = [];
    o.outcomes[n] = { status: 'failed', value, attempts: outcome.attempts };
    await o.manifest.record(rel, { ...entry, status: 'failed', error: reason });
  }
  return gone;
}

/**
 * The pool's end, with the files whose outputs are gone from disk by now failed (recorded before
 * the run record is closed) and the counts told the same.
 */
export async function* endOnDisk<E, R extends { outcomes: PoolOutcome<FileResult>[] }>(
  pool: AsyncGenerator<E, R>,
  o: Recheck & { counts: FolderCounts },
): AsyncGenerator<E, R> {
  const end = yield* pool;
  const gone = await failGoneOutputs({ ...o, outcomes: end.outcomes });
  o.counts.done -= gone;
  o.counts.failed += gone;
  return end;
}
