import { createHash } from 'node:crypto';
import { createReadStream, realpathSync } from 'node:fs';
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
  /** What was written for it, byte for byte (to recognise a failed file's outputs when it is redone). */
  written?: OutputWrite[];
  finishedAt: string;
}

/** A file written for an input: where (relative to the output folder) and its bytes' sha256. */
export interface OutputWrite {
  path: string;
  sha256: string;
  bytes: number;
}

export interface BatchRecord {
  id: string;
  model: string;
  createdAt: string;
  /** custom_id → input file (relative to the folder). */
  requests: Record<string, string>;
  /** Last status seen (validating, in_progress, completed…). */
  status: string;
  /** Further jobs of the same run, when its requests did not fit one input file. */
  more?: { id: string; status: string }[];
  /** The permission mode of the run that submitted it: `zhi batch results` writes the same way. */
  mode?: 'auto' | 'approve';
  /** The submitting run's `--jobs`: `zhi batch results` makes any online calls as many at once. */
  jobs?: number;
  /** Which round of the run (1: every file's first call, 2: their next…). */
  round?: number;
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
  /** Batch jobs whose answers this run record has used up (so `zhi batch results` still finds it). */
  usedJobs?: string[];
  files: Record<string, ManifestEntry>;
  /**
   * Files written for inputs that have not finished, recorded before each write: what a killed
   * run left behind, recognised (same bytes) and removed before the input is done again.
   */
  pending?: Record<string, OutputWrite[]>;
}

/** One line of the journal: an input finished, a file is about to be written, or leftovers were cleared. */
type JournalLine =
  | { rel: string; entry: ManifestEntry }
  | { rel: string; writing: OutputWrite }
  | { rel: string; cleared: true };

/** Where the manifest of running `skill` over `folder` lives (one per skill and folder). */
export function manifestPath(outputDir: string, skill: string, folderAbs: string): string {
  // The folder's real path: reached through a link, it is still the same run (one lock, one record).
  const real = realOrSelf(folderAbs);
  const tag = createHash('sha256').update(real).digest('hex').slice(0, 8);
  const slug =
    basename(real)
      .replace(/[^\p{L}\p{N}_-]+/gu, '_')
      .slice(0, 40) || 'folder';
  return join(outputDir, '.zhi-runs', `${skill}-${slug}-${tag}.json`);
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
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

/** `lost`: done, but what it wrote is no longer on disk (moved, deleted), or it promised a file and wrote none. */
export type Freshness = 'done' | 'changed' | 'new' | 'failed' | 'lost';

/** Is every file recorded for this input still there (a stat each: cheap at any folder size)? */
async function outputsThere(entry: ManifestEntry, outputDir: string, promised: boolean): Promise<boolean> {
  const written = entry.written ?? [];
  if (promised && !written.length) return false;
  for (const w of written) {
    const st = await stat(join(outputDir, w.path)).catch(() => undefined);
    if (!st?.isFile()) return false;
  }
  return true;
}

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
    for (const line of await readJournal(path)) apply(old, line);
    const changed = old.skillHash !== init.skillHash;
    const m = new RunManifest(path, { ...old, model: init.model }, changed);
    m.written = true;
    return m;
  }

  /**
   * Is this input done with the same content, and are its outputs still on disk? Size, then
   * mtime, then the hash decide the input; a stat each the outputs (a person's edit of one keeps
   * it done: only a missing one makes it `lost`).
   */
  async check(rel: string, abs: string, out?: { dir: string; promised: boolean }): Promise<Freshness> {
    const e = this.data.files[rel];
    if (!e) return 'new';
    if (e.status === 'failed') return 'failed';
    if (this.skillChanged) return 'changed';
    const st = await stat(abs).catch(() => undefined);
    if (!st || st.size !== e.size) return 'changed';
    if (Math.round(st.mtimeMs) !== e.mtimeMs && (await sha256File(abs)) !== e.sha256) return 'changed';
    return !out || (await outputsThere(e, out.dir, out.promised)) ? 'done' : 'lost';
  }

  entry(rel: string): ManifestEntry | undefined {
    return this.data.files[rel];
  }

  /**
   * Record one finished input with what it wrote (by default every write planned for it; a caller
   * that checked them passes the ones on disk); resolves once it is on disk (in the journal).
   */
  record(rel: string, entry: Omit<ManifestEntry, 'finishedAt'>): Promise<void> {
    const text = entry.text.length > MAX_TEXT ? `${entry.text.slice(0, MAX_TEXT)}…` : entry.text;
    const written = entry.written ?? this.data.pending?.[rel];
    const full: ManifestEntry = {
      ...entry,
      text,
      ...(written?.length ? { written } : {}),
      finishedAt: new Date().toISOString(),
    };
    return this.journal({ rel, entry: full });
  }

  /** A file is about to be written for this input: on disk (in the journal) before the write. */
  writing(rel: string, file: OutputWrite): Promise<void> {
    return this.journal({ rel, writing: file });
  }

  /**
   * What an earlier attempt at this input wrote and did not see through: the files of an
   * unfinished input (killed mid-way), or of a failed one. Recognised by their bytes before removal.
   */
  leftovers(rel: string): OutputWrite[] {
    const entry = this.data.files[rel];
    return [
      ...(this.data.pending?.[rel] ?? []),
      ...(entry?.status === 'failed' ? (entry.written ?? []) : []),
    ];
  }

  /** The leftovers of this input are dealt with. */
  cleared(rel: string): Promise<void> {
    return this.journal({ rel, cleared: true });
  }

  /** Apply a change and append it to the journal; resolves once it is on disk. */
  private journal(change: JournalLine): Promise<void> {
    apply(this.data, change);
    const line = `${JSON.stringify(change)}\n`;
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

  /**
   * `--force` or a changed input: these inputs are to be done again, so they are not done any
   * more — on disk before anything starts, so an interrupted run leaves them to be redone, not
   * the old results. What they wrote becomes theirs to replace (like an unfinished attempt's
   * files: removed, when still exactly as written, before the input is done again). The manifest
   * is written whole and the journal it now holds dropped (one write, however many).
   */
  async forget(rels: readonly string[]): Promise<string[]> {
    // Failed ones are redone anyway, and keep what they wrote (removed before they are redone).
    const known = rels.filter((rel) => this.data.files[rel]?.status === 'done');
    if (!known.length) return [];
    const replacing = known.filter((rel) => this.data.files[rel]?.written?.length);
    for (const rel of known) {
      const old = this.data.files[rel]?.written ?? [];
      delete this.data.files[rel];
      if (!old.length) continue;
      this.data.pending ??= {};
      this.data.pending[rel] = [...(this.data.pending[rel] ?? []), ...old];
    }
    await this.journaling.catch(() => undefined);
    this.written = true;
    await this.save();
    await rm(journalPath(this.path), { force: true });
    return replacing;
  }

  setBatch(batch: BatchRecord | undefined): Promise<void> {
    const old = this.data.batch;
    if (batch) this.data.batch = batch;
    else delete this.data.batch;
    // A job used up is remembered by id: `zhi batch results` of it still finds this run.
    if (old && old.id !== batch?.id) {
      const ids = [old.id, ...(old.more ?? []).map((m) => m.id)];
      this.data.usedJobs = [...(this.data.usedJobs ?? []), ...ids].slice(-50);
    }
    return this.save();
  }

  /** Inputs of the current batch job that are not done yet (its answers are still needed). */
  batchOpen(): string[] {
    const job = this.data.batch;
    if (!job) return [];
    return Object.values(job.requests).filter((rel) => this.data.files[rel]?.status !== 'done');
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

/** A journal line applied to the manifest's data (when it happens, and again when read back). */
function apply(data: ManifestData, line: JournalLine): void {
  data.pending ??= {};
  const pending = data.pending;
  if ('entry' in line) {
    data.files[line.rel] = line.entry;
    delete pending[line.rel];
  } else if ('writing' in line) {
    pending[line.rel] ??= [];
    const list = pending[line.rel]!;
    if (!list.some((w) => w.path === line.writing.path && w.sha256 === line.writing.sha256))
      list.push(line.writing);
  } else {
    delete pending[line.rel];
    const entry = data.files[line.rel];
    if (entry) delete entry.written;
  }
  if (!Object.keys(pending).length) delete data.pending;
}

function isOutputWrite(v: unknown): v is OutputWrite {
  const w = v as OutputWrite;
  return (
    Boolean(w) && typeof w.path === 'string' && typeof w.sha256 === 'string' && typeof w.bytes === 'number'
  );
}

/** Changes appended since the manifest was last written whole (a torn last line is skipped). */
async function readJournal(path: string): Promise<JournalLine[]> {
  const text = await readFile(journalPath(path), 'utf8').catch(() => '');
  const out: JournalLine[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const row = JSON.parse(line) as {
        rel?: unknown;
        entry?: unknown;
        writing?: unknown;
        cleared?: unknown;
      };
      if (typeof row.rel !== 'string') continue;
      if (row.entry && typeof row.entry === 'object')
        out.push({ rel: row.rel, entry: row.entry as ManifestEntry });
      else if (isOutputWrite(row.writing)) out.push({ rel: row.rel, writing: row.writing });
      else if (row.cleared === true) out.push({ rel: row.rel, cleared: true });
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
