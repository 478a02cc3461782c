/**
 * Images in chat (reference §2.4): an image file becomes an `image_url` content part carrying a
 * `data:image/…;base64,…` URI, checked first against the API's limits (JPG or PNG, at most 5 MB
 * and 6000×6000 pixels). A message with images goes to a vision model; text models never get
 * image parts (they are replaced by a short note), so a conversation stays valid after a switch.
 */
import { readFile, stat } from 'node:fs/promises';
import { ZhiError } from '../support/errors.js';
import { kindName, MIME, sniffFile } from '../support/filetype.js';
import { DEFAULT_VISION_MODEL, findModel } from './models.js';
import type { ChatRequest, ContentPart, LlmClient, Message } from './types.js';

export const VISION_LIMITS = { maxBytes: 5 * 1024 * 1024, maxSide: 6000, maxImages: 10 };

export interface ImageAttachment {
  part: ContentPart;
  bytes: number;
  width: number;
  height: number;
}

function size(n: number): string {
  return n < 1024 * 1024 ? `${(n / 1024).toFixed(0)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Read an image for a vision model. `display` is how the user named it. Throws a ZhiError that
 * says what is wrong and what to do (too big, too many pixels, not JPG/PNG).
 */
export async function imagePart(path: string, display = path): Promise<ImageAttachment> {
  let bytes: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
    bytes = info.size;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new ZhiError({ kind: 'usage', what: { key: 'vision.err.notFound', params: { path: display } } });
    }
    throw new ZhiError({
      kind: 'io',
      what: {
        key: 'vision.err.unreadable',
        params: { path: display, reason: code ?? (err as Error).message },
      },
    });
  }
  if (bytes > VISION_LIMITS.maxBytes) {
    throw new ZhiError({
      kind: 'usage',
      what: {
        key: 'vision.err.size',
        params: { path: display, size: size(bytes), limit: size(VISION_LIMITS.maxBytes) },
      },
      tries: [{ key: 'vision.err.shrinkTry' }],
    });
  }
  const data = await readFile(path);
  const kind = sniffFile(data.subarray(0, 64), { weak: true, pdfAfterJunk: true });
  if (kind !== 'png' && kind !== 'jpeg') {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'vision.err.type', params: { path: display, type: kindName(kind) } },
      tries: [{ key: 'vision.err.typeTry' }],
    });
  }
  const { imageSize } = await import('image-size');
  let dims: { width: number; height: number };
  try {
    dims = imageSize(data);
  } catch (err) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'vision.err.unreadable', params: { path: display, reason: (err as Error).message } },
    });
  }
  if (dims.width > VISION_LIMITS.maxSide || dims.height > VISION_LIMITS.maxSide) {
    throw new ZhiError({
      kind: 'usage',
      what: {
        key: 'vision.err.pixels',
        params: { path: display, width: dims.width, height: dims.height, limit: VISION_LIMITS.maxSide },
      },
      tries: [{ key: 'vision.err.shrinkTry' }],
    });
  }
  return {
    part: { type: 'image_url', image_url: { url: `data:${MIME[kind]};base64,${data.toString('base64')}` } },
    bytes,
    width: dims.width,
    height: dims.height,
  };
}

export function hasImages(content: string | ContentPart[]): boolean {
  return Array.isArray(content) && content.some((p) => p.type === 'image_url');
}

export function isVisionModel(id: string): boolean {
  return findModel(id)?.kind === 'vision';
}

export interface VisionTurn {
  model: string;
  /** The chat model had to be replaced for this turn. */
  switched: boolean;
  /** The model of this turn accepts tools. */
  tools: boolean;
}

/**
 * The one answer to "which model looks at this image": the chat's own model when it can see,
 * else the default vision model. Chat turns with images, attachments and images an MCP tool
 * returns all ask here.
 */
export function visionModelFor(chatModel: string | undefined): string {
  return chatModel && isVisionModel(chatModel) ? chatModel : DEFAULT_VISION_MODEL;
}

/** The model for a turn: the chat model, or a vision model when the message carries images. */
export function modelForTurn(chatModel: string, content: string | ContentPart[]): VisionTurn {
  if (!hasImages(content) || isVisionModel(chatModel)) {
    return { model: chatModel, switched: false, tools: findModel(chatModel)?.tools ?? true };
  }
  const model = visionModelFor(chatModel);
  return { model, switched: true, tools: findModel(model)?.tools ?? false };
}

const IMAGE_NOTE = '[an image was attached here; it was shown to a vision model, whose answer follows]';

/** Messages as a text model may receive them: image parts become a note, content a string. */
export function withoutImages(messages: Message[]): Message[] {
  if (!messages.some((m) => m.role === 'user' && Array.isArray(m.content))) return messages;
  return messages.map((m) => {
    if (m.role !== 'user' || !Array.isArray(m.content)) return m;
    const text = m.content.map((p) => (p.type === 'text' ? p.text : IMAGE_NOTE)).join('\n');
    return { role: 'user', content: text };
  });
}

/** Wrap a client so that only vision models ever receive image parts. */
export function imageSafe(llm: LlmClient): LlmClient {
  return {
    stream(req: ChatRequest) {
      if (isVisionModel(req.model)) return llm.stream(req);
      return llm.stream({ ...req, messages: withoutImages(req.messages) });
    },
  };
}
