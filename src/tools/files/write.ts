import { createHash } from 'node:crypto';
import { lstat, readFile, stat } from 'node:fs/promises';
import { dirname, extname } from 'node:path';
import { z } from 'zod';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import { formatBytes } from '../../support/text.js';
import {
  describeFsError,
  planWritePath,
  type ResolvedPath,
  resolveReadPath,
  resolveWritePath,
} from '../paths.js';
import { type Tool, type ToolContext, ToolError } from '../types.js';
import {
  createNew,
  type FileData,
  FolderChanged,
  folderId,
  nodeIo,
  replaceExisting,
  type WriteIo,
} from './atomic-write.js';
import { FILE_WRITE_TOOL } from './entries.js';
import { checkLookAlike } from './lookalike.js';
import { checkPortable } from './names.js';
import { StreamedText } from './streamed-text.js';
import {
  encodeContent,
  formatOf,
  type OutputFormat,
  previewLines,
  SUPPORTED_EXTENSIONS,
  shapesInBrief,
  WRITE_FORMATS,
} from './writers/index.js';

const schema = z.object({
  path: z.string().describe('Name with extension.'),
  content: z
    .union([z.string(), z.looseObject({}), z.array(z.unknown())])
    .describe('Shaped for the extension.'),
});
type Args = z.infer<typeof schema>;

export type { WriteIo } from './atomic-write.js';

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

function writeError(err: unknown, display: string, replacing: boolean): ToolError {
  if (err instanceof FolderChanged) {
    return new ToolError(
      `Could not write ${display}: its folder changed while the file was being written (it was moved, or replaced by a link). Nothing was written. Tell the user, and try again only if they ask.`,
      { key: 'safety.write.changed', params: { path: display } },
    );
  }
  const code = (err as NodeJS.ErrnoException).code;
  // Windows refuses to replace a file another program holds open (Excel, Word, WPS).
  if (replacing && (code === 'EBUSY' || code === 'EPERM')) {
    return new ToolError(
      `Could not replace ${display}: it is open in another program (Excel, Word or WPS keep the files they show locked). Nothing was written. Tell the user to close it in that program and try again, or write to a new name.`,
      { key: 'safety.write.busy', params: { path: display } },
    );
  }
  const reason = describeFsError(err);
  const advice =
    code === 'ENOSPC' || code === 'EDQUOT'
      ? ' Nothing was written. Tell the user to free some disk space, then try again.'
      : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
        ? ' Nothing was written. Tell the user the output folder is not writable (they can choose another with --output-dir).'
        : code === 'EBUSY'
          ? ' Nothing was written. Another program is using the folder or file; tell the user to close it and try again.'
          : ' Nothing was written.';
  return new ToolError(`Could not write ${display}: ${reason}.${advice}`);
}

function contentBytes(content: unknown): number {
  return Buffer.byteLength(typeof content === 'string' ? content : (JSON.stringify(content) ?? ''), 'utf8');
}

const PREVIEW_LINES = 8;

const fileWrite: Tool<typeof schema> = {
  name: FILE_WRITE_TOOL.name,
  traits: FILE_WRITE_TOOL.traits,
  description: `Create a file in the output folder (replacing one needs the user). The extension sets content:\n${shapesInBrief()}.`,
  schema,
  kind: 'risky',
  label: (args: Args) => args.path,
  // A name no system can store is refused before anyone is asked about it.
  assess(args: Args, ctx: ToolContext) {
    planWritePath(ctx.outputDir, args.path, ctx.cwd);
    return {};
  },
  preview(args: Args, ctx?: ToolContext): string {
    const format = formatOf(args.path);
    const head = t('files.preview.head', {
      path: ctx ? shownPath(args.path, ctx) : args.path,
      format: format ? t(WRITE_FORMATS[format].label) : extname(args.path) || '?',
      size: formatBytes(contentBytes(args.content)),
    });
    if (!format) return head;
    const all = previewLines(format, args.content, 200);
    while (all.length && !all[all.length - 1]!.trim()) all.pop();
    // "1 more line" would take the line it hides: a fold hides two or more.
    const fold = all.length > PREVIEW_LINES + 1;
    const shown = (fold ? all.slice(0, PREVIEW_LINES) : all).map((l) =>
      l.length > 120 ? `${l.slice(0, 119)}…` : l,
    );
    const more = fold ? [t('files.preview.more', { n: all.length - PREVIEW_LINES })] : [];
    return [head, ...shown.map((l) => `  ${l}`), ...more.map((l) => `  ${l}`)].join('\n');
  },
  execute: (args: Args, ctx) => writeThrough(nodeIo, args, ctx),
};

/** file_write, writing through `io` (the real file system; a test passes a full disk). */
export function createFileWriteTool(io: WriteIo = nodeIo): Tool<typeof schema> {
  return { ...fileWrite, execute: (args: Args, ctx) => writeThrough(io, args, ctx) };
}

const writeThrough = async (io: WriteIo, args: Args, ctx: ToolContext): Promise<string> => {
  {
    // `notes.md ` is a name Windows would change, not a file type zhi cannot write: say that.
    if (/[. ]$/.test(args.path)) checkPortable(args.path.split(/[\\/]/).filter(Boolean), args.path);
    const format = formatOf(args.path);
    if (!format) {
      const ext = extname(args.path);
      throw new ToolError(
        `${ext ? `Cannot write ${ext} files.` : `"${args.path}" has no extension.`} The file name must end in one of ${SUPPORTED_EXTENSIONS.join(', ')}${
          ext.toLowerCase() === '.pdf' || ext.toLowerCase() === '.doc'
            ? ' (for a printable document, write .docx)'
            : ''
        }${ext.toLowerCase() === '.xls' ? ' (write .xlsx)' : ''}${ext.toLowerCase() === '.ppt' ? ' (write .pptx)' : ''}.`,
      );
    }
    const target = await resolveWritePath(ctx.outputDir, args.path, { cwd: ctx.cwd });
    await checkLookAlike(target.abs, target.display);
    const encoded = await bodyOf(format, args.content, ctx);
    let replaced = false;
    await ctx.beforeWrite?.({ abs: target.abs, sha256: encoded.sha256, bytes: encoded.bytes });
    try {
      const folder = await folderId(dirname(target.abs));
      if (!(await createNew(target.abs, encoded.data, folder, io))) {
        await confirmOverwrite(target, format, ctx);
        // The question may have been open for minutes: check the path and the file again.
        const again = await resolveWritePath(ctx.outputDir, args.path, { cwd: ctx.cwd, create: false });
        const now = await lstat(again.abs).catch(() => undefined);
        if (again.abs !== target.abs || !now?.isFile()) throw new FolderChanged(dirname(target.abs));
        await replaceExisting(target.abs, encoded.data, folder, io);
        replaced = true;
      }
    } catch (err) {
      if (err instanceof ToolError) throw err;
      throw writeError(err, target.display, replaced || (await isFile(target.abs)));
    }
    ctx.recordFile({ path: target.abs, bytes: encoded.bytes });
    const notes = encoded.notes.length ? ` Note: ${encoded.notes.join('; ')}.` : '';
    return `${replaced ? 'Replaced' : 'Wrote'} ${target.display} (${formatBytes(encoded.bytes)}; ${describe(format)}: ${encoded.summary}).${notes}`;
  }
};

interface Body {
  data: FileData;
  bytes: number;
  sha256: string;
  summary: string;
  notes: string[];
}

/** The file's bytes: encoded from the content, or streamed (a long document's whole result, .md/.txt only). */
async function bodyOf(format: OutputFormat, content: unknown, ctx: ToolContext): Promise<Body> {
  if (content instanceof StreamedText && (format === 'md' || format === 'txt')) {
    const m = await content.measure();
    const summary = `${m.lines} line${m.lines === 1 ? '' : 's'}`;
    return { data: (fh) => content.writeTo(fh), bytes: m.bytes, sha256: m.sha256, summary, notes: [] };
  }
  const encoded = await encodeContent(
    format,
    content instanceof StreamedText ? await content.text() : content,
    { loadImage: (p) => readOutputImage(ctx, p) },
  );
  const sha256 = createHash('sha256').update(encoded.data).digest('hex');
  return { ...encoded, bytes: encoded.data.length, sha256 };
}

/** Largest image a presentation may embed. */
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/** An image a slide names, from the output folder only (the one containment check). */
async function readOutputImage(ctx: ToolContext, path: string): Promise<Buffer> {
  const img = await resolveReadPath(ctx.outputDir, path);
  const st = await stat(img.abs);
  if (st.size > MAX_IMAGE_BYTES)
    throw new ToolError(
      `The image ${img.display} is too large for a slide (${formatBytes(st.size)}; the limit is ${formatBytes(MAX_IMAGE_BYTES)}). Nothing was written.`,
    );
  return readFile(img.abs);
}

function describe(format: OutputFormat): string {
  return {
    md: 'Markdown',
    txt: 'text',
    json: 'JSON',
    csv: 'CSV',
    xlsx: 'Excel',
    docx: 'Word',
    pptx: 'PowerPoint',
  }[format];
}

export default fileWrite;

/** The path as the person will find it: the same rule the write uses (planWritePath). */
function shownPath(path: string, ctx: ToolContext): string {
  try {
    return planWritePath(ctx.outputDir, path, ctx.cwd).display;
  } catch {
    return visible(path);
  }
}

/** An existing file is replaced only after a person says yes; otherwise a ToolError suggests a new name. */
async function confirmOverwrite(target: ResolvedPath, format: OutputFormat, ctx: ToolContext): Promise<void> {
  const existing = await lstat(target.abs);
  if (!existing.isFile())
    throw new ToolError(`${target.display} already exists and is not a regular file. Choose another name.`);
  const suggestion = await freeName(target.abs, target.display);
  if (!ctx.interactive) {
    throw new ToolError(
      `${target.display} already exists, and replacing it needs a person's confirmation, which is not possible here (no terminal). Nothing was written. Write to a new name instead, for example "${suggestion}".`,
    );
  }
  const yes = await ctx.ask({
    message: t('files.overwrite.question', { path: target.display, format: t(WRITE_FORMATS[format].label) }),
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
}

async function isFile(abs: string): Promise<boolean> {
  return (await lstat(abs).catch(() => undefined))?.isFile() ?? false;
}
