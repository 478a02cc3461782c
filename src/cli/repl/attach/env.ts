import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import type { ChatSession } from '../../../agent/chat.js';
import type { AppContext } from '../../context.js';
import { type AttachEnv, MAX_ATTACH_BYTES } from './attach.js';

/** The real attachment environment: the file system, the document readers, OCR and vision. */
export function makeAttachEnv(
  ctx: AppContext,
  _chat: ChatSession,
  ui: Pick<AttachEnv, 'note' | 'confirm'>,
): AttachEnv {
  return {
    cwd: ctx.cwd,
    home: ctx.env.HOME || homedir(),
    isFile: (p) => statSync(p).isFile(),
    fileSize: (p) => statSync(p).size,
    note: ui.note,
    confirm: ui.confirm,
    async readDocument(path) {
      const { readDocument } = await import('../../../tools/readers/index.js');
      return readDocument(path, { maxBytes: MAX_ATTACH_BYTES });
    },
    errorCode: (err) =>
      err && typeof err === 'object' && 'code' in err && typeof (err as { code: unknown }).code === 'string'
        ? (err as { code: string }).code
        : undefined,
  };
}
