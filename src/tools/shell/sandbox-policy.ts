/**
 * The policy one sandboxed command runs under (sandbox-args.ts turns it into bwrap or Seatbelt
 * arguments): the folders it may write, what already exists there (kept), the secrets hidden, the
 * home folders hidden and what is shown again, the network. Reads the file system; no process.
 */
import { type Dirent, existsSync, readdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pushAll } from '../../support/arrays.js';
import { secretPlaces } from '../secret-places.js';
import type { SandboxMode } from '../types.js';
import type { ProxySeams } from './net-proxy.js';
import { HOME_PROGRAMS, type Place, type SandboxPolicy } from './sandbox-args.js';

export interface SandboxedOptions {
  cwd: string;
  /** The one folder the command may write (created if missing). */
  outputDir: string;
  /** Widened for this one command by the person: write in the current folder too. */
  allowWriteCwd?: boolean;
  /** Widened for this one command by the person: reach the network. */
  allowNetwork?: boolean;
  /** Folders readable even inside a hidden one (a skill's own folder). */
  extraReadable?: string[];
  timeoutMs: number;
  signal?: AbortSignal;
  maxBytes: number;
  env?: NodeJS.ProcessEnv;
  /** `shell_sandbox` (default `auto`: the sandbox where there is one). */
  mode?: SandboxMode;
  /** How the filtering proxy resolves and connects (tests). */
  egress?: ProxySeams;
}

export function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** More entries than this in the output folder: it is left read-only rather than bound entry by entry. */
const MAX_PROTECTED = 4000;

/** What already exists directly in a writable folder (not links), to be bound read-only over itself. */
function existingEntries(dir: string): Place[] | undefined {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  if (entries.length > MAX_PROTECTED) return undefined;
  return entries
    .filter((e) => e.isFile() || e.isDirectory())
    .map((e) => ({ path: join(dir, e.name), dir: e.isDirectory() }));
}

/** The home folders hidden whole (Linux, macOS), and the installed programs in one shown again. */
function homeFolders(home: string, platform: NodeJS.Platform): { roots: string[]; shown: string[] } {
  const roots = (platform === 'darwin' ? ['/Users', '/var/root'] : ['/home', '/root']).filter((r) =>
    existsSync(r),
  );
  if (!roots.some((r) => home === r || home.startsWith(`${r}/`)) && home !== '/') roots.push(home);
  // Other drives and the shared temp folder (the Linux root does not hold them at all, issue 37).
  if (platform === 'darwin') roots.push('/Volumes', '/private/var/tmp');
  const shown = HOME_PROGRAMS.map((p) => join(home, p))
    .filter((p) => existsSync(p))
    .map(real);
  // On macOS, ~/Library holds every program's settings; its secret parts are hidden one by one.
  if (platform === 'darwin' && existsSync(join(home, 'Library'))) shown.push(join(home, 'Library'));
  return { roots, shown };
}

/** The policy for one command; exported for tests. */
export function policyFor(
  opts: SandboxedOptions,
  tempDir: string,
  env = process.env,
  platform: NodeJS.Platform = process.platform,
): SandboxPolicy {
  const cwd = real(opts.cwd);
  const output = real(opts.outputDir);
  const home = real(homedir());
  const entries = existingEntries(output);
  // Too many earlier results to protect one by one: the output folder stays read-only this time.
  const writable = entries ? [output] : [];
  if (opts.allowWriteCwd) writable.push(cwd);
  const { roots, shown } = homeFolders(home, platform);
  const places = secretPlaces({ home, env, cwd });
  const extraReadable = [...(opts.extraReadable ?? []).filter((p) => existsSync(p)).map(real)];
  const visible = [cwd, ...shown, ...writable, ...extraReadable, ...places.readable];
  // A secret inside a hidden home folder needs no mount of its own unless something shows it again.
  const hidden = places.hidden.filter(
    (h) => !roots.some((r) => under(r, h.path)) || visible.some((v) => under(v, h.path) || under(h.path, v)),
  );
  // Started in the home folder (or above it), the current folder shows the home folder: its
  // dot-files and dot-folders (every program's settings and credentials, named or not) stay
  // hidden, as they do for the model's reads (tools/scope.ts). Installed programs stay shown.
  if (under(cwd, home) && cwd !== '/')
    pushAll(
      hidden,
      homeDotEntries(home).filter(
        (e) => !visible.some((v) => v !== cwd && under(e.path, v)) && !hidden.some((h) => h.path === e.path),
      ),
    );
  return {
    cwd,
    writable,
    protected: entries ?? [],
    hidden,
    privateRoots: roots.filter((r) => !under(r, '/tmp')),
    shown,
    extraReadable: [...extraReadable, ...places.readable],
    network: Boolean(opts.allowNetwork),
    tempDir,
  };
}

/** Every dot-file and dot-folder directly in the home folder (not links: a link shows nothing itself). */
function homeDotEntries(home: string): Place[] {
  try {
    return readdirSync(home, { withFileTypes: true })
      .filter((e) => e.name.startsWith('.') && (e.isFile() || e.isDirectory()))
      .map((e) => ({ path: join(home, e.name), dir: e.isDirectory() }));
  } catch {
    return [];
  }
}

function under(parent: string, child: string): boolean {
  return child === parent || child.startsWith(parent.endsWith('/') ? parent : `${parent}/`);
}
