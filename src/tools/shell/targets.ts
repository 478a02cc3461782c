/**
 * Which paths a destructive command must never touch: the file-system root, top-level system
 * folders, the home folder (and the well-known folders inside it), drive roots on Windows — in
 * every spelling (`/`, `//`, `/usr/..`, `~`, `$HOME`, `${HOME}`, `%USERPROFILE%`, `C:\`, globs
 * such as `/*`, and variables that may be empty, like `$DIR/`).
 */
import { posix } from 'node:path';
import type { CmdEnv } from './cmd-expand.js';
import { SUB_PREFIX, VAR_END, VAR_START } from './parse.js';

export interface PathContext {
  /** The home folder, absolute, forward slashes. */
  home: string;
  /** The folder the command runs in, absolute, forward slashes; '' when a `cd` made it unknown. */
  cwd: string;
  /** Variables assigned earlier on the same line (`D=/; rm -rf $D`). */
  vars?: Record<string, string>;
  /** Set when the line runs in cmd.exe (Windows): the environment it expands `%VAR%` from. */
  cmd?: CmdEnv;
  /** The output folder, absolute, forward slashes (default: `zhi-output` in the folder). */
  output?: string;
  /** Every word and redirect target of the line's commands (is a script written on the same line?). */
  lineWords?: string[];
  /**
   * The folders of the Agent Skills in use (absolute, forward slashes): read-only inside the
   * sandbox, so a script bundled there is shown whole to the person instead of checked line by line.
   */
  skillFolders?: string[];
  /** The bundled scripts the line runs, collected for the approval (script-files.ts). */
  bundled?: BundledScript[];
}

/** A script of a skill's folder that a command runs: its path as written and its text. */
export interface BundledScript {
  file: string;
  path: string;
  /** Undefined when it cannot be read as text (binary, too large, gone). */
  text?: string;
}

export type TargetVerdict = 'critical' | 'computed' | 'ordinary';

const HOME_VARS = new Set(['HOME', 'USERPROFILE', 'HOMEPATH', 'ZDOTDIR']);
const SYSTEM_ROOTS = new Set([
  'bin',
  'boot',
  'dev',
  'etc',
  'lib',
  'lib32',
  'lib64',
  'libx32',
  'opt',
  'proc',
  'sbin',
  'sys',
  'usr',
  'var',
  'srv',
  'root',
  'home',
  'users',
  'mnt',
  'media',
  'volumes',
  'system',
  'library',
  'applications',
  'private',
  'snap',
  'nix',
]);
/** Folders inside the home folder that hold a person's documents or keys. */
const HOME_FOLDERS = new Set([
  'desktop',
  'documents',
  'downloads',
  'pictures',
  'music',
  'videos',
  'movies',
  'library',
  'onedrive',
  'dropbox',
  'icloud drive',
  '.ssh',
  '.gnupg',
  '.config',
  '桌面',
  '文档',
  '下载',
  '图片',
  '音乐',
  '视频',
]);
const WINDOWS_SYSTEM = new Set([
  'windows',
  'users',
  'program files',
  'program files (x86)',
  'programdata',
  'documents and settings',
]);
const GLOB = /[*?[{]/;

/** Classify a path argument of a destructive command. */
export function classifyTarget(word: string, ctx: PathContext): TargetVerdict {
  if (word.includes(`${VAR_START}${SUB_PREFIX}`)) return 'computed';
  if (ctx.cwd === '' && !isAbsoluteLike(word)) return 'computed';
  // `{~,x}`: brace expansion comes first, then `~` is the home folder.
  const candidates = braces(word).flatMap((w) => expansions(w, ctx));
  for (const candidate of candidates) {
    if (isCritical(candidate, ctx)) return 'critical';
  }
  // A variable whose value is a substitution or read from input (`for d in $(cat x)`, `read d`).
  if (candidates.some((c) => c.includes(`${VAR_START}${SUB_PREFIX}`))) return 'computed';
  return 'ordinary';
}

/** Bash brace expansion of comma lists (`{~,x}` → `~`, `x`; `/{home,etc}`), up to 64 words. */
function braces(word: string, depth = 0): string[] {
  const m = /\{([^{}]*,[^{}]*)\}/.exec(word);
  if (!m || depth > 4) return [word];
  const out = m[1]!
    .split(',')
    .flatMap((part) => braces(word.slice(0, m.index) + part + word.slice(m.index + m[0].length), depth + 1));
  return out.slice(0, 64);
}

function isAbsoluteLike(word: string): boolean {
  return /^([/\\~]|[a-zA-Z]:|%|\$env:|\$home)/i.test(word) || word.startsWith(VAR_START);
}

/** The folder a `cd <word>` moves to: absolute with forward slashes, or '' when unknown. */
export function changeDir(word: string | undefined, ctx: PathContext): string {
  if (word === undefined || word === '~') return ctx.home;
  if (word === '-' || word.includes(`${VAR_START}${SUB_PREFIX}`)) return '';
  const [value] = expansions(word, ctx);
  if (value === undefined || (word.includes(VAR_START) && value === '')) return '';
  let p = value.replace(/\\/g, '/');
  if (p.startsWith('~')) p = ctx.home + p.slice(1);
  if (/^[a-zA-Z]:/.test(p) || posix.isAbsolute(p)) return posix.normalize(p);
  if (ctx.cwd === '') return '';
  return posix.join(ctx.cwd, p);
}

/** The absolute paths (forward slashes) a word may name at run time; none while the folder is unknown. */
export function absolutePaths(word: string, ctx: PathContext): string[] {
  return expansions(word, ctx).flatMap((value) => {
    let p = value.replace(/\\/g, '/').trim();
    if (p === '') return [];
    if (p === '~' || p.startsWith('~/')) p = ctx.home + p.slice(1);
    if (posix.isAbsolute(p) || /^[a-zA-Z]:\//.test(p)) return [posix.normalize(p)];
    return ctx.cwd === '' ? [] : [posix.join(ctx.cwd, p)];
  });
}

/** Separates the values a variable may take (loop values, `"$@"` after `set --`). */
const ALTERNATIVES = '\u0000';

/**
 * The values a word may take at run time: unknown variables empty, or their `${X:-default}`;
 * a variable with several possible values (`for d in a ~`) gives one candidate per value.
 */
function expansions(word: string, ctx: PathContext, depth = 0): string[] {
  const re = new RegExp(`${VAR_START}([^${VAR_END}]*)${VAR_END}`, 'g');
  for (const m of word.matchAll(re)) {
    const name = /^([A-Za-z_][A-Za-z0-9_]*|[0-9@*])/.exec(m[1]!)?.[1] ?? m[1]!;
    const known = ctx.vars?.[name];
    if (known === undefined || !known.includes(ALTERNATIVES) || depth > 3) continue;
    const values = known.split(ALTERNATIVES).slice(0, 16);
    return [
      ...new Set(
        values.flatMap((v) => expansions(word, { ...ctx, vars: { ...ctx.vars, [name]: v } }, depth + 1)),
      ),
    ];
  }
  const value = (useDefault: boolean) =>
    word.replace(re, (_, name: string) => {
      const m = /^([A-Za-z_][A-Za-z0-9_]*|[0-9@*])(?::?[-=+?](.*))?$/.exec(name);
      const known = ctx.vars?.[m?.[1] ?? name];
      if (known !== undefined) return known;
      const base = (m?.[1] ?? name).toUpperCase();
      if (HOME_VARS.has(base)) return ctx.home;
      return useDefault ? (m?.[2] ?? '') : '';
    });
  const windowsVars = (s: string) =>
    s
      .replace(/\$env:(\w+)/gi, (_, n: string) => windowsVar(n, ctx))
      .replace(/%(\w+)%/g, (_, n: string) => windowsVar(n, ctx))
      .replace(/^\$home\b/i, ctx.home);
  return [...new Set([windowsVars(value(false)), windowsVars(value(true))])];
}

function windowsVar(name: string, ctx: PathContext): string {
  switch (name.toUpperCase()) {
    case 'USERPROFILE':
    case 'HOMEPATH':
    case 'HOME':
      return ctx.home;
    case 'SYSTEMROOT':
    case 'WINDIR':
      return 'C:/Windows';
    case 'SYSTEMDRIVE':
    case 'HOMEDRIVE':
      return 'C:';
    case 'PROGRAMFILES':
      return 'C:/Program Files';
    case 'PROGRAMDATA':
    case 'ALLUSERSPROFILE':
      return 'C:/ProgramData';
    default:
      return '';
  }
}

function isCritical(raw: string, ctx: PathContext): boolean {
  let p = raw.replace(/\\/g, '/').trim();
  if (p === '') return false;
  const drive = (s: string) => /^([a-zA-Z]):(.*)$/.exec(s);
  if (p === '~' || p.startsWith('~/')) p = ctx.home + p.slice(1);
  else if (/^~[^/]+/.test(p)) {
    // `~user`: someone's home folder.
    const rest = p.replace(/^~[^/]*/, '');
    p = `/home/user${rest}`;
    if (rest === '' || rest === '/' || GLOB.test(rest.split('/')[1] ?? '')) return true;
  }
  // `/proc/self/root/home/x` is `/home/x`; `/proc/self/cwd/x` is `x` in the current folder.
  p = p.replace(/^\/proc\/[^/]+\/root(?=\/|$)/, '') || '/';
  p = p.replace(/^\/proc\/[^/]+\/cwd(?=\/|$)/, ctx.cwd);
  const abs = posix.isAbsolute(p) || drive(p) ? p : posix.join(ctx.cwd, p);
  // Windows drive paths: `C:`, `C:/`, `C:/Windows`, `C:/Users/x`.
  const d = drive(abs);
  if (d) return isCriticalWindows(`/${d[2] ?? ''}`);
  return criticalAbsolute(abs, ctx);
}

function criticalAbsolute(abs: string, ctx: PathContext): boolean {
  const segments = abs.split('/').filter((s) => s !== '' && s !== '.');
  // A glob segment stands for everything in the folder before it.
  const globAt = segments.findIndex((s) => GLOB.test(s));
  const resolved: string[] = [];
  for (const s of globAt >= 0 ? segments.slice(0, globAt) : segments) {
    if (s === '..') resolved.pop();
    else resolved.push(s);
  }
  const dir = `/${resolved.join('/')}`;
  const home = posix.normalize(ctx.home).replace(/\/+$/, '') || '/';
  if (globAt >= 0) {
    // `/*`, `~/*`, `/usr/*`: every entry of a protected folder.
    return protectedFolder(dir, home) || resolved.length <= 1;
  }
  return protectedFolder(dir, home);
}

function protectedFolder(dir: string, home: string): boolean {
  const parts = dir.split('/').filter(Boolean);
  if (parts.length === 0) return true;
  const first = parts[0]!.toLowerCase();
  if (parts.length === 1) return first !== 'tmp';
  if (parts.length === 2 && SYSTEM_ROOTS.has(first)) return true;
  // The home folder, anything above it, and the well-known folders inside it.
  if (home === dir || home.startsWith(`${dir}/`)) return true;
  if (dir.startsWith(`${home}/`)) {
    const inside = dir.slice(home.length + 1).split('/');
    return inside.length === 1 && HOME_FOLDERS.has(longName(inside[0]!, HOME_FOLDERS).toLowerCase());
  }
  return false;
}

/**
 * An 8.3 short name (`PROGRA~1`, `DOCUME~1`) stands for a long name starting with its first
 * characters (spaces and dots left out): it is read as the protected name it may stand for.
 */
function longName(segment: string, names: Iterable<string>): string {
  const m = /^([^~]{1,6})~\d+(\.[^.]{0,3})?$/.exec(segment);
  if (!m) return segment;
  const prefix = m[1]!.toLowerCase();
  for (const name of names) if (name.replace(/[\s.]/g, '').toLowerCase().startsWith(prefix)) return name;
  return segment;
}

function isCriticalWindows(rest: string): boolean {
  const segments = rest.split('/').filter((s) => s !== '' && s !== '.');
  const globAt = segments.findIndex((s) => GLOB.test(s));
  const parts: string[] = [];
  for (const s of globAt >= 0 ? segments.slice(0, globAt) : segments) {
    if (s === '..') parts.pop();
    else parts.push(s.toLowerCase());
  }
  if (parts.length === 0) return true;
  if (globAt >= 0 && parts.length <= 1) return true;
  parts[0] = longName(parts[0]!, WINDOWS_SYSTEM);
  if (parts.length >= 3) parts[2] = longName(parts[2]!, HOME_FOLDERS);
  if (parts.length === 1) return WINDOWS_SYSTEM.has(parts[0]!);
  if (parts[0] === 'users' || parts[0] === 'documents and settings') {
    if (parts.length === 2) return true;
    return parts.length === 3 && HOME_FOLDERS.has(parts[2]!);
  }
  if (parts[0] === 'windows' && parts.length === 2) return true;
  return false;
}

/** Block devices and other device files that writing to would destroy a disk. */
export function isDiskDevice(word: string): boolean {
  const p = word.replace(/\\/g, '/');
  if (/^\/\/\.\/physicaldrive/i.test(p)) return true;
  if (!p.startsWith('/dev/')) return false;
  const name = p.slice(5);
  return !/^(null|zero|full|random|urandom|stdout|stderr|stdin|tty\w*|pts\/\d+|fd\/\d+|shm\/.*)$/.test(name);
}

const SYSTEM_FILES = new Set([
  'etc',
  'bin',
  'sbin',
  'usr',
  'boot',
  'lib',
  'lib32',
  'lib64',
  'system',
  'library',
]);

/** A file whose overwriting breaks the system (`> /etc/passwd`), or a protected folder. */
export function isSystemTarget(word: string, ctx: PathContext): boolean {
  return classifyTarget(word, ctx) === 'critical' || isSystemFile(word);
}

/** A path inside a system folder (`/etc/passwd`, `/usr/bin/ls`, `C:\\Windows\\…`). */
export function isSystemFile(word: string): boolean {
  const p = word.replace(/\\/g, '/');
  if (/^[a-z]:\/windows\//i.test(p)) return true;
  if (!posix.isAbsolute(p)) return false;
  const first = posix.normalize(p).split('/')[1]?.toLowerCase() ?? '';
  return SYSTEM_FILES.has(first);
}
