/**
 * The Batch API's answers of a folder run, kept on disk as each job's results come
 * (`<output folder>/.zhi-batch/<run record's name>/<key>.json`, the key a hash of the request): a run stopped between
 * rounds, or whose writes were refused, is finished later by the same command without paying for
 * any answer again — each file's calls are made again, and those already answered are replayed.
 * Removed when every file of the run is done.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ChunkJson } from '../../llm/response.js';

export class AnswerStore {
  constructor(readonly dir: string) {}

  /** The store beside a run record. */
  static beside(manifestPath: string): AnswerStore {
    const name = basename(manifestPath).replace(/\.json$/, '');
    return new AnswerStore(join(dirname(dirname(manifestPath)), '.zhi-batch', name));
  }

  /** The key of a request body (without its stream flag): what an answer is kept under. */
  static keyOf(bodyJson: string): string {
    return createHash('sha256').update(bodyJson).digest('hex').slice(0, 32);
  }

  private file(key: string): string {
    return join(this.dir, `${key}.json`);
  }

  async get(key: string): Promise<ChunkJson | undefined> {
    try {
      return JSON.parse(await readFile(this.file(key), 'utf8')) as ChunkJson;
    } catch {
      return undefined;
    }
  }

  /** Keep an answer (written whole, then renamed: a kill never leaves half of one). */
  async put(key: string, body: ChunkJson): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const tmp = `${this.file(key)}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(body));
    await rename(tmp, this.file(key));
  }

  async discard(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
    // The parent goes too when this was its last store (an output folder keeps only outputs).
    await rmdir(dirname(this.dir)).catch(() => undefined);
  }
}
