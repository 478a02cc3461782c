/**
 * Images named in a one-shot message (`zhi -c "what is in photo.png?"`): every existing JPG or
 * PNG the message mentions is attached as an image part, so the question reaches a vision model
 * with the picture. The path stays in the text (the model may still run ocr on it). An image
 * that cannot be sent (too large, too many pixels) is reported as a warning and the message goes
 * on as text. Only the user's own words are searched, not a document piped in after them.
 */
import { statSync } from 'node:fs';
import type { ContentPart } from '../llm/types.js';
import { ZhiError } from '../support/errors.js';
import { t } from '../support/i18n/index.js';
import { detectPaths } from './repl/attach/paths.js';

const IMAGE = /\.(png|jpe?g)$/i;
/** Only the start of a long message is searched (a pasted document is not a list of files). */
const SCAN_CHARS = 4000;

export interface MentionOptions {
  cwd: string;
  home: string;
  /** One informational line for the user (stderr). */
  note(line: string): void;
  /** One warning line for the user (stderr). */
  warn(line: string): void;
}

function size(n: number): string {
  return n < 1024 * 1024 ? `${Math.max(1, Math.round(n / 1024))} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export async function withMentionedImages(text: string, o: MentionOptions): Promise<string | ContentPart[]> {
  const words = (text.split('\n\n<document name="')[0] ?? '').slice(0, SCAN_CHARS);
  if (!/\.(png|jpe?g)/i.test(words)) return text;
  const isFile = (p: string) => statSync(p).isFile();
  const found = detectPaths(words, { cwd: o.cwd, home: o.home, isFile }).filter((m) => IMAGE.test(m.path));
  if (!found.length) return text;
  const { imagePart, VISION_LIMITS } = await import('../llm/vision.js');
  if (found.length > VISION_LIMITS.maxImages) {
    o.warn(t('vision.err.tooMany', { max: VISION_LIMITS.maxImages, count: found.length }));
  }
  const parts: ContentPart[] = [];
  for (const m of found.slice(0, VISION_LIMITS.maxImages)) {
    try {
      const image = await imagePart(m.path, m.raw);
      parts.push(image.part);
      o.note(t('vision.attached', { path: m.raw, size: size(image.bytes) }));
    } catch (err) {
      if (!(err instanceof ZhiError)) throw err;
      o.warn([err.whatText(), ...err.tryTexts()].join(' '));
    }
  }
  return parts.length ? [{ type: 'text', text }, ...parts] : text;
}
