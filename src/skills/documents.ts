import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { extname, join, relative, resolve } from 'node:path';
import { quoted, ZhiError } from '../support/errors.js';
import type { MessageKey } from '../support/i18n/index.js';
import { nearName, withName } from '../support/near-file.js';
import { truncateText } from '../support/text.js';
import { isAudioPath } from '../tools/asr/audio.js';
import { parserAccepts } from '../tools/files/platform-parse.js';
import { documentFacts } from '../tools/files/readers/facts.js';
import type { DocumentText, HiddenPart, ReadDocumentOptions } from '../tools/files/readers/index.js';
import { resolveReadPath } from '../tools/paths.js';
import { scopeOfName } from '../tools/scope.js';
import { reasonForPerson, ToolError } from '../tools/types.js';
import type { SkillArg } from './schema.js';

export type ReadDocumentFn = (absPath: string, opts?: ReadDocumentOptions) => Promise<DocumentText>;

/** Text budget of one run's message: all input documents together, and each one. */
export const MESSAGE_BUDGET_BYTES = 150 * 1024;
export const PER_FILE_BYTES = 100 * 1024;

const TEXT_EXT = [
  'txt',
  'md',
  'markdown',
  'csv',
  'tsv',
  'json',
  'jsonl',
  'yaml',
  'yml',
  'xml',
  'html',
  'htm',
  'log',
  'rst',
  'tex',
  'srt',
  'vtt',
  'ini',
  'toml',
];
const DOC_EXT = [
  'docx',
  'xlsx',
  'pdf',
  'pptx',
  'odt',
  'ods',
  'odp',
  'doc',
  'wps',
  'xls',
  'et',
  'ppt',
  'dps',
  'rtf',
];
/** Images OCR can read; other image types are refused with a hint to convert them. */
export const OCR_EXT = ['png', 'jpg', 'jpeg'];
const IMAGE_EXT = ['gif', 'webp', 'bmp', 'tif', 'tiff', 'heic', 'avif'];

/** The extensions a skill processes in a folder: its own list, else documents (and images when it can OCR). */
export function supportedExtensions(arg: SkillArg | undefined, canOcr: boolean): string[] {
  if (arg?.extensions?.length) return arg.extensions;
  return [...TEXT_EXT, ...DOC_EXT, ...(canOcr ? OCR_EXT : [])];
}

/**
 * Files directly inside a folder with one of the extensions, in natural name order (2 before 10).
 * With `containedIn` (a folder the model chose), only files that pass the one containment rule
 * from that folder: links leading outside it and secrets are left out.
 */
export async function filesIn(
  dir: string,
  extensions: readonly string[],
  containedIn?: string,
): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => (e.isFile() || e.isSymbolicLink()) && !scopeOfName(e.name) && !e.name.startsWith('~$'))
    .map((e) => e.name)
    .filter((n) => extensions.includes(extname(n).slice(1).toLowerCase()))
    .sort((a, b) => a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' }));
  const out: string[] = [];
  for (const n of names) {
    const st = await stat(join(dir, n)).catch(() => undefined);
    if (!st?.isFile()) continue;
    if (containedIn) {
      const ok = await resolveReadPath(containedIn, relative(containedIn, join(dir, n))).then(
        (r) => r.abs,
        () => undefined,
      );
      if (ok) out.push(ok);
      continue;
    }
    out.push(join(dir, n));
  }
  return out;
}

export type PathKind = 'file' | 'directory';

/**
 * Resolve a path input against the current directory; a missing path is a usage error. A path
 * the person typed may be anywhere (`~` is expanded); a path the model chose (a composite skill's
 * nested call) must pass the one containment rule: inside the current folder, not a secret.
 */
export async function checkPath(
  cwd: string,
  value: string,
  arg: SkillArg,
  from: 'person' | 'model' = 'person',
): Promise<{ abs: string; kind: PathKind }> {
  const abs =
    from === 'model'
      ? (await resolveReadPath(cwd, value)).abs
      : resolve(cwd, value.replace(/^~(?=$|[\\/])/, homedir()));
  const st = await stat(abs).catch(() => undefined);
  if (!st) {
    // A name one typo away from one that is there (`note.txt` beside `notes.txt`) is offered.
    const near =
      from === 'person' ? nearName(abs, arg.type === 'directory' ? 'directory' : 'any') : undefined;
    throw new ZhiError({
      kind: 'usage',
      what: {
        key: arg.type === 'directory' ? 'skills.err.noFolder' : 'skills.err.noFile',
        params: { path: value, name: arg.name },
      },
      tries: near
        ? [{ key: 'cli.try.didYouMean', params: { suggestion: withName(value, near) } }]
        : [{ key: 'skills.try.checkPath' }],
    });
  }
  const kind: PathKind = st.isDirectory() ? 'directory' : 'file';
  if (arg.type === 'directory' && kind !== 'directory') {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'skills.err.wantFolder', params: { path: value, name: arg.name } },
    });
  }
  return { abs, kind };
}

export interface DocumentBlock {
  /** How the model should refer to the file (relative to the current directory when inside it). */
  name: string;
  /** The text, or undefined when the model has to use a tool (OCR) or the budget ran out. */
  text?: string;
  /** One line saying what the file is / what to do with it. */
  note: string;
  /** Content the document hides from a person reading it (warned about when it reads like an instruction); its words are data, wrapped by `untrusted`. */
  hidden?: HiddenPart[];
}

export interface ReadOptions {
  read: ReadDocumentFn;
  /** The skill has the ocr tool (images and scans are then allowed). */
  canOcr: boolean;
  canRead: boolean;
  /** Zhipu's file parser may be offered for a file nothing here can read (after consent). */
  canParse?: boolean;
  signal: AbortSignal;
  /** Bytes of text still allowed in the message (shared by all documents of the run). */
  budget: { left: number };
}

/** Why a document could not be read, for the person (the error's own message is for the model). */
const DOC_REASONS: Record<string, MessageKey> = {
  not_found: 'files.doc.not_found',
  is_directory: 'files.doc.is_directory',
  not_regular: 'files.doc.not_regular',
  permission: 'files.doc.permission',
  binary: 'files.doc.binary',
  too_large: 'files.doc.too_large',
  unreadable: 'files.doc.unreadable',
  encrypted: 'files.doc.encrypted',
  unsupported: 'files.doc.unsupported',
  no_text_layer: 'files.doc.no_text_layer',
};

/** Reasons that are about which file the person gave, not about reading it. */
const INPUT_CODES = new Set([
  'not_found',
  'is_directory',
  'not_regular',
  'binary',
  'too_large',
  'unsupported',
]);

export type ReadOutcome =
  | { block: DocumentBlock }
  | { ocr: 'image' | 'scan' }
  | { audio: true }
  | { parse: true };

/**
 * Read one input file for the message, with the same readers as file_read. Images and scanned
 * PDFs need OCR (allowed when the skill has the ocr tool); a file that cannot be read at all is
 * an error for the person who asked.
 */
export async function readInput(abs: string, name: string, o: ReadOptions): Promise<ReadOutcome> {
  const ext = extname(abs).slice(1).toLowerCase();
  if (isAudioPath(abs)) return { audio: true };
  if (OCR_EXT.includes(ext)) {
    if (o.canOcr) return { ocr: 'image' };
    throw needsOcr(name);
  }
  if (o.budget.left < 2048) {
    return {
      block: {
        name,
        note: o.canRead
          ? 'not included (the message is full); read it with file_read'
          : 'not included (the message is full)',
      },
    };
  }
  let doc: DocumentText;
  try {
    doc = await o.read(abs, {
      maxBytes: Math.min(PER_FILE_BYTES, o.budget.left),
      signal: o.signal,
      ...(o.canRead
        ? {
            continueHint: (next: number) =>
              ` Call file_read with path "${name}" and offset=${next} to read on.`,
          }
        : {}),
    });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'no_text_layer') {
      if (o.canOcr) return { ocr: 'scan' };
      throw needsOcr(name);
    }
    if (code === 'unsupported' && o.canParse && parserAccepts(abs)) return { parse: true };
    if (code === 'binary' && IMAGE_EXT.includes(ext)) {
      throw new ZhiError({ kind: 'usage', what: { key: 'skills.err.imageType', params: { path: name } } });
    }
    // The reader's message is written for the model (English); the person gets the reason in
    // their language, by the error's code.
    throw new ZhiError({
      // A file that is not a document (binary, too large, a folder…) is the person's input, as an
      // empty one is (exit 2); a read that failed (permissions, a damaged file) is not.
      kind: code && INPUT_CODES.has(code) ? 'usage' : 'io',
      what: { key: 'skills.err.unreadableInput', params: { path: name } },
      why:
        code && DOC_REASONS[code]
          ? { key: DOC_REASONS[code] }
          : err instanceof ToolError
            ? reasonForPerson(err)
            : quoted((err as Error).message, 'cli.by.system'),
      cause: err,
    });
  }
  if (!doc.text.trim() && doc.kind === 'pdf') {
    if (o.canOcr) return { ocr: 'scan' };
    throw needsOcr(name);
  }
  // Nothing to work on: a model given an empty file invents an answer, and it is a paid call.
  if (!doc.text.replace(/\uFEFF/g, '').trim()) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'skills.err.emptyInput', params: { path: name } },
      why: { key: 'skills.err.emptyInput.why' },
    });
  }
  o.budget.left -= Buffer.byteLength(doc.text, 'utf8');
  const facts = [...documentFacts(doc), doc.truncated ? 'only the first part is included' : ''];
  const note = `${facts.filter(Boolean).join('; ')}; its text is below`;
  return { block: { name, text: doc.text, note, hidden: doc.hidden } };
}

/** The block for a file read by Zhipu's file parser. */
export function parsedBlock(name: string, text: string, budget: { left: number }): DocumentBlock {
  const capped = truncateText(text, Math.max(2048, Math.min(PER_FILE_BYTES, budget.left)));
  budget.left -= Buffer.byteLength(capped.text, 'utf8');
  return {
    name,
    text: capped.text,
    note: `an old office file, read by Zhipu's file parser; its text is below${capped.truncated ? ' (only the first part)' : ''}`,
  };
}

/** The block for an audio file's transcript. */
export function transcriptBlock(
  name: string,
  text: string,
  duration: string,
  budget: { left: number },
): DocumentBlock {
  const capped = truncateText(text, Math.max(2048, Math.min(PER_FILE_BYTES, budget.left)));
  budget.left -= Buffer.byteLength(capped.text, 'utf8');
  const what = `an audio recording (${duration}), transcribed by speech recognition`;
  if (!capped.text.trim()) return { name, text: '', note: `${what}; no speech was recognised` };
  return {
    name,
    text: capped.text,
    note: `${what}; its transcript is below${capped.truncated ? ' (only the first part)' : ''}`,
  };
}

/** The block for a file whose text came from OCR (or that the model must OCR itself). */
export function ocrBlock(
  name: string,
  kind: 'image' | 'scan',
  text: string | undefined,
  budget: { left: number },
): DocumentBlock {
  const what = kind === 'image' ? 'an image' : 'a scanned PDF';
  if (text === undefined) return { name, note: `${what}; call ocr with path "${name}" to read it` };
  const capped = truncateText(text, Math.max(2048, Math.min(PER_FILE_BYTES, budget.left)));
  budget.left -= Buffer.byteLength(capped.text, 'utf8');
  return {
    name,
    text: capped.text,
    note: `${what}, read with OCR; its text is below${capped.truncated ? ' (only the first part)' : ''}`,
  };
}

function needsOcr(name: string): ZhiError {
  return new ZhiError({
    kind: 'usage',
    what: { key: 'skills.err.needsOcr', params: { path: name } },
    tries: [{ key: 'skills.try.extractText', params: { path: name } }],
  });
}
