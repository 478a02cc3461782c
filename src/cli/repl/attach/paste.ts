import { rmSync } from 'node:fs';
import { t } from '../../../support/i18n/index.js';
import type { BuiltChat } from '../../chat.js';
import { readClipboardImage } from '../../clipboard-image.js';
import type { AppContext } from '../../context.js';
import { type AttachEnv, type Attachments, attachImage } from './attach.js';
import { makeAttachEnv } from './env.js';

/**
 * Ctrl+V and /paste: the clipboard's image joins the next message, through the same path as an
 * image named in a message (`@shot.png`). The temp file is gone once the image is read. False
 * (with a line saying why) when there is no clipboard tool, no image, or it cannot be attached.
 */
export async function pasteClipboardImage(
  ctx: AppContext,
  built: BuiltChat,
  into: Attachments,
  ui: Pick<AttachEnv, 'note' | 'confirm'> & { warn(line: string): void },
): Promise<boolean> {
  const got = readClipboardImage(ctx.env);
  if (got.kind === 'no-tool') {
    ui.warn(t('input.paste.noTool', { install: got.install }));
    return false;
  }
  if (got.kind === 'no-image') {
    ui.warn(t('input.paste.noImage'));
    return false;
  }
  try {
    const env = makeAttachEnv(ctx, built, ui);
    return await attachImage(got.file, t('input.paste.name'), got.bytes, env, into);
  } finally {
    rmSync(got.file, { force: true });
  }
}
