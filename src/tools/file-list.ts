import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { formatBytes } from '../support/text.js';
import { displayPath, isInside, isSecretPath, resolveReadPath } from './paths.js';
import { type Tool, ToolError } from './types.js';
import { textWidth } from './writers/width.js';
import { maxOf } from '../support/arrays.js';

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

const fileList: Tool<typeof schema> = {
  name: 'file_list',
  description: [
    'List files and folders, max_depth levels deep.',
    'Each line: [f] file, [d] folder or [l] link, relative path, size, time (UTC).',
    `At most ${MAX_ENTRIES} entries; .git and node_modules are not opened.`,
  ].join(' '),
  schema,
  kind: 'read',
  label: (args) => args.path || '.',
  async execute(args, ctx) {
    const start = await resolveReadPath(ctx.cwd, args.path || '.');
    const st = await stat(start.abs);
    if (!st.isDirectory()) {
      throw new ToolError(
        `"${start.display}" is a file, not a folder. Use file_read to read it, or list its folder.`,
      );
    }
    const root = await realpath(ctx.cwd).catch(() => ctx.cwd);
    const entries: Entry[] = [];
    const state = { seen: 0, dirs: 0, files: 0, stopped: false };
    await walk(start.abs, 1);

    async function walk(dir: string, depth: number): Promise<void> {
      if (state.stopped || ctx.signal.aborted) return;
      let items: Dirent[];
      try {
        items = await readdir(dir, { withFileTypes: true });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (entries.length && entries[entries.length - 1])
          entries[entries.length - 1]!.note = `(cannot be opened: ${code})`;
        if (!entries.length) throw new ToolError(`"${start.display}" cannot be listed (${code}).`);
        return;
      }
      items = items.filter((d) => !(SKIPPED_FILES.test(d.name) && !d.isDirectory()));
      items.sort((a, b) =>
        a.name.localeCompare(b.name, 'zh-Hans-CN', { numeric: true, sensitivity: 'base' }),
      );
      const infos = await Promise.all(items.map((d) => describe(join(dir, d.name), d)));
      for (let i = 0; i < items.length; i++) {
        if (state.seen >= MAX_SCAN) {
          state.stopped = true;
          return;
        }
        const info = infos[i];
        if (!info) continue;
        state.seen += 1;
        if (info.dir) state.dirs += 1;
        else state.files += 1;
        entries.push(info.entry);
        if (info.descend && depth < args.max_depth) await walk(info.abs, depth + 1);
      }
    }

    async function describe(
      abs: string,
      d: Dirent,
    ): Promise<{ entry: Entry; dir: boolean; descend: boolean; abs: string } | undefined> {
      let ls: Stats;
      try {
        ls = await lstat(abs);
      } catch {
        return undefined;
      }
      const rel = displayPath(root, abs);
      if (ls.isSymbolicLink()) {
        const target = await realpath(abs).catch(() => undefined);
        if (!target || !isInside(root, target)) {
          return {
            entry: {
              rel,
              dir: false,
              link: true,
              size: 0,
              mtime: ls.mtime,
              note: target ? '-> outside the current directory (not followed)' : '-> missing target',
            },
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

    const where = start.display === '.' ? 'the current directory' : `${start.display}/`;
    if (!entries.length) return `${where} is empty.`;
    const shown = entries.slice(0, MAX_ENTRIES);
    const names = shown.map((e) => `${e.rel}${e.dir ? '/' : ''}`);
    const col = Math.min(60, maxOf(names.map((n) => textWidth(n))));
    const lines = shown.map((e, i) => {
      const name = names[i]!;
      const pad = ' '.repeat(Math.max(1, col - textWidth(name) + 2));
      const size = (e.dir || e.link ? '-' : formatBytes(e.size)).padStart(9);
      return `[${e.dir ? 'd' : e.link ? 'l' : 'f'}] ${name}${pad}${size}  ${formatDate(e.mtime)}${e.note ? `  ${e.note}` : ''}`;
    });
    const total = `${state.dirs} folder${state.dirs === 1 ? '' : 's'}, ${state.files} file${state.files === 1 ? '' : 's'}`;
    const head = `Contents of ${where} (max_depth ${args.max_depth}; ${total}${state.stopped ? ' or more' : ''}):`;
    if (entries.length > MAX_ENTRIES || state.stopped) {
      const hidden = Math.max(0, entries.length - MAX_ENTRIES);
      lines.push(
        `[… ${hidden}${state.stopped ? '+' : ''} more entries not shown: list a subfolder or use a smaller max_depth]`,
      );
    }
    return `${head}\n${lines.join('\n')}`;
  },
};

export default fileList;
