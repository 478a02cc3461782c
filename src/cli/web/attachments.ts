/**
 * The files attached to a message on the page (uploads, by id): read exactly as `@file` in the
 * terminal is (attachFromMessage with the REPL's environment: the same readers, caps, OCR offer,
 * refusals), their notes sent to the conversation's tabs, a paid read's price asked as a question.
 */
import type { ContentPart } from '../../llm/types.js';
import { t } from '../../support/i18n/index.js';
import type { BuiltChat } from '../chat.js';
import type { AppContext } from '../context.js';
import { attachFromMessage, buildContent, emptyAttachments } from '../repl/attach/attach.js';
import { makeAttachEnv } from '../repl/attach/env.js';
import type { Approvals } from './approvals.js';
import type { EventChannel } from './channel.js';
import { httpError } from './http.js';
import type { Uploads } from './uploads.js';

export interface Attaching {
  ctx: AppContext;
  built: BuiltChat;
  channel: EventChannel;
  approvals: Approvals;
  uploads: Uploads;
  signal: AbortSignal;
}

/** The uploads' paths, or 400 for an id this server did not give. */
export function uploadPaths(uploads: Uploads, ids: readonly string[]): string[] {
  return ids.map((id) => {
    const upload = uploads.get(id);
    if (!upload) throw httpError(400, { what: { key: 'web.err.noUpload', params: { id } } });
    return upload.path;
  });
}

/** The message with its attachments, as the REPL would send it. */
export async function withAttachments(
  text: string,
  paths: readonly string[],
  a: Attaching,
): Promise<string | ContentPart[]> {
  if (!paths.length) return text;
  const prompter = a.approvals.prompter(a.channel);
  const env = makeAttachEnv(
    a.ctx,
    a.built,
    {
      note: (line) => a.channel.emit('note', { text: line }),
      confirm: (question) => prompter.ask({ message: question.replace(/\s*\[Y\/n\]\s*$/, '') }, a.signal),
    },
    a.signal,
  );
  const into = emptyAttachments();
  for (const path of paths) await attachFromMessage(`"${path}"`, env, into);
  if (!into.names.length) a.channel.emit('note', { text: t('web.err.noAttachment') });
  return buildContent(text, into);
}
