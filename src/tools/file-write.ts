import { randomBytes } from 'node:crypto';
import { type FileHandle, lstat, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, extname, join, relative } from 'node:path';
import { z } from 'zod';
import { t } from '../support/i18n/index.js';
import { formatBytes } from '../support/text.js';
import { describeFsError, resolveWritePath } from './paths.js';
import { type Tool, type ToolContext, ToolError } from './types.js';
import {
  encodeContent,
  formatOf,
  type OutputFormat,
  previewLines,
  SHAPES,
  SUPPORTED_EXTENSIONS,
} from './writers/index.js';

const schema = z.object({
  path: z
    .string()
    .describe(
      'File name relative to the output folder, with its extension, e.g. "summary.xlsx" or "2024/report.docx".',
    ),
  content: z
    .union([z.string(), z.looseObject({}), z.array(z.unknown())])
    .describe(
      'The file content, shaped for the extension (see the tool description). Structured content may be given as a JSON object or as a JSON string.',
    ),
});
type Args = z.infer<typeof schema>;

/** The file-system calls a write needs; a seam so tests can make a write fail (disk full). */
export interface WriteIo {
  open(path: string, flags: string, mode?: number): Promise<FileHandle>;
}
const nodeIo: WriteIo = { open };

/**
 * Create `abs` with `data`, exclusively: an existing file (or link) is never touched. A failed
 * write removes the partial file this call created. Resolves false when the file exists.
 */
export async function createExclusive(abs: string, data: Buffer, io: WriteIo = nodeIo): Promise<boolean> {
  let handle: FileHandle;
  try {
    handle = await io.open(abs, 'wx', 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
  } catch (err) {
    await handle.close().catch(() => {});
    await rm(abs, { force: true }).catch(() => {});
    throw err;
  }
  return true;
}

/** Replace `abs` (after a person said yes): write a temporary file beside it, then rename over. */
export async function replaceAtomically(abs: string, data: Buffer, io: WriteIo = nodeIo): Promise<void> {
  const tmp = join(dirname(abs), `.${basename(abs)}.${randomBytes(4).toString('hex')}.zhi-tmp`);
  if (!(await createExclusive(tmp, data, io)))
    throw Object.assign(new Error('temporary file exists'), { code: 'EEXIST' });
  try {
    await rename(tmp, abs);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => {});
    throw err;
  }
}

/** "report.xlsx" → "report-2.xlsx", the first name that does not exist yet. */
async function freeName(abs: string, display: string): Promise<string> {
  const ext = extname(abs);
  const stem = abs.slice(0, abs.length - ext.length);
  const shownStem = display.slice(0, display.length - ext.length);
  for (let n = 2; n < 100; n++) {
    const exists = await lstat(`${stem}-${n}${ext}`).then(
      () => true,
      () => false,
    );
    if (!exists) return `${shownStem}-${n}${ext}`;
  }
  return `${shownStem}-new${ext}`;
}

function writeError(err: unknown, display: string): ToolError {
  const code = (err as NodeJS.ErrnoException).code;
  const reason = describeFsError(err);
  const advice =
    code === 'ENOSPC' || code === 'EDQUOT'
      ? ' Nothing was written. Tell the user to free some disk space, then try again.'
      : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
        ? ' Nothing was written. Tell the user the output folder is not writable (they can choose another with --output-dir).'
        : ' Nothing was written.';
  return new ToolError(`Could not write ${display}: ${reason}.${advice}`);
}

function contentBytes(content: unknown): number {
  return Buffer.byteLength(typeof content === 'string' ? content : (JSON.stringify(content) ?? ''), 'utf8');
}

const PREVIEW_LINES = 8;

const fileWrite: Tool<typeof schema> = {
  name: 'file_write',
  description: [
    "Create a new file in the output folder (relative path only; folders are created as needed). An existing file is never replaced without the user's explicit confirmation, so prefer a new name.",
    'The format follows the extension, and `content` must be shaped for it:',
    `.md / .txt: ${SHAPES.md.replace('a string: the Markdown text of the file', 'a string with the text')}.`,
    `.json: ${SHAPES.json}, written pretty-printed.`,
    `.csv: ${SHAPES.csv}; written as UTF-8 with BOM so Excel opens Chinese correctly.`,
    `.xlsx: ${SHAPES.xlsx}. The header row is bold; numbers should be JSON numbers — numeric text like "1,234.50", "12.5%" or "¥1,200" is also stored as a number, and "2024-03-15" as a date, but text with leading zeros or long digit strings (IDs, phone numbers) stays text.`,
    `.docx: ${SHAPES.docx}. Headings, paragraphs, bold/italic, bullet and numbered lists, tables and code blocks become Word formatting.`,
    'Returns the path and size of the file written.',
  ].join('\n'),
  schema,
  kind: 'risky',
  label: (args: Args) => args.path,
  preview(args: Args, ctx?: ToolContext): string {
    const format = formatOf(args.path);
    const head = t('files.preview.head', {
      path: ctx ? shownPath(args.path, ctx) : args.path,
      format: format ? t(`files.format.${format}`) : extname(args.path) || '?',
      size: formatBytes(contentBytes(args.content)),
    });
    if (!format) return head;
    const all = previewLines(format, args.content, 200);
    const shown = all.slice(0, PREVIEW_LINES).map((l) => (l.length > 120 ? `${l.slice(0, 119)}…` : l));
    const more =
      all.length > PREVIEW_LINES ? [t('files.preview.more', { n: all.length - PREVIEW_LINES })] : [];
    return [head, ...shown.map((l) => `  ${l}`), ...more.map((l) => `  ${l}`)].join('\n');
  },
  async execute(args: Args, ctx) {
    const format = formatOf(args.path);
    if (!format) {
      const ext = extname(args.path);
      throw new ToolError(
        `${ext ? `Cannot write ${ext} files.` : `"${args.path}" has no extension.`} The file name must end in one of ${SUPPORTED_EXTENSIONS.join(', ')}${
          ext.toLowerCase() === '.pdf' || ext.toLowerCase() === '.doc'
            ? ' (for a printable document, write .docx)'
            : ''
        }${ext.toLowerCase() === '.xls' ? ' (write .xlsx)' : ''}.`,
      );
    }
    const target = await resolveWritePath(ctx.outputDir, args.path, { cwd: ctx.cwd });
    const encoded = await encodeContent(format, args.content);
    const io = (ctx.services.writeIo as WriteIo | undefined) ?? nodeIo;
    let replaced = false;
    try {
      if (!(await createExclusive(target.abs, encoded.data, io))) {
        const existing = await lstat(target.abs);
        if (!existing.isFile())
          throw new ToolError(
            `${target.display} already exists and is not a regular file. Choose another name.`,
          );
        const suggestion = await freeName(target.abs, target.display);
        if (!ctx.interactive) {
          throw new ToolError(
            `${target.display} already exists, and replacing it needs a person's confirmation, which is not possible here (no terminal). Nothing was written. Write to a new name instead, for example "${suggestion}".`,
          );
        }
        const yes = await ctx.ask({
          message: t('files.overwrite.question', {
            path: target.display,
            format: t(`files.format.${format}`),
          }),
          detail: t('files.overwrite.detail', {
            size: formatBytes(existing.size),
            date: existing.mtime.toISOString().slice(0, 16).replace('T', ' '),
          }),
          danger: true,
        });
        if (!yes) {
          throw new ToolError(
            `The user chose to keep the existing ${target.display}; nothing was written. Write to a new name instead, for example "${suggestion}", or ask the user.`,
          );
        }
        await replaceAtomically(target.abs, encoded.data, io);
        replaced = true;
      }
    } catch (err) {
      if (err instanceof ToolError) throw err;
      throw writeError(err, target.display);
    }
    ctx.recordFile({ path: target.abs, bytes: encoded.data.length });
    const notes = encoded.notes.length ? ` Note: ${encoded.notes.join('; ')}.` : '';
    return `${replaced ? 'Replaced' : 'Wrote'} ${target.display} (${formatBytes(encoded.data.length)}; ${describe(format)}: ${encoded.summary}).${notes}`;
  },
};

function describe(format: OutputFormat): string {
  return { md: 'Markdown', txt: 'text', json: 'JSON', csv: 'CSV', xlsx: 'Excel', docx: 'Word' }[format];
}

export default fileWrite;

/** The path as the person will find it: under the output folder, relative to where they are. */
function shownPath(path: string, ctx: ToolContext): string {
  const out = relative(ctx.cwd, ctx.outputDir) || '.';
  const inner = path.replace(/^\.?[\\/]+/, '');
  const prefix = `${basename(ctx.outputDir)}/`;
  const rest = inner.startsWith(prefix) ? inner.slice(prefix.length) : inner;
  return out.startsWith('..') ? join(ctx.outputDir, rest) : join(out, rest);
}
