/**
 * The run record of a composite skill's per-file step (`each:`): the same lock and manifest as a
 * folder run (`<output folder>/.zhi-runs/<skill>.each-<folder>-<tag>.json`), and each step's
 * whole result kept beside it (`….results/<hash of the file>.md`, written whole then renamed), so
 * a run killed part-way is started again with only the files not done, and `--force` redoes them
 * all. The results stay after the run: the next run of the same command reuses them (like a
 * folder run says its files are already done) and only the combining step is made again.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Skill } from '../../skills/schema.js';
import { displayPath } from '../../tools/paths.js';
import { folderOptions } from '../folder/folder-options.js';
import { fingerprint, manifestPath, RunManifest } from '../folder/manifest.js';
import { RunLock } from '../folder/run-lock.js';
import { runOutputDir } from './folder-job.js';
import type { FolderSettings, ModelAccess, Person, Place, SkillRunRequest, StepOutcome } from './types.js';

export class StepRecord {
  private constructor(
    private readonly manifest: RunManifest,
    private readonly lock: RunLock | undefined,
    private readonly folder: string,
    private readonly cwd: string,
    /** A dry run reads the record and changes nothing. */
    private readonly dry: boolean,
  ) {}

  /** Take the folder's lock and open its record (a dry run takes no lock). */
  static async open(
    req: SkillRunRequest,
    rt: Pick<Place, 'cwd' | 'outputFolder'> &
      Pick<Person, 'signal'> &
      Pick<ModelAccess, 'skillModel'> &
      FolderSettings,
    target: Skill,
    folder: string,
  ): Promise<StepRecord> {
    const o = folderOptions(rt.folder);
    const path = manifestPath(runOutputDir(req, rt), `${req.skill.name}.each`, folder);
    const lock = o.dryRun
      ? undefined
      : await RunLock.take(path, { wait: o.wait, signal: rt.signal, folder: displayPath(rt.cwd, folder) });
    try {
      const manifest = await RunManifest.open(path, {
        skill: target.name,
        skillHash: target.hash,
        model: target.model ?? rt.skillModel,
        folder: displayPath(rt.cwd, folder),
        currency: req.usage.platform.currency,
      });
      return new StepRecord(manifest, lock, folder, rt.cwd, o.dryRun);
    } catch (err) {
      await lock?.release();
      throw err;
    }
  }

  private relOf(file: string): string {
    return relative(this.folder, file);
  }

  private resultFile(rel: string): string {
    const key = createHash('sha256').update(rel).digest('hex').slice(0, 24);
    return join(`${this.manifest.path}.results`, `${key}.md`);
  }

  /**
   * Split the files into those done by an earlier run (their kept results) and those to run now;
   * with `force` every file is run again.
   */
  async plan(files: string[], force: boolean): Promise<{ kept: Map<string, StepOutcome>; todo: string[] }> {
    const kept = new Map<string, StepOutcome>();
    const todo: string[] = [];
    const redo: string[] = [];
    for (const file of files) {
      const rel = this.relOf(file);
      const fresh = force ? 'new' : await this.manifest.check(rel, file);
      const text =
        fresh === 'done' ? await readFile(this.resultFile(rel), 'utf8').catch(() => undefined) : undefined;
      // Its files were written (and counted) by the run that made it.
      if (text !== undefined) kept.set(file, { text, ok: true, filesRead: 0, filesWritten: [] });
      else todo.push(file);
      if (force || fresh === 'changed') redo.push(rel);
    }
    if (redo.length && !this.dry) await this.manifest.forget(redo);
    return { kept, todo };
  }

  /** A step ended: its whole result on disk first, then the record says it is done (or failed). */
  async keep(file: string, r: StepOutcome, cost: number): Promise<void> {
    const rel = this.relOf(file);
    const fp = await fingerprint(file).catch(() => undefined);
    if (!fp) return;
    if (r.ok) {
      const path = this.resultFile(rel);
      await mkdir(join(path, '..'), { recursive: true });
      const tmp = `${path}.${process.pid}.tmp`;
      await writeFile(tmp, r.text);
      await rename(tmp, path);
    }
    await this.manifest.record(rel, {
      ...fp,
      status: r.ok ? 'done' : 'failed',
      outputs: r.filesWritten.map((w) => w.path),
      text: r.text,
      cost,
      ...(r.ok ? {} : { error: r.text }),
    });
  }

  /** The steps are over (or stopped): the record written whole, the lock given back. */
  async close(): Promise<void> {
    try {
      if (!this.dry) await this.manifest.close();
    } finally {
      await this.lock?.release();
    }
  }
}
