/**
 * The page's files, from `dist/web/` beside the code (or inside a standalone executable), built
 * by scripts/build.mjs. Only plain names under that folder are served; a missing page is a small
 * placeholder saying the API works. No file here holds an inline script (the CSP forbids them).
 */
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { t } from '../../support/i18n/index.js';
import { packageRoot } from '../../support/install.js';

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  ico: 'image/x-icon',
  woff2: 'font/woff2',
  map: 'application/json; charset=utf-8',
};

/** `app.js`, `assets/logo.svg`: segments of letters, digits, `.`, `_`, `-`, none starting with a dot. */
const SAFE = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

interface Sea {
  isSea(): boolean;
  getAsset(key: string): ArrayBuffer;
}

async function readWebFile(name: string): Promise<Buffer | undefined> {
  try {
    const sea = process.getBuiltinModule?.('node:sea') as Sea | undefined;
    if (sea?.isSea()) return Buffer.from(sea.getAsset(`dist/web/${name}`));
  } catch {
    return undefined;
  }
  return readFile(join(packageRoot(), 'dist', 'web', name)).catch(() => undefined);
}

/** Serve one file of the page; false when there is no such file. */
export async function serveStatic(res: ServerResponse, path: string): Promise<boolean> {
  const name = path === '/' ? 'index.html' : path.slice(1);
  if (!SAFE.test(name)) return false;
  const body = await readWebFile(name);
  if (!body) {
    if (name !== 'index.html') return false;
    sendHtml(res, 200, placeholderPage());
    return true;
  }
  const ext = name.slice(name.lastIndexOf('.') + 1);
  res.writeHead(200, {
    'Content-Type': TYPES[ext] ?? 'application/octet-stream',
    'Content-Length': body.length,
    'Cache-Control': name === 'index.html' ? 'no-store' : 'no-cache',
  });
  res.end(body);
  return true;
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(html);
}

function page(title: string, paragraphs: string[]): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  return `<!doctype html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n<body>\n${body}\n</body></html>\n`;
}

/** Said to a browser that came without the secret, in both languages (its language is unknown). */
export function unauthorizedPage(): string {
  return page('zhi', [
    t('web.err.unauthorized', {}, 'en'),
    t('web.err.unauthorizedTry', {}, 'en'),
    t('web.err.unauthorized', {}, 'zh'),
    t('web.err.unauthorizedTry', {}, 'zh'),
  ]);
}

function placeholderPage(): string {
  return page('zhi', [t('web.placeholder', {}, 'en'), t('web.placeholder', {}, 'zh')]);
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
