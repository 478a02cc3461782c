/**
 * Path safety for tools (design §3). Reads stay inside the current directory after resolving
 * symbolic links; writes go only under the output directory, with relative paths, no `..`
 * segments, and every existing parent checked after resolving links. Every refusal is a
 * ToolError whose message tells the model what to do instead.
 */
import { lstat, readdir, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { makeFolder } from '../support/make-folder.js';
import { nearest } from '../support/suggest.js';
import { checkPortable } from './files/names.js';
import { type NamedPaths, refuseOutOfScope } from './scope.js';
import { refuseSecretContent, refuseSecretPath, secretByPath, secretMessage } from './secrets.js';
import { ToolError } from './types.js';

export interface ResolvedPath {
  /** Absolute path after resolving symbolic links (reads) or the checked target (writes). */
  abs: string;
  /** The path as a person and the model should see it: relative to the current directory. */
  display: string;
}

/** True when `child` is `parent` or inside it (both absolute, normalised). */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** `a/b.md` relative to `cwd`, with forward slashes; the absolute path when it lies outside. */
export function displayPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  if (rel === '') return '.';
  if (rel.startsWith('..') || isAbsolute(rel)) return abs;
  return rel.split(sep).join('/');
}

function looksAbsolute(p: string): boolean {
  return isAbsolute(p) || /^[a-zA-Z]:[\\/]?/.test(p) || p.startsWith('\\\\') || p.startsWith('\\');
}

function checkCommon(input: string, what: 'read' | 'write'): string {
  const p = input.trim();
  if (!p) throw new ToolError('The path is empty. Give a file path relative to the current directory.');
  if (p.includes('\0'))
    throw new ToolError('The path contains a NUL character, which no file name can contain.');
  if (what === 'read') refuseNamedSecret(p);
  if (p === '~' || p.startsWith('~/') || p.startsWith('~\\')) {
    throw new ToolError(
      `"${p}" starts with "~", which is not expanded here. ${
        what === 'read'
          ? 'Give a path relative to the current directory instead; files outside it cannot be read.'
          : 'Give a path relative to the output folder instead.'
      }`,
    );
  }
  if (looksAbsolute(p)) {
    throw new ToolError(
      what === 'read'
        ? `Absolute paths are not allowed ("${p}"). Give a path relative to the current directory, for example "reports/q4.md"; files outside the current directory cannot be read.`
        : `Absolute paths are not allowed ("${p}"). Give a file name relative to the output folder, for example "summary.xlsx" or "2024/summary.xlsx".`,
    );
  }
  return p;
}

/**
 * A path outside the current folder that names a secret (`~/.ssh/id_rsa`, `/home/ann/.aws/x`,
 * `../../.ssh/id_rsa`) is refused as a secret, so the person is told so in their language and
 * the model learns not to try another way, rather than only "not expanded" or "outside".
 */
function refuseNamedSecret(p: string, abs?: string): void {
  const home = homedir();
  if (abs === undefined) {
    const expanded = p === '~' || /^~[\\/]/.test(p) ? join(home, p.slice(1)) : p;
    if (!looksAbsolute(expanded)) return;
    abs = resolve(expanded);
  }
  const kind = secretByPath(abs, { home });
  if (kind)
    throw new ToolError(secretMessage(p, kind), { key: `safety.secret.${kind}`, params: { path: p } });
}

async function realOrSelf(p: string): Promise<string> {
  try {
    return await realpath(p);
  } catch {
    return resolve(p);
  }
}

async function suggestion(dir: string, name: string): Promise<string> {
  try {
    const names = await readdir(dir);
    const near = nearest(name, names);
    return near ? ` Did you mean "${near}"?` : '';
  } catch {
    return '';
  }
}

export interface ReadPathOptions {
  /**
   * Read-only folders besides the current one (a loaded skill's own folder), tried in order when
   * the path does not exist in the current folder. The same rules hold inside them: relative
   * paths only, links resolved and kept inside, and the secrets deny-list.
   */
  extraRoots?: readonly string[];
  /**
   * The paths the person named (scope.ts): a hidden file, VCS internals or a state file is read
   * only when it is one of them. Without it, none is.
   */
  named?: Pick<NamedPaths, 'has'>;
}

/**
 * The one containment rule for every path the model gives (file_read, file_list, ocr, nested
 * skill inputs, attachments the model asks for): relative to `cwd` (or an extra read-only root),
 * inside it after resolving symbolic links, and not on the secrets deny-list (by name and place,
 * and for files by content: private keys, zhi's API key). Missing files get a "did you mean"
 * hint when a sibling name is close.
 */
export async function resolveReadPath(
  cwd: string,
  input: string,
  opts: ReadPathOptions = {},
): Promise<ResolvedPath> {
  const p = checkCommon(input, 'read');
  const roots = [cwd, ...(opts.extraRoots ?? [])];
  // A loaded skill's own folder (`.agents/skills/x/…` by its path from here) is open as a whole.
  const open = await Promise.all((opts.extraRoots ?? []).map(realOrSelf));
  const named = {
    has: (display: string, abs?: string) =>
      Boolean(opts.named?.has(display, abs)) || (abs !== undefined && open.some((r) => isInside(r, abs))),
  };
  let firstError: ToolError | undefined;
  for (const root of roots) {
    try {
      return await containedIn(root, p, cwd, named);
    } catch (err) {
      if (!(err instanceof MissingPath)) throw err;
      firstError ??= err.error;
    }
  }
  throw firstError!;
}

/** A path that does not exist under one root (the next root may have it). */
class MissingPath extends Error {
  constructor(readonly error: ToolError) {
    super(error.message);
  }
}

async function containedIn(
  rootDir: string,
  p: string,
  cwd: string,
  named: ReadPathOptions['named'],
): Promise<ResolvedPath> {
  const root = await realOrSelf(rootDir);
  const lexical = resolve(rootDir, p);
  if (!isInside(resolve(rootDir), lexical)) {
    refuseNamedSecret(p, lexical);
    throw new ToolError(
      `"${p}" points outside the current directory, and only files inside it can be read. Use a path without "..", or file_list to see what is here.`,
      { key: 'safety.outside', params: { path: p } },
    );
  }
  let real: string;
  try {
    real = await realpath(lexical);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      // A dangling symbolic link is reported as such, not as a missing file.
      const link = await lstat(lexical).catch(() => undefined);
      if (link?.isSymbolicLink()) {
        throw new MissingPath(new ToolError(`"${p}" is a symbolic link whose target does not exist.`));
      }
      const hint = await suggestion(dirname(lexical), lexical.slice(dirname(lexical).length + 1));
      throw new MissingPath(
        new ToolError(`File not found: "${p}".${hint} Use file_list to see the files that exist.`),
      );
    }
    if (code === 'EACCES' || code === 'EPERM')
      throw new ToolError(`Permission denied: "${p}" cannot be accessed.`);
    if (code === 'ELOOP') throw new ToolError(`"${p}" is a loop of symbolic links.`);
    throw new ToolError(`"${p}" cannot be accessed (${code ?? (err as Error).message}).`);
  }
  if (!isInside(root, real)) {
    throw new ToolError(
      `"${p}" is a symbolic link (or inside one) that leads outside the current directory; only files inside the current directory can be read.`,
      { key: 'safety.outside', params: { path: p } },
    );
  }
  const display = root === (await realOrSelf(cwd)) ? displayPath(root, real) : p.split(sep).join('/');
  // The secrets list first (its reason is the more precise one, and naming does not lift it).
  refuseSecretPath(lexical, real, display);
  refuseOutOfScope(root, real, resolve(rootDir), lexical, { display, typed: p, named });
  await refuseSecretContent(real, display);
  return { abs: real, display };
}

/** True when a path (absolute, links resolved) is on the secrets deny-list by name or place. */
export function isSecretPath(abs: string): boolean {
  return secretByPath(abs) !== undefined;
}

export interface WritePathOptions {
  /** The current directory, used to show paths and to accept "zhi-output/x.md" for "x.md". */
  cwd?: string;
  /** Create the output folder and missing parent folders (default true). */
  create?: boolean;
}

export interface WritePlan {
  /** The path segments inside the output folder. */
  parts: string[];
  /** Where the bytes go: the output folder joined with `parts` (not yet checked on disk). */
  target: string;
  /** That place as the person sees it: relative to the current folder, or absolute outside it. */
  display: string;
}

/**
 * The one rule for where a file the model names is written, and how that place is shown. The
 * approval preview and the write both use it, so the question shows exactly where the bytes go.
 * Pure (no file system): relative paths only, no `..`, portable names. A path that repeats the
 * output folder as seen from the current folder ("zhi-output/report.md", or "docs/out/a.md"
 * with `--output-dir docs/out`) means the same file, not a nested copy of the folder.
 */
export function planWritePath(outputDir: string, input: string, cwd?: string): WritePlan {
  const p = checkCommon(input, 'write');
  const segments = p.split(/[\\/]+/);
  if (segments.includes('..')) {
    throw new ToolError(
      `"${p}" contains "..": files can only be written inside the output folder. Give a plain relative name such as "summary.xlsx".`,
    );
  }
  if (/[\\/]$/.test(p)) {
    throw new ToolError(`"${input}" is a folder, not a file name. Give a file name such as "summary.md".`);
  }
  const out = resolve(outputDir);
  let parts = segments.filter((s) => s !== '.' && s !== '');
  const here = cwd ? resolve(cwd) : undefined;
  if (here && isInside(here, out) && out !== here) {
    const prefix = relative(here, out).split(sep);
    const same = (a: string, b: string) =>
      a === b || (process.platform === 'win32' && a.toLowerCase() === b.toLowerCase());
    if (parts.length > prefix.length && prefix.every((seg, i) => same(seg, parts[i]!)))
      parts = parts.slice(prefix.length);
  }
  if (!parts.length) {
    throw new ToolError(`"${input}" is a folder, not a file name. Give a file name such as "summary.md".`);
  }
  checkPortable(parts, p);
  const target = join(out, ...parts);
  return { parts, target, display: displayPath(here ?? out, target) };
}

/**
 * Resolve where a new file may be written (planWritePath), then check the disk: the output
 * folder is a real folder (not a symbolic link), and every existing ancestor, after resolving
 * links, is inside it. Creates the output folder and missing parents on demand (never through a
 * link that leaves it). The target itself may exist; the caller decides what to do then (it is
 * never replaced silently). `abs` is the target under the output folder's real path.
 */
export async function resolveWritePath(
  outputDir: string,
  input: string,
  opts: WritePathOptions = {},
): Promise<ResolvedPath> {
  const plan = planWritePath(outputDir, input, opts.cwd);
  const { parts } = plan;
  const p = parts.join('/');
  const out = resolve(outputDir);
  await refuseLinkedOutput(out, opts.cwd);
  if (opts.create !== false) {
    try {
      await makeFolder(out);
    } catch (err) {
      throw new ToolError(`The output folder ${out} cannot be created (${describeFsError(err)}).`);
    }
    // Created between the check and mkdir? Check again now that it exists.
    await refuseLinkedOutput(out, opts.cwd);
  }
  const root = await realOrSelf(out);

  // Walk down from the output folder: each existing component must stay inside it once links
  // are resolved; the first missing one starts the part we create ourselves.
  let current = out;
  for (let i = 0; i < parts.length - 1; i++) {
    current = join(current, parts[i]!);
    const st = await lstat(current).catch(() => undefined);
    if (!st) {
      if (opts.create === false) break;
      try {
        await makeFolder(join(out, ...parts.slice(0, parts.length - 1)));
      } catch (err) {
        throw new ToolError(`The folder for "${p}" cannot be created (${describeFsError(err)}).`);
      }
      break;
    }
    const real = await realOrSelf(current);
    if (!isInside(root, real)) {
      throw new ToolError(
        `"${p}" goes through a symbolic link that leads outside the output folder; files can only be written inside it. Choose another folder name.`,
      );
    }
    if (!(await lstat(real)).isDirectory()) {
      throw new ToolError(
        `"${parts.slice(0, i + 1).join('/')}" in the output folder is a file, not a folder. Choose another path.`,
      );
    }
  }
  const existing = await lstat(plan.target).catch(() => undefined);
  if (existing?.isSymbolicLink()) {
    throw new ToolError(
      `"${p}" already exists as a symbolic link, which is never written through. Choose another file name.`,
    );
  }
  if (existing?.isDirectory()) {
    throw new ToolError(`"${p}" is an existing folder in the output folder. Choose a file name.`);
  }
  const parentReal = await realOrSelf(dirname(plan.target));
  const abs = join(parentReal, parts[parts.length - 1]!);
  if (!isInside(root, abs)) {
    throw new ToolError(`"${p}" resolves outside the output folder; files can only be written inside it.`);
  }
  return { abs, display: plan.display };
}

/**
 * The output folder must be a real folder: a `zhi-output` that is a symbolic link to somewhere
 * else would send every file there. Inside the current folder, the folders leading to it are
 * checked too (`docs` in `docs/out`).
 */
async function refuseLinkedOutput(out: string, cwd: string | undefined): Promise<void> {
  const here = cwd ? resolve(cwd) : undefined;
  const chain = [out];
  if (here && isInside(here, out)) {
    for (let dir = dirname(out); dir !== here && isInside(here, dir); dir = dirname(dir)) chain.push(dir);
  }
  for (const dir of chain) {
    const st = await lstat(dir).catch(() => undefined);
    if (st?.isSymbolicLink()) {
      const shown = here ? displayPath(here, dir) : dir;
      const to = await realpath(dir).catch(() => '?');
      throw new ToolError(
        `The output folder "${shown}" is a symbolic link (to ${to}); zhi writes only into a real folder. Ask the user to choose a real folder with --output-dir.`,
        { key: 'safety.outputLink', params: { path: shown, target: to } },
      );
    }
  }
}

/** A short, readable reason for a file-system error code. */
export function describeFsError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  switch (e?.code) {
    case 'ENOSPC':
      return 'the disk is full';
    case 'EDQUOT':
      return 'the disk quota is exhausted';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENAMETOOLONG':
      return 'the file name is too long';
    case 'EISDIR':
      return 'it is a folder';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a folder';
    case 'EMFILE':
    case 'ENFILE':
      return 'too many open files';
    case 'EIO':
      return 'an input/output error from the disk';
    default:
      return e?.code ? `${e.code}: ${e.message}` : String(e?.message ?? err);
  }
}
