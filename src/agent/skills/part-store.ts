/**
 * A long document's part results, kept on disk as they come (`<output folder>/.zhi-parts/<key>/`),
 * so a run that is interrupted or fails part-way is started again without paying for the parts
 * already done. The key covers everything a result depends on: the document's parts, the skill
 * (its file's hash), the model, the part size and the other inputs. The folder is removed when
 * the skill's run has finished with an answer.
 */
import { createHash } from 'node:crypto';
import { access, mkdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export class PartStore {
  private constructor(readonly dir: string) {}

  /** The store for these inputs (made on first write); `parts` is the hash of the parts' texts. */
  static for(outputDir: string, inputs: { parts: string; other: unknown }): PartStore {
    const hash = createHash('sha256');
    hash.update(JSON.stringify(inputs.other));
    hash.update('\0');
    hash.update(inputs.parts);
    return new PartStore(join(outputDir, '.zhi-parts', hash.digest('hex').slice(0, 24)));
  }

  private file(name: string): string {
    return join(this.dir, `${name}.md`);
  }

  /** A result kept by an earlier run, or undefined. */
  async get(name: string): Promise<string | undefined> {
    try {
      return await readFile(this.file(name), 'utf8');
    } catch {
      return undefined;
    }
  }

  /** Whether a result is kept (without reading it). */
  async has(name: string): Promise<boolean> {
    return access(this.file(name)).then(
      () => true,
      () => false,
    );
  }

  /** A kept result's size in bytes (0 when there is none). */
  async bytes(name: string): Promise<number> {
    return stat(this.file(name)).then(
      (s) => s.size,
      () => 0,
    );
  }

  /** Keep a result (written whole, then renamed: a kill never leaves half a result). */
  async put(name: string, text: string): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const tmp = `${this.file(name)}.${process.pid}.tmp`;
    await writeFile(tmp, text);
    await rename(tmp, this.file(name));
  }

  /** The run is finished: its part results are no longer needed. */
  async discard(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
    // The parent goes too when this was its last store (an output folder keeps only outputs).
    await rmdir(dirname(this.dir)).catch(() => undefined);
  }
}
