import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { maxOf } from '../../support/arrays.js';
import { formatBytes } from '../../support/text.js';
import { textWidth } from '../../support/width.js';
import { displayPath, isInside, isSecretPath, resolveReadPath } from '../paths.js';
import { scopeOfName } from '../scope.js';
import { type Tool, ToolError } from '../types.js';
import { FILE_LIST_TOOL } from './entries.js';

/** Folders whose contents are noise for a document worker: shown, never descended into. */
export const SKIPPED_DIRS = new Set([
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  '__pycache__',
  '.venv',
  'venv',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.next',
  '.nuxt',
  '.cache',
  '.parcel-cache',
  '.gradle',
  '.idea',
  '$RECYCLE.BIN',
  'System Volume Information',
  '.Trash',
  '.Trashes',
  '.Spotlight-V100',
  '.fseventsd',
]);
/** Files that are never worth showing: OS litter and Office lock files (`~$report.docx`). */
const SKIPPED_FILES = /^(\.DS_Store|Thumbs\.db|desktop\.ini|~\$.*|\.~lock\..*#)$/i;

export const MAX_ENTRIES = 500;
const SECRET_NOTE = '(private: holds secrets, no tool reads it)';
/** Stop walking after this many entries, so a huge tree never stalls the tool. */
const MAX_SCAN = 20_000;

const schema = z.object({
  path: z.string().default('.').describe('Relative folder.'),
  max_depth: z.coerce.number().int().min(1).max(10).default(2).describe('Levels deep.'),
});

interface Entry {
  rel: string;
  dir: boolean;
  /** A symbolic link that is not followed (it leads outside, or nowhere). */
  link?: boolean;
  size: number;
  mtime: Date;
  note?: string;
}

export function formatDate(d: Date): string {
  return d.toISOString().slice(0, 16).replace('T', ' ');
}

/** What one folder entry adds to the listing, and whether the walk goes into it. */
interface Described {
  entry: Entry;
  dir: boolean;
  descend: boolean;
  abs: string;
}

/** The walk so far: the entries in order, the counts, and whether it stopped at MAX_SCAN. */
interface Walk {
  root: string;
  maxDepth: number;
  signal: AbortSignal;
  /** The folder asked for, as shown to the model. */
  display: string;
  entries: Entry[];
  seen: number;
  dirs: number;
  files: number;
  /** Entries out of scope (hidden, VCS internals, state files: tools/scope.ts), not shown. */
  hidden: number;
  stopped: boolean;
}

const fileList: Tool<typeof schema> = {
  name: FILE_LIST_TOOL.name,
  traits: FILE_LIST_TOOL.traits,
  description: [
    'List files and folders here: [f] file, [d] folder, [l] link; relative path, size, time (UTC).',
    `At most ${MAX_ENTRIES} entries.`,
  ].join(' '),
  schema,
  kind: 'read',
  label: (args) => args.path || '.',
  async execute(args, ctx) {
    const start = await resolveReadPath(ctx.cwd, args.path || '.', ctx.named ? { named: ctx.named } : {});
    const st = await stat(start.abs);
    if (!st.isDirectory()) {
      throw new ToolError(
        `"${start.display}" is a file, not a folder. Use file_read to read it, or list its folder.`,
      );
    }
    const walk: Walk = {
      root: await realpath(ctx.cwd).catch(() => ctx.cwd),
      maxDepth: args.max_depth,
      signal: ctx.signal,
      display: start.display,
      entries: [],
      seen: 0,
      dirs: 0,
      files: 0,
      hidden: 0,
      stopped: false,
    };
    await walkFolder(walk, start.abs, 1);
    return formatListing(walk);
  },
};

/** Walks one folder in name order (Chinese names by pinyin), depth first, up to MAX_SCAN entries. */
async function walkFolder(walk: Walk, dir: string, depth: number): Promise<void> {
  if (walk.stopped || walk.signal.aborted) return;
  const { entries } = walk;
  let items: Dirent[];
  try {
    items = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (entries.length && entries[entries.length - 1])
      entries[entries.length - 1]!.note = `(cannot be opened: ${code})`;
    if (!entries.length) throw new ToolError(`"${walk.display}" cannot be listed (${code}).`);
    return;
  }
  items = items.filter((d) => !(SKIPPED_FILES.test(d.name) && !d.isDirectory()));
  // Out of scope at any depth, however many entries came before: counted, never shown.
  const inScope = items.filter((d) => !scopeOfName(d.name));
  walk.hidden += items.length - inScope.length;
  items = inScope;
  items.sort((a, b) => a.name.localeCompare(b.name, 'zh-Hans-CN', { numeric: true, sensitivity: 'base' }));
  const infos = await Promise.all(items.map((d) => describe(walk.root, join(dir, d.name), d)));
  for (let i = 0; i < items.length; i++) {
    if (walk.seen >= MAX_SCAN) {
      walk.stopped = true;
      return;
    }
    const info = infos[i];
    if (!info) continue;
    walk.seen += 1;
    if (info.dir) walk.dirs += 1;
    else walk.files += 1;
    entries.push(info.entry);
    if (info.descend && depth < walk.maxDepth) await walkFolder(walk, info.abs, depth + 1);
  }
}

/** One entry; undefined when it vanished while the folder was read. */
async function describe(root: string, abs: string, d: Dirent): Promise<Described | undefined> {
  let ls: Stats;
  try {
    ls = await lstat(abs);
  } catch {
    return undefined;
  }
  const rel = displayPath(root, abs);
  if (ls.isSymbolicLink()) return describeLink(root, abs, rel, ls);
  const dir = ls.isDirectory();
  // Secrets (credentials folders, .env files, zhi's own folders) are listed but never opened.
  const secret = isSecretPath(abs);
  const skipped = dir && (SKIPPED_DIRS.has(d.name) || secret);
  const note = secret ? SECRET_NOTE : skipped ? '(not opened)' : undefined;
  return {
    entry: { rel, dir, size: ls.size, mtime: ls.mtime, ...(note ? { note } : {}) },
    dir,
    descend: dir && !skipped,
    abs,
  };
}

/** A link is shown with where it leads, and never followed (inside or out). */
async function describeLink(root: string, abs: string, rel: string, ls: Stats): Promise<Described> {
  const target = await realpath(abs).catch(() => undefined);
  if (!target || !isInside(root, target)) {
    const note = target ? '-> outside the current directory (not followed)' : '-> missing target';
    return {
      entry: { rel, dir: false, link: true, size: 0, mtime: ls.mtime, note },
      dir: false,
      descend: false,
      abs,
    };
  }
  const ts = await stat(target);
  const into = displayPath(root, target);
  return {
    entry: {
      rel,
      dir: ts.isDirectory(),
      size: ts.size,
      mtime: ts.mtime,
      note: `-> ${into}${ts.isDirectory() ? '/ (link, not opened)' : ''}`,
    },
    dir: ts.isDirectory(),
    descend: false,
    abs,
  };
}

/** The text the model gets: a heading with the counts, one aligned line per entry, a cut note. */
function formatListing(walk: Walk): string {
  const { entries } = walk;
  const where = walk.display === '.' ? 'the current directory' : `${walk.display}/`;
  if (!entries.length)
    return walk.hidden
      ? `${where} holds only ${walk.hidden} hidden entr${walk.hidden === 1 ? 'y' : 'ies'} (not shown: read only when the user names them).`
      : `${where} is empty.`;
  const shown = entries.slice(0, MAX_ENTRIES);
  const names = shown.map((e) => `${e.rel}${e.dir ? '/' : ''}`);
  const col = Math.min(60, maxOf(names.map((n) => textWidth(n))));
  const lines = shown.map((e, i) => {
    const name = names[i]!;
    const pad = ' '.repeat(Math.max(1, col - textWidth(name) + 2));
    const size = (e.dir || e.link ? '-' : formatBytes(e.size)).padStart(9);
    return `[${e.dir ? 'd' : e.link ? 'l' : 'f'}] ${name}${pad}${size}  ${formatDate(e.mtime)}${e.note ? `  ${e.note}` : ''}`;
  });
  const total = `${walk.dirs} folder${walk.dirs === 1 ? '' : 's'}, ${walk.files} file${walk.files === 1 ? '' : 's'}`;
  const head = `Contents of ${where} (max_depth ${walk.maxDepth}; ${total}${walk.stopped ? ' or more' : ''}):`;
  if (walk.hidden)
    lines.push(
      `[${walk.hidden} hidden entr${walk.hidden === 1 ? 'y' : 'ies'} not shown: hidden files, version-control internals and state files are read only when the user names them]`,
    );
  if (entries.length > MAX_ENTRIES || walk.stopped) {
    const hidden = Math.max(0, entries.length - MAX_ENTRIES);
    lines.push(
      `[… ${hidden}${walk.stopped ? '+' : ''} more entries not shown: list a subfolder or use a smaller max_depth]`,
    );
  }
  return `${head}\n${lines.join('\n')}`;
}

export default fileList;
