/**
 * Files the page sends (drag-and-drop, the file picker, a pasted image): the raw body streamed to
 * `<connected folder>/zhi-uploads/<name>` with a cap counted as bytes arrive (a 2 GB body is
 * refused at its Content-Length, or cut off at the cap, never held in memory), under a safe name
 * that never replaces a file there. A message names them by id; they are read as `@file` is.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { lstat, mkdir, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { cappedBody, httpError } from './http.js';
import type { Router } from './router.js';
import { numberedName, safeUploadName } from './upload-name.js';

/** The largest upload: attachments are read up to their own caps; this bounds the disk. */
export const UPLOAD_LIMIT = 100 * 1024 * 1024;
export const UPLOADS_DIR = 'zhi-uploads';

export interface Upload {
  id: string;
  name: string;
  /** Absolute path. */
  path: string;
  size: number;
}

export class Uploads {
  private readonly byId = new Map<string, Upload>();

  get(id: string): Upload | undefined {
    return this.byId.get(id);
  }

  /**
   * Take one file from a request body into `folder`/zhi-uploads/, or into a folder of its own
   * there (`sub`, one safe name: the files dropped for one skill run, run on as a folder).
   */
  async receive(
    req: IncomingMessage,
    folder: string,
    rawName: string | undefined,
    limit = UPLOAD_LIMIT,
    rawSub?: string,
  ): Promise<Upload> {
    const name = decodeName(rawName);
    const sub = rawSub === undefined ? undefined : decodeName(rawSub);
    const base = join(folder, UPLOADS_DIR);
    const dir = sub === undefined ? base : join(base, sub);
    await mkdir(dir, { recursive: true });
    // A zhi-uploads (or a folder in it) that is a link (planted by a document, a tool) would lead the file elsewhere.
    for (const d of sub === undefined ? [base] : [base, dir])
      if ((await lstat(d)).isSymbolicLink())
        throw httpError(409, { what: { key: 'web.err.uploadName', params: { name: UPLOADS_DIR } } });
    const { path, out } = await openFresh(dir, name);
    let size = 0;
    try {
      for await (const chunk of cappedBody(req, Math.min(limit, testLimit(process.env)))) {
        size += chunk.length;
        if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
      }
      await new Promise<void>((resolve, reject) =>
        out.end((err?: Error | null) => (err ? reject(err) : resolve())),
      );
    } catch (err) {
      out.destroy();
      await rm(path, { force: true });
      throw err;
    }
    const upload = {
      id: randomBytes(9).toString('base64url'),
      name: path.slice(base.length + 1),
      path,
      size,
    };
    this.byId.set(upload.id, upload);
    return upload;
  }
}

function decodeName(raw: string | undefined): string {
  let name: string | undefined;
  try {
    name = decodeURIComponent(raw ?? '');
  } catch {
    // Not percent-encoded UTF-8: refused as it came.
  }
  if (name === undefined || !safeUploadName(name)) {
    name ??= raw ?? '';
    throw httpError(400, {
      what: { key: 'web.err.uploadName', params: { name: JSON.stringify(name).slice(1, -1).slice(0, 80) } },
      why: { key: 'web.err.uploadNameWhy' },
      tries: [{ key: 'web.err.uploadNameTry' }],
    });
  }
  return name;
}

/** A smaller cap in tests (`ZHI_UPLOAD_MAX_BYTES`, as ZHI_BATCH_MAX_BYTES shrinks the Batch API's). */
export function testLimit(env: NodeJS.ProcessEnv): number {
  const n = Number(env.ZHI_UPLOAD_MAX_BYTES);
  return env.ZHI_UPLOAD_MAX_BYTES && Number.isInteger(n) && n > 0 ? n : Number.POSITIVE_INFINITY;
}

/** A new file (never one that is there: `wx`), numbered when the name is taken. */
async function openFresh(dir: string, name: string) {
  for (let n = 1; n < 1000; n++) {
    const path = join(dir, numberedName(name, n));
    const out = createWriteStream(path, { flags: 'wx', mode: 0o600 });
    const opened = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
      out.once('open', () => resolve(undefined));
      out.once('error', (err) => resolve(err));
    });
    if (!opened) return { path, out };
    if (opened.code !== 'EEXIST') throw opened;
  }
  throw httpError(409, { what: { key: 'web.err.uploadName', params: { name } } });
}

/** What the upload route reads from the server's state (its own shape: state.ts names this module). */
interface UploadState {
  readonly uploads: Uploads;
  /** The connected folder, read at each upload: the settings page may change it. */
  readonly ctx: { readonly cwd: string };
}

export function uploadRoutes(router: Router, state: UploadState): void {
  router.add('POST', '/api/uploads', async ({ req }) => {
    const header = req.headers['x-file-name'];
    const sub = req.headers['x-upload-folder'];
    const upload = await state.uploads.receive(
      req,
      state.ctx.cwd,
      Array.isArray(header) ? header[0] : header,
      UPLOAD_LIMIT,
      Array.isArray(sub) ? sub[0] : sub,
    );
    return [
      201,
      { id: upload.id, name: upload.name, path: `${UPLOADS_DIR}/${upload.name}`, size: upload.size },
    ];
  });
}
