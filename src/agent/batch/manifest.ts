import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { writeFileAtomic } from '../../support/atomic.js';

/**
 * The manifest of a folder run, kept next to its outputs: which input files are done, what they
 * wrote, what they cost, with which skill (and which version of it), and the Batch API job when
 * there is one. It is rewritten whole and atomically after every file, so Ctrl+C, a crash or a
 * kill leaves the last consistent state; running the same command again skips what is done.
 */
export const MANIFEST_VERSION = 1;
/** Answers kept for the final report of a resumed run; longer ones are cut. */
const MAX_TEXT = 64 * 1024;

export interface Fingerprint {
  size: number;
  mtimeMs: number;
  sha256: string;
}

export interface ManifestEntry extends Fingerprint {
  status: 'done' | 'failed';
  /** Files written for this input, relative to the current directory. */
  outputs: string[];
  /** The answer (shown again when a later run resumes). */
  text: string;
  cost: number;
  /** Why it failed (English, for the record). */
  error?: string;
  /** The first model call came from the Batch API. */
  batch?: boolean;
  finishedAt: string;
}

export interface BatchRecord {
  id: string;
  model: string;
  createdAt: string;
  /** custom_id → input file (relative to the folder). */
  requests: Record<string, string>;
  /** Last status seen (validating, in_progress, completed…). */
  status: string;
}

export interface ManifestData {
  version: number;
  skill: string;
  /** The skill file's sha256: a changed skill redoes the files. */
  skillHash: string;
  model: string;
  folder: string;
  currency: string;
  createdAt: string;
  updatedAt: string;
  batch?: BatchRecord;
  files: Record<string, ManifestEntry>;
}

/** Where the manifest of running `skill` over `folder` lives (one per skill and folder). */
export function manifestPath(outputDir: string, skill: string, folderAbs: string): string {
  const tag = createHash('sha256').update(folderAbs).digest('hex').slice(0, 8);
  const slug =
    basename(folderAbs)
      .replace(/[^\p{L}\p{N}_-]+/gu, '_')
      .slice(0, 40) || 'folder';
  return join(outputDir, '.zhi-runs', `${skill}-${slug}-${tag}.json`);
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export async function fingerprint(path: string): Promise<Fingerprint> {
  const st = await stat(path);
  return { size: st.size, mtimeMs: Math.round(st.mtimeMs), sha256: await sha256File(path) };
}

export type Freshness = 'done' | 'changed' | 'new' | 'failed';

export class RunManifest {
  private saving: Promise<void> = Promise.resolve();
  private dirty = false;

  private constructor(
    readonly path: string,
    readonly data: ManifestData,
    /** The skill changed since the manifest was written: nothing counts as done. */
    readonly skillChanged: boolean,
  ) {}

  /** Open the manifest at `path`, or start a new one (an unreadable one is started over). */
  static async open(
    path: string,
    init: Pick<ManifestData, 'skill' | 'skillHash' | 'model' | 'folder' | 'currency'>,
  ): Promise<RunManifest> {
    const now = new Date().toISOString();
    const fresh: ManifestData = {
      version: MANIFEST_VERSION,
      ...init,
      createdAt: now,
      updatedAt: now,
      files: {},
    };
    const old = await readManifest(path);
    if (!old) return new RunManifest(path, fresh, false);
    const changed = old.skillHash !== init.skillHash;
    return new RunManifest(path, { ...old, model: init.model }, changed);
  }

  /** Is this input done with the same content? Size, then mtime, then the hash decide. */
  async check(rel: string, abs: string): Promise<Freshness> {
    const e = this.data.files[rel];
    if (!e) return 'new';
    if (e.status === 'failed') return 'failed';
    if (this.skillChanged) return 'changed';
    const st = await stat(abs).catch(() => undefined);
    if (!st || st.size !== e.size) return 'changed';
    if (Math.round(st.mtimeMs) === e.mtimeMs) return 'done';
    return (await sha256File(abs)) === e.sha256 ? 'done' : 'changed';
  }

  entry(rel: string): ManifestEntry | undefined {
    return this.data.files[rel];
  }

  /** Record one finished input and save; resolves once the manifest on disk says so. */
  record(rel: string, entry: Omit<ManifestEntry, 'finishedAt'>): Promise<void> {
    const text = entry.text.length > MAX_TEXT ? `${entry.text.slice(0, MAX_TEXT)}…` : entry.text;
    this.data.files[rel] = { ...entry, text, finishedAt: new Date().toISOString() };
    return this.save();
  }

  setBatch(batch: BatchRecord | undefined): Promise<void> {
    if (batch) this.data.batch = batch;
    else delete this.data.batch;
    return this.save();
  }

  /** Save now, after any save in progress; several calls in a row write once more at most. */
  save(): Promise<void> {
    this.dirty = true;
    this.saving = this.saving
      .catch(() => undefined)
      .then(async () => {
        if (!this.dirty) return;
        this.dirty = false;
        this.data.updatedAt = new Date().toISOString();
        await writeFileAtomic(this.path, `${JSON.stringify(this.data, null, 1)}\n`, 0o644);
      });
    return this.saving;
  }
}

/** A manifest read back, or undefined when there is none or it is not one of ours. */
export async function readManifest(path: string): Promise<ManifestData | undefined> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  if (!text) return undefined;
  try {
    const data = JSON.parse(text) as ManifestData;
    if (data?.version !== MANIFEST_VERSION || typeof data.files !== 'object' || !data.files) return undefined;
    return data;
  } catch {
    return undefined;
  }
}
