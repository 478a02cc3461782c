/**
 * "Done" means written: a folder run's file counts as done only when what its run set out to
 * write is on disk, byte for byte. Every write is announced before it happens (the tool's
 * `beforeWrite`, with the bytes' sha256); after the run each announced write is looked for. A
 * write that did not land (a full disk, a refusal) and was not followed by one that did (the
 * model picking another name after "that name is taken") leaves the file not done; so does any
 * tool call the permission policy refused (in a folder run without --auto, every write).
 */
import { lstat } from 'node:fs/promises';
import type { PlannedWrite } from '../../tools/types.js';
import { sha256File } from './manifest.js';

/** What one attempt at a file tried to write, and what was refused, in order. */
export class WriteLog {
  readonly planned: PlannedWrite[] = [];
  /** Tool calls the policy refused or a person declined: the names, for the reason shown. */
  readonly refused: { tool: string; notice?: string | undefined }[] = [];
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
  return { written, missing, refused: log.refused };
}

/** Did the attempt write everything it should have? */
export function allWritten(c: WriteCheck): boolean {
  return !c.missing.length && !c.refused.length;
}
