import { resolve } from 'node:path';

/**
 * The one decision of where files are written: `--output-dir` beats a skill's own
 * `output.directory`, which beats `$ZHI_OUTPUT_DIR` and `output_dir` in config.yaml (and the
 * default `zhi-output`). Relative folders are taken from the current folder. `source` is where
 * `configured` came from (resolveConfig's sources).
 */
export function outputFolder(o: {
  cwd: string;
  configured: string;
  source: string;
  /** A skill's `output.directory`, when a skill runs. */
  skillDir?: string | undefined;
}): string {
  const fromFlag = o.source === '--output-dir';
  return resolve(o.cwd, !fromFlag && o.skillDir ? o.skillDir : o.configured);
}
