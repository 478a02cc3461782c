/**
 * The command that starts this zhi again, as the person should type it next time: `zhi` only when
 * a `zhi` on the PATH is this one; otherwise how it was started (`npm start` in the checkout,
 * `npx zhi`, the executable's path, `node …/dist/zhi.js`). Uses the `--version` detection.
 */
import { realpathSync, statSync } from 'node:fs';
import { delimiter, join, relative } from 'node:path';
import { type InstallKind, installKind } from '../support/install.js';

export interface StartFacts {
  kind: InstallKind;
  env: NodeJS.ProcessEnv;
  /** The script (dist/zhi.js), or the executable itself. */
  entry: string;
  cwd: string;
  platform: NodeJS.Platform;
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** A `zhi` on the PATH that is this zhi (the same file once links are followed), or any on Windows. */
function onPath(f: StartFacts): boolean {
  const names = f.platform === 'win32' ? ['zhi.cmd', 'zhi.exe', 'zhi.ps1'] : ['zhi'];
  const me = realOr(f.entry);
  for (const dir of (f.env.PATH ?? f.env.Path ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const p = join(dir, name);
      if (!statSync(p, { throwIfNoEntry: false })?.isFile()) continue;
      // npm's Windows shims are small scripts, not links: one on the PATH is taken as this zhi.
      if (f.platform === 'win32' || realOr(p) === me) return true;
    }
  }
  return false;
}

/** A path as typed from the current folder: relative when it is below it, else as it is. */
function typed(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  const shown = rel && !rel.startsWith('..') ? rel : path;
  return /\s/.test(shown) ? `"${shown}"` : shown;
}

export function startCommand(f: StartFacts): string {
  if (onPath(f)) return 'zhi';
  if (f.env.npm_lifecycle_event === 'start') return 'npm start';
  if (f.kind === 'npm' && f.env.npm_command === 'exec') return 'npx zhi';
  if (f.kind === 'exe') {
    const shown = typed(f.entry, f.cwd);
    if (/[\\/]/.test(shown) || shown.startsWith('"')) return shown;
    return f.platform === 'win32' ? `.\\${shown}` : `./${shown}`;
  }
  return `node ${typed(f.entry, f.cwd)}`;
}

/** The start command of the running process. */
export function thisStartCommand(env: NodeJS.ProcessEnv, cwd: string): string {
  const kind = installKind();
  const entry = kind === 'exe' ? process.execPath : (process.argv[1] ?? 'zhi');
  return startCommand({ kind, env, entry, cwd, platform: process.platform });
}
