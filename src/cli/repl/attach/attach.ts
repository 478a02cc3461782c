import { basename, extname } from 'node:path';
import type { ContentPart } from '../../../llm/types.js';
import { type MessageKey, t } from '../../../support/i18n/index.js';
import { visible } from '../../../support/sanitize.js';
import { formatBytes } from '../../../support/text.js';
import { untrusted } from '../../../support/untrusted.js';
import { isAudioPath } from '../../../tools/asr/audio.js';
import { parserAccepts } from '../../../tools/files/platform-parse.js';
import { hiddenWarning } from '../../../tools/files/readers/hidden.js';
import type { HiddenPart } from '../../../tools/files/readers/index.js';
import { reasonForPerson, ToolError } from '../../../tools/types.js';
import { detectPaths, type PathMatch } from './paths.js';

/** Attached text per file, at most (the rest is cut with a visible marker). */
export const MAX_ATTACH_BYTES = 100 * 1024;

const IMAGE_EXT = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp', '.bmp']);

/** What reading a document gives (the shape of readDocument's result that matters here). */
export interface DocText {
  text: string;
  kind: string;
  fileBytes: number;
  truncated: boolean;
  pages?: number;
  /** Content the document hides from a person reading it. */
  hidden?: HiddenPart[];
}

/** Everything attaching needs from outside, injected so it is testable without files or an API. */
export interface AttachEnv {
  cwd: string;
  home: string;
  isFile(path: string): boolean;
  fileSize(path: string): number;
  /** Tell the user something (one line). */
  note(line: string): void;
  /** A yes/no question whose default is yes. */
  confirm(question: string): Promise<boolean>;
  readDocument(path: string): Promise<DocText>;
  /** The error code of a readDocument failure (`no_text_layer` for scans), if it has one. */
  errorCode(err: unknown): string | undefined;
  /**
   * Text of a scanned PDF or image by GLM-OCR (the price is shown and agreed first); undefined when
   * the person declined. Absent when there is no API client.
   */
  ocr?: ((path: string) => Promise<string | undefined>) | undefined;
  /**
   * A recording's transcript by GLM-ASR (the price is shown and agreed first); undefined when the
   * person declined. Absent when there is no API client.
   */
  transcribe?: ((path: string) => Promise<{ text: string; duration: string } | undefined>) | undefined;
  /** An old office file by Zhipu's file parser (price agreed first); undefined when declined. */
  parse?: ((path: string) => Promise<string | undefined>) | undefined;
  /** An image as a content part for a vision model; undefined when not available. */
  imagePart?: ((path: string) => Promise<ContentPart>) | undefined;
  /** The vision model that will look at images (for the note). */
  visionModel?: string | undefined;
}

/** Attachments gathered from one or more messages. */
export interface Attachments {
  documents: string[];
  images: ContentPart[];
  names: string[];
}

export function emptyAttachments(): Attachments {
  return { documents: [], images: [], names: [] };
}

/** A document for the model, clearly delimited, its words marked as data (support/untrusted.ts). */
export function documentBlock(name: string, path: string, text: string): string {
  return `<document name="${name}" path="${path}">\n${untrusted(text, `file ${name}`)}\n</document>`;
}

/** The message text with the file references removed: what the user actually asked. */
export function remainder(text: string, matches: PathMatch[]): string {
  let out = '';
  let at = 0;
  for (const m of [...matches].sort((a, b) => a.start - b.start)) {
    out += text.slice(at, m.start);
    at = m.end;
  }
  return (out + text.slice(at)).replace(/[\s,，、;；]+/g, ' ').trim();
}

function kindName(kind: string): string {
  switch (kind) {
    case 'docx':
      return t('repl.attach.kind.docx');
    case 'xlsx':
      return t('repl.attach.kind.xlsx');
    case 'pdf':
      return t('repl.attach.kind.pdf');
    case 'doc':
    case 'odt':
    case 'rtf':
      return t('repl.attach.kind.docx');
    case 'xls':
    case 'ods':
      return t('repl.attach.kind.xlsx');
    case 'pptx':
    case 'ppt':
    case 'odp':
      return t('repl.attach.kind.slides');
    default:
      return t('repl.attach.kind.text');
  }
}

const BY_CODE: Record<string, MessageKey> = {
  unsupported: 'input.reason.needsLibreOffice',
  binary: 'input.reason.binary',
  not_found: 'input.reason.notFound',
  permission: 'input.reason.permission',
  unreadable: 'input.reason.unreadable',
  // A recording's own failures (tools/asr/audio.ts).
  empty: 'asr.why.silent',
  needs_ffmpeg: 'asr.why.needsFfmpegShort',
  too_long: 'asr.why.tooLong',
};

/**
 * Why a file could not be attached, in the person's language. The readers explain failures to the
 * model ("ask the user to save it as .docx"); that text is never shown raw to the person.
 */
function reason(err: unknown): string {
  const code = (err as { code?: unknown } | undefined)?.code;
  const key = typeof code === 'string' ? BY_CODE[code] : undefined;
  if (key) return t(key);
  // A reader's or a platform service's ToolError is English written for the model.
  if (err instanceof ToolError) {
    const said = reasonForPerson(err);
    return t(said.key, said.params);
  }
  return visible(err instanceof Error ? err.message : String(err));
}

/**
 * Find the files named in a message and attach them: documents are read (text, Word, Excel, PDF
 * with a text layer) and added as delimited blocks; a PDF without a text layer is offered to OCR;
 * images become image parts for a vision model. Each attachment is announced in one line.
 * Returns the attachments, whether the message was only file references (then the caller keeps
 * them for the next message), how many files it named and how many of those were attached.
 */
export async function attachFromMessage(
  text: string,
  env: AttachEnv,
  into: Attachments = emptyAttachments(),
): Promise<{ attachments: Attachments; onlyFiles: boolean; found: number; attached: number }> {
  const matches = detectPaths(text, env);
  const before = into.names.length;
  for (const m of matches) {
    const name = basename(m.path);
    const ext = extname(m.path).toLowerCase();
    let size = 0;
    try {
      size = env.fileSize(m.path);
    } catch {
      size = 0;
    }
    if (IMAGE_EXT.has(ext)) {
      await attachImage(m.path, name, size, env, into);
      continue;
    }
    if (isAudioPath(m.path) && env.transcribe) {
      await attachRecording(m.path, name, env.transcribe, env, into);
      continue;
    }
    try {
      const doc = await env.readDocument(m.path);
      // An empty file would cost a call in which the model invents content: say so, send nothing.
      if (doc.text.trim() === '') {
        env.note(t('repl.attach.empty', { name }));
        continue;
      }
      into.documents.push(documentBlock(name, m.path, doc.text));
      into.names.push(name);
      const hidden = doc.hidden && hiddenWarning(name, doc.hidden);
      if (hidden) env.note(hidden);
      env.note(
        t('repl.attach.text', { name, kind: kindName(doc.kind), size: formatBytes(doc.fileBytes || size) }),
      );
      if (doc.truncated) env.note(t('repl.attach.cut', { name, size: formatBytes(MAX_ATTACH_BYTES) }));
    } catch (err) {
      if (env.errorCode(err) === 'unsupported' && env.parse && parserAccepts(m.path)) {
        await attachParsed(m.path, name, env.parse, env, into);
        continue;
      }
      if (env.errorCode(err) === 'no_text_layer' && env.ocr) {
        // GLM-OCR is paid: env.ocr says the price and asks (cli/price-consent.ts) before it sends.
        env.note(t('repl.attach.scanned', { name }));
        try {
          const textOf = await env.ocr(m.path);
          if (textOf === undefined) {
            env.note(t('repl.attach.ocrNo', { name }));
          } else {
            into.documents.push(documentBlock(name, m.path, textOf));
            into.names.push(name);
            env.note(t('repl.attach.text', { name, kind: 'OCR', size: formatBytes(size) }));
          }
        } catch (e) {
          env.note(t('repl.attach.failed', { name, reason: reason(e) }));
        }
        continue;
      }
      env.note(t('repl.attach.failed', { name, reason: reason(err) }));
    }
  }
  return {
    attachments: into,
    onlyFiles: matches.length > 0 && remainder(text, matches) === '',
    found: matches.length,
    attached: into.names.length - before,
  };
}

/** A recording, transcribed once the person agreed to the price. */
async function attachRecording(
  path: string,
  name: string,
  transcribe: NonNullable<AttachEnv['transcribe']>,
  env: AttachEnv,
  into: Attachments,
): Promise<void> {
  try {
    const got = await transcribe(path);
    if (!got) return env.note(t('repl.attach.asrNo', { name }));
    into.documents.push(documentBlock(name, path, got.text));
    into.names.push(name);
    env.note(t('repl.attach.asrYes', { name, duration: got.duration }));
  } catch (err) {
    env.note(t('repl.attach.failed', { name, reason: reason(err) }));
  }
}

/** An old office file nothing here reads, by Zhipu's file parser once the price is agreed. */
async function attachParsed(
  path: string,
  name: string,
  parse: NonNullable<AttachEnv['parse']>,
  env: AttachEnv,
  into: Attachments,
): Promise<void> {
  try {
    const parsed = await parse(path);
    if (parsed === undefined) return env.note(t('repl.attach.ocrNo', { name }));
    into.documents.push(documentBlock(name, path, parsed));
    into.names.push(name);
    env.note(t('repl.attach.parsed', { name }));
  } catch (err) {
    env.note(t('repl.attach.failed', { name, reason: reason(err) }));
  }
}

/**
 * Attach one image for the vision model (a file named in a message, or the clipboard's image
 * saved to a file), announced in one line. False when it could not be attached (said why).
 */
export async function attachImage(
  path: string,
  name: string,
  size: number,
  env: Pick<AttachEnv, 'imagePart' | 'note' | 'visionModel'>,
  into: Attachments,
): Promise<boolean> {
  if (!env.imagePart) {
    env.note(t('repl.attach.imageNoVision', { name, reason: 'vision is not available' }));
    return false;
  }
  try {
    into.images.push(await env.imagePart(path));
    into.names.push(name);
    env.note(t('repl.attach.image', { name, size: formatBytes(size), model: env.visionModel ?? 'vision' }));
    return true;
  } catch (err) {
    env.note(t('repl.attach.imageNoVision', { name, reason: reason(err) }));
    return false;
  }
}

/** The message to send: the user's words, then the attached documents, then any images. */
export function buildContent(text: string, a: Attachments): string | ContentPart[] {
  const body = a.documents.length ? `${text}\n\n${a.documents.join('\n\n')}` : text;
  if (!a.images.length) return body;
  return [{ type: 'text', text: body }, ...a.images];
}
