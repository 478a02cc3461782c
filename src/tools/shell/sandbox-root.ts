/**
 * What a Linux sandbox's root is built from (issue 37): an allow-list of system folders, never the
 * host's `/` with parts hidden. A command sees `/usr`, `/bin`, `/sbin`, `/lib*`, `/etc` (and a Nix
 * or Guix store), the folders of the programs on its PATH that live elsewhere (`/opt/node` for
 * `/opt/node/bin`), and what the policy adds (the current folder, the output folder, installed
 * programs in the home folder). Everything else — `/var/tmp`, `/srv`, `/opt`, `/mnt`, `/media`,
 * `/run` and its host sockets, other home folders — simply is not there.
 *
 * Inside `/etc`, every file and folder that "others" may not read (`/etc/shadow`, `/etc/gshadow`,
 * `/etc/sudoers`, `/etc/ssl/private`, ssh host keys…) is masked: in the sandbox's user namespace
 * root keeps the owner's permission bits, so a file readable only by root would be readable there.
 */
import { type Dirent, existsSync, lstatSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';

/** A file or folder the sandbox binds, hides or masks. */
export interface Place {
  path: string;
  dir: boolean;
}

/** A top-level system entry: bound read-only, or (merged /usr) recreated as the same symlink. */
export interface RootEntry {
  path: string;
  /** The symlink's target, when the entry is a link (`/bin` → `usr/bin`). */
  link?: string;
}

/** The system folders every command sees. */
export const SYSTEM_ROOTS: readonly string[] = [
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/etc',
  '/nix/store',
  '/gnu/store',
];

/**
 * Places a PATH entry never makes visible: data, other drives, host sockets, other people's homes
 * and temp folders. A program installed there is not run from the sandbox.
 */
const NEVER_SHOWN = [
  '/',
  '/var',
  '/srv',
  '/mnt',
  '/media',
  '/run',
  '/tmp',
  '/home',
  '/root',
  '/proc',
  '/sys',
  '/dev',
  '/boot',
  '/lost+found',
];

/** Walking /etc stops here: the masks are a list of mounts, and bwrap's argument list is finite. */
const MAX_ETC_ENTRIES = 20_000;

function inside(parent: string, child: string): boolean {
  return child === parent || child.startsWith(parent.endsWith('/') ? parent : `${parent}/`);
}

function real(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

/** The system roots present on this machine, symlinks kept as symlinks. */
export function systemEntries(roots: readonly string[] = SYSTEM_ROOTS): RootEntry[] {
  const entries: RootEntry[] = [];
  for (const path of roots) {
    try {
      const st = lstatSync(path);
      if (st.isSymbolicLink()) entries.push({ path, link: readlinkSync(path) });
      else if (st.isDirectory()) entries.push({ path });
    } catch {
      // not on this machine
    }
  }
  return entries;
}

/**
 * The install folder of each program folder on PATH (and of the running Node) that lies outside
 * the system roots and the home folder: `/opt/node/bin` gives `/opt/node`, `/opt/tool` itself.
 * Never a top-level folder nor one of the places above.
 */
export function programFolders(
  pathVar: string | undefined,
  home: string,
  extra: readonly string[] = [],
): string[] {
  const found = new Set<string>();
  for (const dir of [...(pathVar ?? '').split(':'), ...extra]) {
    if (!dir || !isAbsolute(dir)) continue;
    const resolved = real(dir);
    if (!resolved || !existsSync(resolved)) continue;
    if (SYSTEM_ROOTS.some((r) => inside(r, resolved)) || inside(home, resolved)) continue;
    const name = basename(resolved);
    const prefix = name === 'bin' || name === 'sbin' ? dirname(resolved) : resolved;
    // `/opt/bin` would show all of /opt: only a folder two levels down is an install folder.
    const folder = prefix.split('/').length >= 3 ? prefix : resolved;
    if (folder.split('/').length < 3) continue;
    if (NEVER_SHOWN.some((n) => n !== '/' && inside(n, folder))) continue;
    found.add(folder);
  }
  return [...found].sort();
}

/**
 * What under `/etc` "others" may not read: unreadable files (masked by an empty file) and folders
 * others cannot list or enter (masked by an empty folder, not looked into).
 */
export function rootOnlyPlaces(etc = '/etc'): Place[] {
  const masked: Place[] = [];
  let seen = 0;
  const walk = (dir: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      masked.push({ path: dir, dir: true });
      return;
    }
    for (const e of entries) {
      if (++seen > MAX_ETC_ENTRIES) return;
      if (e.isSymbolicLink()) continue;
      const path = join(dir, e.name);
      let mode: number;
      try {
        mode = lstatSync(path).mode;
      } catch {
        continue;
      }
      if (e.isDirectory()) {
        if ((mode & 0o005) !== 0o005) masked.push({ path, dir: true });
        else walk(path);
      } else if ((mode & 0o004) === 0) masked.push({ path, dir: false });
    }
  };
  if (existsSync(etc)) walk(etc);
  return masked;
}
