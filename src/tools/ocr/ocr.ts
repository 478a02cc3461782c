/**
 * The ocr tool: Zhipu GLM-OCR layout parsing for scanned PDFs and images. Like file_read it
 * reads only inside the current directory (symbolic links resolved). Everything that would
 * make the API refuse is checked before uploading: the type (PDF, JPG, PNG), the size (images
 * 10 MB, PDFs 50 MB) and the page count (100 by default), each with a message that says the
 * limit and what to do. The elapsed time is shown while the service works.
 */
import { open, readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { type LayoutResult, layoutParsing, OCR_MODEL } from '../../llm/ocr.js';
import type { ApiErrorInfo, PlatformClient } from '../../llm/types.js';
import { type FileKind, kindName, MIME, SNIFF_BYTES, sniffFile } from '../../support/filetype.js';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import { formatBytes, truncateText } from '../../support/text.js';
import { untrusted } from '../../support/untrusted.js';
import { resolveReadPath } from '../paths.js';
import { type Tool, type ToolContext, ToolError } from '../types.js';
import { OCR_TOOL } from './entry.js';

export const OCR_LIMITS = { imageBytes: 10 * 1024 * 1024, pdfBytes: 50 * 1024 * 1024, pages: 100 };
export const MAX_RESULT_BYTES = 50 * 1024;

export interface OcrOptions {
  maxPages?: number;
}

export interface OcrDocument {
  markdown: string;
  pages: number;
  /** Pages in the file (PDF), when known. */
  totalPages?: number;
  usage: LayoutResult['usage'];
}

export interface OcrFileOptions extends OcrOptions {
  startPage?: number;
  endPage?: number;
  signal?: AbortSignal;
  /** How the file is named in messages (the model's path, or the user's). */
  display?: string;
  onRetry?(attempt: number, max: number): void;
  /** Called once the page count is known (before the upload); a throw stops it, nothing sent. */
  onPages?(pages: number | undefined): void | Promise<void>;
}

const schema = z.object({
  path: z.string().describe('Relative path.'),
  start_page: z.coerce.number().int().min(1).max(100_000).optional().describe('First PDF page.'),
  end_page: z.coerce.number().int().min(1).max(100_000).optional(),
});

const OTHER_IMAGES: FileKind[] = ['gif', 'webp', 'bmp', 'tiff', 'heic', 'avif', 'svg'];

/** Check a file against the OCR limits, read it and send it. Errors are ToolErrors for the model. */
export async function ocrFile(
  client: PlatformClient,
  abs: string,
  opts: OcrFileOptions = {},
): Promise<OcrDocument> {
  const name = opts.display ?? abs;
  const maxPages = opts.maxPages ?? OCR_LIMITS.pages;
  const info = await stat(abs);
  if (info.isDirectory())
    throw new ToolError(`"${name}" is a folder. Give the path of a PDF, JPG or PNG file inside it.`);
  if (info.size === 0) throw new ToolError(`"${name}" is empty (0 bytes); there is nothing to read.`);
  const kind = await sniffPath(abs);
  if (kind !== 'pdf' && kind !== 'png' && kind !== 'jpeg') throw new ToolError(unsupported(name, kind));

  const limit = kind === 'pdf' ? OCR_LIMITS.pdfBytes : OCR_LIMITS.imageBytes;
  if (info.size > limit) {
    throw new ToolError(
      kind === 'pdf'
        ? `"${name}" is ${formatBytes(info.size)}; Zhipu OCR accepts PDFs up to ${formatBytes(limit)}. ` +
            'Ask the user to split it into smaller PDFs (or compress it), then run ocr on each part.'
        : `"${name}" is ${formatBytes(info.size)}; Zhipu OCR accepts images up to ${formatBytes(limit)}. ` +
            'Ask the user to shrink it (resize, or save as a compressed JPG), then run ocr again.',
    );
  }
  const data = await readFile(abs);

  let totalPages: number | undefined;
  if (kind === 'pdf') {
    totalPages = await countPages(data, name);
    const start = opts.startPage ?? 1;
    const end = Math.min(opts.endPage ?? totalPages, totalPages);
    if (start > totalPages)
      throw new ToolError(
        `"${name}" has only ${totalPages} page${totalPages === 1 ? '' : 's'}; start_page ${start} is past the end.`,
      );
    if (end < start) throw new ToolError(`end_page (${opts.endPage}) is before start_page (${start}).`);
    if (end - start + 1 > maxPages) {
      const ranged = opts.startPage !== undefined || opts.endPage !== undefined;
      throw new ToolError(
        `${ranged ? `Pages ${start}-${end} of "${name}" are` : `"${name}" has ${totalPages} pages, which is`} more than the ${maxPages} pages ` +
          `Zhipu OCR reads in one request. Read it in parts with start_page and end_page (at most ${maxPages} pages each, ` +
          `e.g. 1-${maxPages}, then ${maxPages + 1}-${Math.min(2 * maxPages, totalPages)}), or ask the user to split the PDF into smaller files.`,
      );
    }
  } else if (opts.startPage !== undefined || opts.endPage !== undefined) {
    throw new ToolError(`"${name}" is an image (one page); start_page and end_page apply only to PDFs.`);
  }
  await opts.onPages?.(totalPages);

  const outcome = await layoutParsing(client, {
    file: `data:${MIME[kind]};base64,${data.toString('base64')}`,
    ...(kind === 'pdf' && opts.startPage ? { startPage: opts.startPage } : {}),
    ...(kind === 'pdf' && opts.endPage
      ? { endPage: Math.min(opts.endPage, totalPages ?? opts.endPage) }
      : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
    onRetry: (ev) => opts.onRetry?.(ev.attempt, ev.maxRetries),
  });
  if (!outcome.ok) throw new ToolError(describeFailure(name, outcome.error, kind));
  const r = outcome.value;
  return {
    markdown: r.markdown,
    pages: r.pages,
    usage: r.usage,
    ...(totalPages !== undefined ? { totalPages } : {}),
  };
}

async function sniffPath(abs: string): Promise<FileKind> {
  const fh = await open(abs, 'r');
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await fh.read(head, 0, SNIFF_BYTES, 0);
    return sniffFile(head.subarray(0, bytesRead), { weak: true, pdfAfterJunk: true });
  } finally {
    await fh.close();
  }
}

function unsupported(name: string, kind: FileKind): string {
  if (OTHER_IMAGES.includes(kind)) {
    return (
      `"${name}" is a ${kindName(kind)} image; Zhipu OCR accepts only PDF, JPG and PNG files. ` +
      'Ask the user to convert it to PNG or JPG (open it in an image viewer and save it in that format), then run ocr on the new file.'
    );
  }
  if (kind === 'zip') {
    return `"${name}" is not a PDF or an image (it looks like a ZIP or an Office document). Use file_read for Word and Excel files.`;
  }
  return `"${name}" is not a PDF, JPG or PNG file, so OCR cannot read it. Use file_read for text files.`;
}

async function countPages(data: Buffer, name: string): Promise<number> {
  const { getDocumentProxy } = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // verbosity 0: pdf.js warnings would otherwise land on the user's terminal.
    pdf = await getDocumentProxy(new Uint8Array(data), { verbosity: 0, isEvalSupported: false });
  } catch (err) {
    if ((err as Error).name === 'PasswordException') {
      throw new ToolError(
        `"${name}" is password-protected; OCR cannot open it. Ask the user for an unprotected copy.`,
      );
    }
    throw new ToolError(
      `"${name}" cannot be opened as a PDF (${(err as Error).message}); it may be damaged or incomplete.`,
    );
  }
  try {
    return pdf.numPages;
  } finally {
    void pdf.destroy().catch(() => {});
  }
}

function describeFailure(name: string, error: ApiErrorInfo, kind: FileKind): string {
  if (error.kind === 'aborted') return 'Interrupted.';
  const code = error.code ? ` ${error.code}` : '';
  const base = `OCR of "${name}" failed (${error.kind}${code}): ${error.message}.`;
  switch (error.kind) {
    case 'auth':
      return `${base} The API key was not accepted; the user can fix it with \`zhi config set api_key …\` or \`zhi --setup\`.`;
    case 'balance':
      return `${base} The account has no balance or quota left for OCR; tell the user.`;
    case 'rate_limit':
    case 'overloaded':
      return `${base} The service is busy; try again in a minute.`;
    case 'timeout':
      return `${base} ${kind === 'pdf' ? 'Try a smaller page range with start_page and end_page.' : 'Try again later.'}`;
    case 'bad_request':
      return /页|page|size|大小|M\b/i.test(error.message)
        ? `${base} The file is over a limit of the OCR service; ask the user to split the PDF into smaller files (or shrink the image) and run ocr on each part.`
        : `${base} The service refused this file.`;
    default:
      return base;
  }
}

/** `![](page=0,bbox=[…])` image references say only that a picture is there. */
function tidy(markdown: string): string {
  return markdown.replace(
    /!\[[^\]]*\]\(page=(\d+),\s*bbox=\[[^\]]*\]\)/g,
    (_, page: string) => `[image on page ${Number(page) + 1}]`,
  );
}

/** What the ocr tool is built with: the API client it uploads through, and its page limit. */
export interface OcrToolDeps extends OcrOptions {
  client: PlatformClient;
}

/**
 * GLM-OCR is paid: the one price rule holds for the model's own calls as for the REPL's offer.
 * Agreed in advance (`--yes`, `--auto`, a skill run), it goes on; else the person is asked, once
 * per file in a conversation; with nobody to ask nothing is sent.
 */
async function agreeToOcr(ctx: ToolContext, name: string, pages: number, agreed: Set<string>): Promise<void> {
  if (ctx.priceAgreed || agreed.has(name)) return;
  if (!ctx.interactive)
    throw new ToolError(
      `OCR of "${name}" is a paid service and the user could not be asked (no terminal), so nothing was sent. Tell them to run again with --yes or --auto to agree in advance.`,
      { key: 'ocr.unasked', params: { name } },
    );
  const line = t('ocr.price', { name: visible(name), pages });
  if (!(await ctx.ask({ message: `${line}${t('price.ask')}` })))
    throw new ToolError(
      `The user declined OCR of "${name}" (a paid service); nothing was sent. Do not try again.`,
    );
  agreed.add(name);
}

export function createOcrTool(deps: OcrToolDeps): Tool<typeof schema> {
  const { client, ...options } = deps;
  /** Files the person agreed to have read by OCR in this conversation. */
  const agreed = new Set<string>();
  return {
    name: OCR_TOOL.name,
    traits: OCR_TOOL.traits,
    description: [
      'OCR a scan, image or PDF into Markdown with tables (text PDFs: file_read is cheaper).',
      `Image ≤ ${formatBytes(OCR_LIMITS.imageBytes)}; PDF ≤ ${formatBytes(OCR_LIMITS.pdfBytes)},`,
      `${options.maxPages ?? OCR_LIMITS.pages} pages per call.`,
    ].join(' '),
    schema,
    kind: 'read',
    // The file is uploaded to the platform's OCR: asked about unless the person named it.
    egress: (args) => [{ kind: 'upload', path: args.path, to: 'OCR service' }],
    label: (args) => args.path,
    async execute(args, ctx) {
      const file = await resolveReadPath(ctx.cwd, args.path, ctx.named ? { named: ctx.named } : {});
      // The renderers show the elapsed time; the note says what is being waited for.
      const doc = await ocrFile(client, file.abs, {
        ...options,
        display: file.display,
        signal: ctx.signal,
        ...(args.start_page !== undefined ? { startPage: args.start_page } : {}),
        ...(args.end_page !== undefined ? { endPage: args.end_page } : {}),
        onPages: async (total) => {
          const pages =
            total === undefined ? 1 : Math.min(args.end_page ?? total, total) - (args.start_page ?? 1) + 1;
          await agreeToOcr(ctx, file.display, pages, agreed);
          ctx.progress(total === undefined ? t('ocr.progress.image') : t('ocr.progress.pages', { pages }));
        },
        onRetry: (attempt, max) => ctx.progress(t('ocr.retrying', { attempt, max })),
      });
      ctx.reportUsage(OCR_MODEL, doc.usage);
      const range =
        args.start_page !== undefined || args.end_page !== undefined
          ? `, pages ${args.start_page ?? 1}-${Math.min(args.end_page ?? doc.totalPages ?? doc.pages, doc.totalPages ?? Number.MAX_SAFE_INTEGER)} of ${doc.totalPages}`
          : '';
      const head = `OCR of ${file.display} (${doc.pages} page${doc.pages === 1 ? '' : 's'}${range}):\n\n`;
      const text = tidy(doc.markdown).trim();
      if (!text)
        return `${head}(no text found: the ${doc.pages === 1 ? 'page is' : 'pages are'} blank or contain only pictures)`;
      // Room for the boundary around the text.
      const capped = truncateText(text, MAX_RESULT_BYTES - Buffer.byteLength(head) - 512);
      const more =
        capped.truncated && doc.totalPages && doc.totalPages > 1
          ? '\n[To read a later part, call ocr again with start_page and end_page.]'
          : '';
      // The page's words are data, inside a boundary (support/untrusted.ts).
      return head + untrusted(capped.text, `scan ${file.display}`) + more;
    },
  };
}
