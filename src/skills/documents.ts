import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { extname, join, relative, resolve } from 'node:path';
import { maxBy } from '../support/arrays.js';
import { ZhiError } from '../support/errors.js';
import type { MessageKey } from '../support/i18n/index.js';
import { nearName, withName } from '../support/near-file.js';
import { truncateText } from '../support/text.js';
import { untrusted } from '../support/untrusted.js';
import { isAudioPath } from '../tools/asr/audio.js';
import { parserAccepts } from '../tools/files/platform-parse.js';
import { documentFacts } from '../tools/files/readers/facts.js';
import type { DocumentText, HiddenPart, ReadDocumentOptions } from '../tools/files/readers/index.js';
import { resolveReadPath } from '../tools/paths.js';
import { scopeOfName } from '../tools/scope.js';
import type { InputValues } from './inputs.js';
import type { Skill, SkillArg } from './schema.js';

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
      why: code && DOC_REASONS[code] ? { key: DOC_REASONS[code] } : (err as Error).message,
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

/** A per-file step's result (`each`), or several of them combined into one. */
export interface StepResult {
  /** The file it is for ("today/a.md"), or the first and last of the files it combines. */
  file: string;
  text: string;
  ok: boolean;
  /** A combined result: the files it covers (numbered from 1, in the folder's order). */
  files?: { from: number; to: number; total: number };
}

/** How a result is written in a run's message (`text` in place of its own). */
export function resultBlock(r: StepResult, text: string): string {
  const tag = r.files
    ? `<result files="${r.file}" note="files ${r.files.from} to ${r.files.to} of ${r.files.total}, their results combined">`
    : `<result file="${r.file}"${r.ok ? '' : ' failed="true"'}>`;
  return `${tag}\n${text}\n</result>`;
}

/** The user message of a run: what was asked, then each input and the documents' text. */
export function composeMessage(o: {
  skill: Skill;
  values: InputValues;
  /** Per path input: the blocks read for it (one for a file, several for a folder). */
  blocks: Map<string, { summary: string; docs: DocumentBlock[] }>;
  /** Results of a per-file step (`each`), keyed by input name. */
  results?: Map<string, StepResult[]>;
  caller?: string;
  instructions?: string;
  extraDocuments?: { name: string; text: string }[];
  /** A free-form skill: the person's own words, and the files they named. */
  task?: string;
  files?: DocumentBlock[];
}): string {
  const out: string[] = [];
  if (o.caller) {
    out.push(
      `This run is a step of the skill "${o.caller}". Give the complete result as your final answer (the calling skill reads it). Write a file only if the instructions below ask for one.`,
    );
  }
  if (o.instructions?.trim()) out.push(`Instructions: ${o.instructions.trim()}`);
  const lines: string[] = [];
  const docs: DocumentBlock[] = [];
  for (const arg of o.skill.args) {
    const v = o.values[arg.name];
    if (v === undefined) continue;
    const block = o.blocks.get(arg.name);
    if (block) {
      lines.push(`- ${arg.name}: ${block.summary}`);
      for (const d of block.docs) {
        if (block.docs.length > 1) lines.push(`  - ${d.name}: ${d.note}`);
        if (d.text !== undefined) docs.push(d);
      }
      continue;
    }
    const results = o.results?.get(arg.name);
    if (results) {
      const total = maxBy(results, (r) => r.files?.total ?? 0, results.length);
      const said =
        results.length === total
          ? 'the result for each is below'
          : `their results, combined in ${results.length} groups in the folder's order, are below`;
      lines.push(`- ${arg.name}: ${String(v)} (${total} files; ${said})`);
      continue;
    }
    lines.push(`- ${arg.name}: ${typeof v === 'string' && v.includes('\n') ? `\n${v}` : String(v)}`);
  }
  for (const d of o.files ?? []) {
    lines.push(`- file ${d.name}: ${d.note}`);
    if (d.text !== undefined) docs.push(d);
  }
  for (const d of o.extraDocuments ?? [])
    lines.push(`- ${d.name}: a document given on standard input; its text is below`);
  if (o.task?.trim()) out.push(`The person's request, in their words:\n${o.task.trim()}`);
  if (lines.length) out.push(`Inputs:\n${lines.join('\n')}`);
  else if (!o.task?.trim()) out.push('Run the skill (it was given no inputs).');
  const doc = (name: string, text: string, from: string) =>
    `<document name="${name}">\n${untrusted(text, from)}\n</document>`;
  for (const d of docs) out.push(doc(d.name, d.text ?? '', `file ${d.name}`));
  for (const d of o.extraDocuments ?? []) out.push(doc(d.name, d.text, 'standard input'));
  for (const [, results] of o.results ?? []) {
    for (const r of results) out.push(resultBlock(r, r.text));
  }
  return out.join('\n\n');
}
