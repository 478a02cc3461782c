/**
 * "Done" means written: a folder run's file counts as done only when what its run set out to
 * write is on disk, byte for byte. Every write is announced before it happens (the tool's
 * `beforeWrite`, with the bytes' sha256); after the run each announced write is looked for. A
 * write that did not land (a full disk, a refusal) and was not followed by one that did (the
 * model picking another name after "that name is taken") leaves the file not done; so does any
 * tool call the permission policy refused (in a folder run without --auto, every write).
 */
import { lstat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { t } from '../../support/i18n/index.js';
import type { PlannedWrite } from '../../tools/types.js';
import type { PermissionMode } from '../permissions.js';
import type { FileResult } from './folder-end.js';
import { outputWrite } from './leftovers.js';
import { type OutputWrite, sha256File } from './manifest.js';

/** What one attempt at a file tried to write, and what was refused, in order. */
export class WriteLog {
  readonly planned: PlannedWrite[] = [];
  /** Tool calls the policy refused or a person declined: the names, for the reason shown. */
  readonly refused: { tool: string; notice?: string | undefined }[] = [];
  /** Write tools whose calls failed (a bad name, a full disk): the model may have given up after. */
  readonly failed: string[] = [];
}

/** Is this write on disk exactly as it was announced? */
async function landed(w: PlannedWrite): Promise<boolean> {
  const st = await lstat(w.abs).catch(() => undefined);
  if (!st?.isFile() || st.size !== w.bytes) return false;
  return (await sha256File(w.abs).catch(() => '')) === w.sha256;
}

export interface WriteCheck {
  /** The writes on disk (recorded in the manifest with their size and hash). */
  written: PlannedWrite[];
  /** Writes that never landed and were not made good by a later one (absolute paths). */
  missing: string[];
  refused: WriteLog['refused'];
  failed: string[];
}

/** Check an attempt's writes against the disk. */
export async function checkWrites(log: WriteLog): Promise<WriteCheck> {
  const written: PlannedWrite[] = [];
  const missing: string[] = [];
  for (const [i, w] of log.planned.entries()) {
    if (await landed(w)) {
      if (!written.some((x) => x.abs === w.abs)) written.push(w);
      continue;
    }
    // Tried again later under another name (or the same one), and that one landed: made good.
    const later = log.planned.slice(i + 1);
    let madeGood = false;
    for (const x of later) if (await landed(x)) madeGood = true;
    if (!madeGood) missing.push(w.abs);
  }
  return { written, missing, refused: log.refused, failed: log.failed };
}

/** Did the attempt write everything it should have? */
export function allWritten(c: WriteCheck): boolean {
  return !c.missing.length && !c.refused.length;
}

/** Why a planned write is not on disk, as far as the disk can tell. */
async function whyMissing(abs: string): Promise<'folder' | 'changed' | 'gone'> {
  const folder = await lstat(dirname(abs)).catch(() => undefined);
  if (!folder?.isDirectory()) return 'folder';
  return (await lstat(abs).catch(() => undefined)) ? 'changed' : 'gone';
}

/** The true reason an answered file is not written, in the person's language. */
async function notWrittenReason(
  c: WriteCheck,
  o: { mode: PermissionMode; show: (abs: string) => string },
): Promise<string> {
  if (c.refused.length) {
    const tools = [...new Set(c.refused.map((x) => x.tool))].join(', ');
    return t(o.mode === 'auto' ? 'runs.notWritten.refused' : 'runs.notWritten.needsAuto', { tools });
  }
  if (!c.missing.length && c.failed.length) return t('runs.notWritten.writeFailed', { tool: c.failed[0]! });
  if (!c.missing.length) return t('runs.notWritten.none');
  const first = c.missing[0]!;
  const files = c.missing.map((p) => o.show(p)).join(', ');
  const why = await whyMissing(first);
  if (why === 'folder') return t('runs.notWritten.folderGone', { folder: o.show(dirname(first)) });
  if (why === 'changed') return t('runs.notWritten.changed', { files });
  return t('runs.notWritten.missing', { files });
}

/**
 * Done means written: an answered file whose writes are not all on disk (refused, removed, a
 * full disk), or whose skill promises a file and wrote none, is failed with the true reason. The
 * writes that did land are what the manifest records (relative to the output folder).
 */
export async function checkWritten(
  r: FileResult,
  log: WriteLog,
  o: { outputDir: string; mode: PermissionMode; promised: boolean; show: (abs: string) => string },
): Promise<OutputWrite[]> {
  const c = await checkWrites(log);
  const written: OutputWrite[] = [];
  for (const w of c.written) {
    const out = await outputWrite(o.outputDir, w);
    if (out) written.push(out);
  }
  // An answer, or a skill's promise of a file broken after its reminder: the true reason is found here.
  const broken = r.result?.error?.what.key === 'runs.err.noFileWritten';
  if (r.result?.stopReason !== 'answer' && !broken) return written;
  if (allWritten(c) && (written.length || !o.promised)) return written;
  r.result = { ...r.result!, stopReason: 'error' };
  r.notWritten = await notWrittenReason(c, o);
  return written;
}
