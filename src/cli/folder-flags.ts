import { DEFAULT_JOBS } from '../agent/folder/pool.js';
import type { Skill } from '../skills/schema.js';
import { pushAll } from '../support/arrays.js';
import { ZhiError } from '../support/errors.js';

/** Folder-run switches that take no value (`--recursive docs` keeps `docs` as an input). */
export const FOLDER_SWITCHES = new Set(['recursive', 'force', 'batch', 'dry-run', 'wait']);
/** Folder-run options that may be given more than once (their values are kept, one per line). */
export const FOLDER_LISTS = new Set(['include', 'exclude']);
const FOLDER_VALUES = new Set(['jobs', ...FOLDER_LISTS]);
export const MAX_JOBS = 64;

export interface FolderFlags {
  jobs?: number;
  recursive: boolean;
  force: boolean;
  batch: boolean;
  dryRun: boolean;
  /** Another run holds the folder: wait for it instead of stopping (`--wait`). */
  wait: boolean;
  include: string[];
  exclude: string[];
}

const usage = (flag: string, value: string) =>
  new ZhiError({
    kind: 'usage',
    what: { key: 'cli.err.badValue', params: { flag, value } },
    why: { key: 'runs.err.jobs', params: { max: MAX_JOBS } },
  });

/**
 * Take the folder-run options out of a run's `--name value` pairs (what is left are the skill's
 * inputs). An input of the skill with the same name wins: the skill asked for it first.
 */
export function takeFolderFlags(
  named: Readonly<Record<string, string | true>>,
  skill: Skill,
): { flags: FolderFlags; rest: Record<string, string | true> } {
  const flags: FolderFlags = {
    recursive: false,
    force: false,
    batch: false,
    dryRun: false,
    wait: false,
    include: [],
    exclude: [],
  };
  const rest: Record<string, string | true> = {};
  const own = new Set(skill.args.map((a) => a.name.toLowerCase()));
  for (const [key, value] of Object.entries(named)) {
    const k = key.toLowerCase();
    if (own.has(k) || !(FOLDER_SWITCHES.has(k) || FOLDER_VALUES.has(k))) {
      rest[key] = value;
      continue;
    }
    if (k === 'jobs') {
      const n = Number(value);
      if (value === true || !Number.isInteger(n) || n < 1 || n > MAX_JOBS)
        throw usage('--jobs', String(value));
      flags.jobs = n;
    } else if (FOLDER_LISTS.has(k)) {
      const list = value === true ? [] : value.split('\n').filter(Boolean);
      if (!list.length) throw usage(`--${k}`, '');
      pushAll(flags[k as 'include' | 'exclude'], list);
    } else if (k === 'dry-run') flags.dryRun = true;
    else flags[k as 'recursive' | 'force' | 'batch' | 'wait'] = true;
  }
  return { flags, rest };
}

/** The `--jobs` default: 4, fewer on the coding plans (they allow few calls at once). */
export function defaultJobs(platform: string): number {
  return platform.endsWith('-coding') ? 2 : DEFAULT_JOBS;
}
