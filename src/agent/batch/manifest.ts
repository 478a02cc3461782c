import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { appendFile, mkdir, readFile, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomic } from '../../support/atomic.js';

/**
 * The manifest of a folder run, kept next to its outputs: which input files are done, what they
 * wrote, what they cost, with which skill (and which version of it), and the Batch API job when
 * there is one. Each finished file is appended at once to a journal beside it (one JSON line: a
 * kill can only tear the last one, which is skipped), and the manifest itself is rewritten
 * atomically now and then and at the end, folding the journal in. So Ctrl+C, a crash or a kill
 * leaves a consistent record, and a run of thousands of files does not rewrite it thousands of
 * times; running the same command again skips what is done.
 */
export const MANIFEST_VERSION = 1;
/** Answers kept for the final report of a resumed run; longer ones are cut. */
const MAX_TEXT = 16 * 1024;
/** The manifest is rewritten at most this often while files finish (the journal has the rest). */
const SAVE_EVERY_MS = 1000;

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
  private timer: NodeJS.Timeout | undefined;
  private journaling: Promise<void> = Promise.resolve();
  /** The manifest exists on disk (it says which skill the journal's entries belong to). */
  private written = false;

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
    // A journal without its manifest belongs to nothing known: it is started over.
    if (!old) return new RunManifest(path, fresh, false);
    for (const [rel, e] of await readJournal(path)) old.files[rel] = e;
    const changed = old.skillHash !== init.skillHash;
    const m = new RunManifest(path, { ...old, model: init.model }, changed);
    m.written = true;
    return m;
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

  /** Record one finished input; resolves once it is on disk (in the journal). */
  record(rel: string, entry: Omit<ManifestEntry, 'finishedAt'>): Promise<void> {
    const text = entry.text.length > MAX_TEXT ? `${entry.text.slice(0, MAX_TEXT)}…` : entry.text;
    const full: ManifestEntry = { ...entry, text, finishedAt: new Date().toISOString() };
    this.data.files[rel] = full;
    const line = `${JSON.stringify({ rel, entry: full })}\n`;
    this.journaling = this.journaling
      .catch(() => undefined)
      .then(async () => {
        if (!this.written) {
          // The first file of a new run: the manifest goes down first, naming the skill.
          this.written = true;
          await this.save();
          return;
        }
        await mkdir(dirname(this.path), { recursive: true });
        await appendFile(journalPath(this.path), line, 'utf8');
      });
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.save().catch(() => undefined);
    }, SAVE_EVERY_MS);
    return this.journaling;
  }

  /** The run is over (or stopped): write the manifest whole and drop the journal it now holds. */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.journaling.catch(() => undefined);
    await this.save();
    await rm(journalPath(this.path), { force: true });
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

function journalPath(path: string): string {
  return `${path}.journal`;
}

/** Entries appended since the manifest was last written whole (a torn last line is skipped). */
async function readJournal(path: string): Promise<[string, ManifestEntry][]> {
  const text = await readFile(journalPath(path), 'utf8').catch(() => '');
  const out: [string, ManifestEntry][] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const row = JSON.parse(line) as { rel?: unknown; entry?: ManifestEntry };
      if (typeof row.rel === 'string' && row.entry && typeof row.entry === 'object')
        out.push([row.rel, row.entry]);
    } catch {
      // torn by a kill: that file is simply done again
    }
  }
  return out;
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
