/**
 * Turning file_write's `content` into the bytes of a file, by extension. Each encoder checks
 * its payload and throws a PayloadError (showing the expected shape) when it does not fit.
 * The Excel and Word encoders, and their libraries, load only when used.
 */
import { extname } from 'node:path';
import { formatOfExtension, type OutputFormat } from './formats.js';
import { kindOf, PayloadError, parseIfJson } from './payload.js';

export { type OutputFormat, SUPPORTED_EXTENSIONS, shapesInBrief, WRITE_FORMATS } from './formats.js';
export { PayloadError } from './payload.js';

export interface Encoded {
  data: Buffer;
  /** One line about what was written ("sheet "Sales" 35 rows"). */
  summary: string;
  /** Adjustments worth telling the model (a renamed sheet…). */
  notes: string[];
}

export function formatOf(path: string): OutputFormat | undefined {
  return formatOfExtension(extname(path));
}

function encodeText(format: 'md' | 'txt', content: unknown): Encoded {
  let text: string;
  if (typeof content === 'string') text = content;
  else if (typeof content === 'number' || typeof content === 'boolean') text = String(content);
  else if (
    content &&
    typeof content === 'object' &&
    !Array.isArray(content) &&
    typeof (content as { content?: unknown }).content === 'string'
  ) {
    text = (content as { content: string }).content;
  } else {
    throw new PayloadError(format, `content is ${kindOf(content)}`);
  }
  if (text.length && !text.endsWith('\n')) text += '\n';
  const lines = text.split('\n').length - 1;
  return { data: Buffer.from(text, 'utf8'), summary: `${lines} line${lines === 1 ? '' : 's'}`, notes: [] };
}

function encodeJson(content: unknown): Encoded {
  let value = content;
  if (typeof content === 'string') {
    try {
      value = JSON.parse(content);
    } catch (err) {
      throw new PayloadError(
        'json',
        `content is a string that is not valid JSON (${(err as Error).message})`,
      );
    }
  }
  const text = `${JSON.stringify(value, null, 2)}\n`;
  return {
    data: Buffer.from(text, 'utf8'),
    summary: Array.isArray(value)
      ? `an array of ${value.length}`
      : `a JSON ${value === null ? 'null' : typeof value}`,
    notes: [],
  };
}

/** What an encoder may need besides the content: reading the images a presentation names. */
export interface EncodeContext {
  loadImage?: (path: string) => Promise<Buffer>;
}

type Encoder = (content: unknown, ctx: EncodeContext) => Promise<Encoded>;

/** How each format is encoded; the type makes a new format in formats.ts need its encoder here. */
const ENCODERS: Record<OutputFormat, Encoder> = {
  md: async (content) => encodeText('md', content),
  txt: async (content) => encodeText('txt', content),
  json: async (content) => encodeJson(content),
  csv: async (content) => {
    const { encodeCsv } = await import('./csv.js');
    return { ...encodeCsv(content), notes: [] };
  },
  xlsx: async (content) => {
    const { encodeXlsx } = await import('./xlsx.js');
    return encodeXlsx(content);
  },
  docx: async (content) => {
    const { encodeDocx } = await import('./docx.js');
    return { ...(await encodeDocx(content)), notes: [] };
  },
  pptx: async (content, ctx) => {
    const { encodePptx } = await import('./pptx.js');
    const noImages = async (): Promise<Buffer> => {
      throw new PayloadError('pptx', 'images cannot be read here');
    };
    return encodePptx(content, ctx.loadImage ?? noImages);
  },
};

/** The bytes of a file of this format for this content. */
export function encodeContent(
  format: OutputFormat,
  content: unknown,
  ctx: EncodeContext = {},
): Promise<Encoded> {
  return ENCODERS[format](content, ctx);
}

/** First lines of what a payload will produce, for a permission prompt (never throws). */
export function previewLines(format: OutputFormat, content: unknown, max = 8): string[] {
  try {
    const value = format === 'md' || format === 'txt' ? content : parseIfJson(content);
    if (typeof value === 'string') return value.split(/\r?\n/).slice(0, max);
    if (format === 'xlsx' || format === 'csv') {
      const v = value as Record<string, unknown>;
      const sheets = Array.isArray(v?.sheets) ? (v.sheets as Record<string, unknown>[]) : [v];
      const lines: string[] = [];
      for (const s of sheets) {
        if (lines.length >= max) break;
        const rows = Array.isArray(s?.rows)
          ? (s.rows as unknown[])
          : Array.isArray(s)
            ? (s as unknown[])
            : [];
        const headers = Array.isArray(s?.headers) ? (s.headers as unknown[]) : undefined;
        if (format === 'xlsx' && sheets.length > 1)
          lines.push(`[${String(s?.name ?? '')}] ${rows.length} rows`);
        if (headers) lines.push(headers.map(String).join(' | '));
        for (const r of rows.slice(0, Math.max(1, max - lines.length))) {
          lines.push(
            Array.isArray(r) ? r.map((c) => (c === null ? '' : String(c))).join(' | ') : JSON.stringify(r),
          );
        }
      }
      return lines.slice(0, max);
    }
    if (format === 'pptx' && value && typeof value === 'object') {
      const slides = Array.isArray(value) ? value : (value as { slides?: unknown }).slides;
      if (Array.isArray(slides))
        return slides
          .slice(0, max)
          .map((s, i) => `${i + 1}. ${String((s as { title?: unknown })?.title ?? '')}`);
    }
    if (
      format === 'docx' &&
      value &&
      typeof value === 'object' &&
      typeof (value as { content?: unknown }).content === 'string'
    ) {
      return (value as { content: string }).content.split(/\r?\n/).slice(0, max);
    }
    return (JSON.stringify(value, null, 2) ?? '').split('\n').slice(0, max);
  } catch {
    return [];
  }
}
