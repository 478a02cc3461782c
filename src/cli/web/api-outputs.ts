/**
 * The output folder on the page: the files runs wrote, a download, a preview, and "open" in the
 * system's own application. Every path is resolved by the one containment rule
 * (tools/paths.ts resolveReadPath) against the output folder: no `..`, no absolute path, no link
 * out, no secret file.
 */
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { resolveReadPath } from '../../tools/paths.js';
import { httpError, readJson, str } from './http.js';
import { previewOf } from './preview.js';
import type { Router } from './router.js';
import type { WebState } from './state.js';

const MAX_LISTED = 2000;
/** What "open" hands to the system: documents, never programs or scripts (a model wrote these files). */
const OPENABLE = new Set(
  '.md .txt .csv .tsv .xlsx .xls .docx .doc .pptx .ppt .pdf .odt .ods .odp .rtf .png .jpg .jpeg .gif .webp .bmp .mp3 .wav .m4a .json'.split(
    ' ',
  ),
);

interface Listed {
  path: string;
  size: number;
  mtime: string;
  kind: string;
}

async function list(root: string): Promise<Listed[]> {
  const out: Listed[] = [];
  const walk = async (dir: string, rel: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (out.length >= MAX_LISTED || entry.name.startsWith('.')) continue;
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory() && depth < 6) await walk(join(dir, entry.name), path, depth + 1);
      else if (entry.isFile()) {
        const st = await stat(join(dir, entry.name)).catch(() => undefined);
        if (st)
          out.push({
            path,
            size: st.size,
            mtime: st.mtime.toISOString(),
            kind: extname(entry.name).slice(1).toLowerCase(),
          });
      }
    }
  };
  await walk(root, '', 0);
  return out.sort((a, b) => (a.mtime < b.mtime ? 1 : a.mtime > b.mtime ? -1 : 0));
}

/** The output file a request names, contained in the output folder; 404 otherwise. */
async function outputFile(state: WebState, path: string | null | undefined): Promise<string> {
  const shown = path ?? '';
  let abs: string;
  try {
    abs = (await resolveReadPath(state.ctx.outputDir, shown)).abs;
  } catch {
    throw httpError(404, { what: { key: 'web.err.outputPath', params: { path: shown } } });
  }
  const st = await stat(abs).catch(() => undefined);
  if (!st?.isFile())
    throw httpError(404, { what: { key: 'web.err.outputMissing', params: { path: shown } } });
  return abs;
}

export function outputRoutes(router: Router, state: WebState): void {
  router.add('GET', '/api/outputs', async () => [200, await list(state.ctx.outputDir)]);
  router.add('GET', '/api/outputs/file', async ({ url, res }) => {
    const abs = await outputFile(state, url.searchParams.get('path'));
    const name = basename(abs);
    res.writeHead(200, {
      'Content-Type': 'application/octet-stream',
      'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
      'Content-Length': (await stat(abs)).size,
      'Cache-Control': 'no-store',
    });
    createReadStream(abs).pipe(res);
    return undefined;
  });
  router.add('GET', '/api/outputs/preview', async ({ url }) => {
    const path = url.searchParams.get('path') ?? '';
    const abs = await outputFile(state, path);
    const preview = await previewOf(abs).catch(() => undefined);
    if (!preview) throw httpError(415, { what: { key: 'web.err.preview', params: { path } } });
    return [200, preview];
  });
  router.add('POST', '/api/outputs/open', async ({ req }) => {
    const path = str(await readJson(req), 'path') ?? '';
    const abs = await outputFile(state, path);
    if (!OPENABLE.has(extname(abs).toLowerCase()))
      throw httpError(400, {
        what: { key: 'web.err.openFailed', params: { path, reason: extname(abs) || '?' } },
      });
    await openWithSystem(abs).catch((err: Error) => {
      throw httpError(500, { what: { key: 'web.err.openFailed', params: { path, reason: err.message } } });
    });
    return [200, { ok: true }];
  });
}

/** The system's application for a file (no shell: the path is one argument). */
export function openWithSystem(target: string): Promise<void> {
  const [cmd, args] =
    process.platform === 'win32'
      ? ['explorer.exe', [target]]
      : process.platform === 'darwin'
        ? ['open', [target]]
        : ['xdg-open', [target]];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.once('error', reject);
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
