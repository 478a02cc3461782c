/** The manifest a shared skill's zip carries (share.ts writes it, share-plain.ts builds one for a plain folder). */

export interface Manifest {
  format: 'zhi-skill/1';
  name: string;
  version: string;
  /** `skill`: the author's own (`version:`, `metadata.version`); `content`: made from the hash. */
  version_source?: 'skill' | 'content';
  skill_format: 'yaml' | 'skill-md';
  tools: string[];
  /** sha256 over every file (as trust computes it). */
  hash: string;
  files: { path: string; sha256: string; bytes: number }[];
}
