/**
 * What an OS scheduler starts for a job: `<node> <zhi.js> --language <l> schedule run <name>`
 * (or the standalone executable instead of the first two), in the job's folder, with the few
 * environment variables that say where zhi's files are. Never the API key: it stays in zhi's
 * config, which the run reads.
 */
import type { Job } from '../job.js';

export interface Launch {
  /** Absolute: node (or the standalone executable). */
  program: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

export interface LaunchFacts {
  kind: 'exe' | 'npm' | 'source';
  /** process.execPath: node, or the executable itself. */
  execPath: string;
  /** The script node runs (dist/zhi.js); unused for an executable. */
  entry: string;
  env: NodeJS.ProcessEnv;
}

/** Variables that move zhi's folders: a scheduled run must find the same config and jobs. */
const PLACES = ['ZHI_HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME'];

export function launchOf(job: Pick<Job, 'name' | 'cwd' | 'language'>, f: LaunchFacts): Launch {
  const zhi = ['--language', job.language, 'schedule', 'run', job.name];
  const env: Record<string, string> = {};
  for (const name of PLACES) {
    const v = f.env[name];
    if (v) env[name] = v;
  }
  return {
    program: f.execPath,
    args: f.kind === 'exe' ? zhi : [f.entry, ...zhi],
    cwd: job.cwd,
    env,
  };
}

/** A word for a POSIX shell: single-quoted unless it is plainly safe. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A word for a Windows command line, as CommandLineToArgvW reads it back. */
export function windowsWord(s: string): string {
  if (s && !/[\s"]/.test(s)) return s;
  let out = '"';
  let slashes = 0;
  for (const ch of s) {
    if (ch === '\\') {
      slashes += 1;
      continue;
    }
    // Backslashes before a quote (or the closing quote) are doubled; elsewhere they are literal.
    out += '\\'.repeat(ch === '"' ? slashes * 2 + 1 : slashes) + ch;
    slashes = 0;
  }
  return `${out}${'\\'.repeat(slashes * 2)}"`;
}

/** Text inside XML (Task Scheduler, launchd). */
export function xmlText(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
