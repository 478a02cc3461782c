import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename } from 'node:path';
import type { Cost } from '../../../llm/models.js';
import { ZERO_USAGE } from '../../../llm/types.js';
import { visionModelFor } from '../../../llm/vision.js';
import { ZhiError } from '../../../support/errors.js';
import { truncateText } from '../../../support/text.js';
import type { BuiltChat } from '../../chat.js';
import type { AppContext } from '../../context.js';
import { type AttachEnv, MAX_ATTACH_BYTES } from './attach.js';

/** A ZhiError's sentence, or an error's message (what the user should read about a failed file). */
function explain(err: unknown): Error {
  if (err instanceof ZhiError)
    return new Error([err.whatText(), err.whyText(), ...err.tryTexts()].filter(Boolean).join(' '));
  return err instanceof Error ? err : new Error(String(err));
}

/** The code of a reader's error (`no_text_layer` for scans), if it has one. */
function errorCode(err: unknown): string | undefined {
  return err && typeof err === 'object' && 'code' in err && typeof err.code === 'string'
    ? err.code
    : undefined;
}

/** A call whose price zhi does not know: counted, marked as an estimate. */
function unknownCost(ctx: AppContext): Cost {
  return { amount: 0, currency: ctx.platform.currency, covered: ctx.platform.coveredByPlan, approx: true };
}

/**
 * A paid read's price is said first, by the one rule (cli/price-consent.ts): /auto agrees in
 * advance, otherwise the person is asked here, at the prompt the attachment was typed at.
 */
async function agreeToPriceHere(
  line: string,
  chat: BuiltChat['chat'],
  ui: Pick<AttachEnv, 'note' | 'confirm'>,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  const { agreeToPrice } = await import('../../price-consent.js');
  return agreeToPrice(line, {
    prompter: { interactive: true, ask: (q) => ui.confirm(`${q.message} [Y/n] `) },
    write: ui.note,
    signal: signal ?? new AbortController().signal,
    agreed: chat.settings.mode === 'auto',
  });
}

/**
 * A scan read by GLM-OCR (paid): its pages are counted, the price asked by the one rule, then it
 * is uploaded; undefined when the person declined. Its usage is counted in the session and
 * recorded by the chat's consumers.
 */
async function ocrHere(
  client: NonNullable<BuiltChat['client']>,
  path: string,
  chat: BuiltChat['chat'],
  ui: Pick<AttachEnv, 'note' | 'confirm'>,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  const { ocrFile } = await import('../../../tools/ocr/ocr.js');
  const { OCR_MODEL } = await import('../../../llm/ocr.js');
  const { t } = await import('../../../support/i18n/index.js');
  const { visible } = await import('../../../support/sanitize.js');
  const name = basename(path);
  let declined = false;
  try {
    const doc = await ocrFile(client, path, {
      display: name,
      ...(signal ? { signal } : {}),
      async onPages(pages) {
        const line = t('ocr.price', { name: visible(name), pages: pages ?? 1 });
        declined = !(await agreeToPriceHere(line, chat, ui, signal));
        if (declined) throw new Error('declined');
      },
    });
    const cost = chat.deps.usage.add(OCR_MODEL, doc.usage);
    chat.consume({ type: 'usage', model: OCR_MODEL, usage: doc.usage, cost });
    return truncateText(doc.markdown, MAX_ATTACH_BYTES).text;
  } catch (err) {
    if (declined) return undefined;
    throw explain(err);
  }
}

/** A paid read's priced cost, counted in the session's usage and recorded by the chat's consumers. */
function countPaid(
  ctx: AppContext,
  chat: BuiltChat['chat'],
  got: { model: string; cost: Cost | undefined },
): void {
  const cost = chat.deps.usage.addPriced(got.model, got.cost ?? unknownCost(ctx));
  chat.consume({ type: 'usage', model: got.model, usage: { ...ZERO_USAGE }, cost });
}

/**
 * The real attachment environment: the file system, the document readers (text, Word, Excel,
 * PDF), GLM-OCR for scans and the vision helper for images. Files named by the user may be
 * anywhere (a drag from the desktop): reading them here is the user's own act, unlike the
 * model's file_read, which stays inside the current folder.
 */
export function makeAttachEnv(
  ctx: AppContext,
  { chat, client }: BuiltChat,
  ui: Pick<AttachEnv, 'note' | 'confirm'>,
  signal?: AbortSignal,
): AttachEnv {
  return {
    cwd: ctx.cwd,
    home: ctx.env.HOME || homedir(),
    isFile: (p) => statSync(p).isFile(),
    fileSize: (p) => statSync(p).size,
    note: ui.note,
    confirm: ui.confirm,
    async readDocument(path) {
      const { readDocument } = await import('../../../tools/files/readers/index.js');
      // The person attached it themselves: what it holds is theirs to send.
      return readDocument(path, {
        maxBytes: MAX_ATTACH_BYTES,
        allowSecrets: true,
        ...(signal ? { signal } : {}),
      });
    },
    errorCode,
    ocr: client ? (path) => ocrHere(client, path, chat, ui, signal) : undefined,
    transcribe: client
      ? async (path) => {
          const { transcribeFile, DeclinedError, formatDuration } = await import(
            '../../../tools/asr/transcribe.js'
          );
          const { audioPriceLine } = await import('../../price-consent.js');
          try {
            const got = await transcribeFile(client, path, {
              display: basename(path),
              platform: ctx.platform,
              ...(signal ? { signal } : {}),
              consent: (estimate) => agreeToPriceHere(audioPriceLine(estimate), chat, ui, signal),
            });
            countPaid(ctx, chat, got);
            return {
              text: truncateText(got.text, MAX_ATTACH_BYTES).text,
              duration: formatDuration(got.seconds),
            };
          } catch (err) {
            if (err instanceof DeclinedError) return undefined;
            throw explain(err);
          }
        }
      : undefined,
    parse: client
      ? async (path) => {
          const { parseOnPlatform, ParseDeclined } = await import('../../../tools/files/platform-parse.js');
          const { parsePriceLine } = await import('../../price-consent.js');
          try {
            const got = await parseOnPlatform(client, path, {
              display: basename(path),
              platform: ctx.platform,
              ...(signal ? { signal } : {}),
              consent: (estimate) => agreeToPriceHere(parsePriceLine(estimate), chat, ui, signal),
            });
            countPaid(ctx, chat, got);
            return truncateText(got.text, MAX_ATTACH_BYTES).text;
          } catch (err) {
            if (err instanceof ParseDeclined) return undefined;
            throw explain(err);
          }
        }
      : undefined,
    async imagePart(path) {
      const { imagePart } = await import('../../../llm/vision.js');
      try {
        return (await imagePart(path, basename(path))).part;
      } catch (err) {
        throw explain(err);
      }
    },
    visionModel: visionModelFor(chat.settings.model),
  };
}
