import { resolve } from 'node:path';

/**
 * The one decision of where files are written: `--output-dir` beats a skill's own
 * `output.directory`, which beats `$ZHI_OUTPUT_DIR` and `output_dir` in config.yaml (and the
 * default `zhi-output`). Relative folders are taken from the current folder;
 * the folder the command line gives is passed as it was typed, never recovered from config.
 */
export function outputFolder(o: {
  cwd: string;
  /** `--output-dir` as typed, when given. */
  flag?: string | undefined;
  /** `$ZHI_OUTPUT_DIR`, `output_dir` or the default. */
  configured: string;
  /** A skill's `output.directory`, when a skill runs. */
  skillDir?: string | undefined;
}): string {
  return resolve(o.cwd, o.flag || o.skillDir || o.configured);
}
