/**
 * web_fetch: read a public web page. Every hop (the first request and each redirect, at most 5)
 * is checked by ssrf.ts and connects only to the address that was checked. The body is read as
 * a stream and reading stops at the size cap; HTML becomes Markdown, other text passes through,
 * binary is refused. The result is capped at 50 KB with a marker.
 */

import { isIP } from 'node:net';
import { pipeline } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { z } from 'zod';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import { formatBytes, truncateText } from '../../support/text.js';
import { untrusted } from '../../support/untrusted.js';
import { ALWAYS_SITE, type Tool, type ToolContext, ToolError } from '../types.js';
import { contentKind, decodeBody, htmlTitle, htmlToMarkdown, mimeOf } from './content.js';
import { WEB_FETCH_TOOL } from './entries.js';
import { type Connector, type HopResponse, pinnedConnector } from './http-pinned.js';
import type { Resolver } from './ssrf.js';

export const MAX_REDIRECTS = 5;
export const TIMEOUT_MS = 30_000;
/** Bytes read from the network (after decompression) before reading stops. */
export const MAX_DOWNLOAD_BYTES = 5 * 1024 * 1024;
export const MAX_RESULT_BYTES = 50 * 1024;
const USER_AGENT = `zhi/${typeof __ZHI_VERSION__ === 'string' ? __ZHI_VERSION__ : 'dev'} (web_fetch)`;

export interface WebFetchDeps {
  resolve?: Resolver;
  connect?: Connector;
  timeoutMs?: number;
  maxDownloadBytes?: number;
  onRedirect?(to: URL): void;
  /**
   * May a redirect to another site be followed without asking? (The egress rule: an address the
   * person typed or a site they allowed, carrying no data.) Absent: never.
   */
  mayFollow?(url: string): boolean;
}

const schema = z.object({
  url: z.string().trim().min(1).max(4000),
});

export interface Page {
  url: URL;
  status: number;
  contentType: string | undefined;
  bytes: Buffer;
  /** Reading stopped at the download cap. */
  cut: boolean;
  redirects: string[];
}

/** GET a URL, following redirects by hand, every hop checked and pinned. */
export async function fetchChecked(raw: string, signal: AbortSignal, deps: WebFetchDeps = {}): Promise<Page> {
  // Loaded on first use: ipaddr.js is not needed to start a chat.
  const { checkUrl, parseTarget, systemResolver } = await import('./ssrf.js');
  const resolve = deps.resolve ?? systemResolver;
  const connect = deps.connect ?? pinnedConnector;
  const cap = deps.maxDownloadBytes ?? MAX_DOWNLOAD_BYTES;
  let current = parseTarget(raw).url;
  let previous: URL | undefined;
  const redirects: string[] = [];
  for (;;) {
    const target = await checkUrl(current, resolve);
    if (previous) followable(previous, current, deps);
    let res: HopResponse;
    try {
      res = await connect({
        target,
        signal,
        headers: {
          'user-agent': USER_AGENT,
          accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5',
          'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8',
          'accept-encoding': 'gzip, deflate, br',
        },
      });
    } catch (err) {
      throw networkFailure(current, err, signal);
    }
    const location = header(res, 'location');
    if ([301, 302, 303, 307, 308].includes(res.status) && location) {
      res.close();
      previous = current;
      current = nextHop(current, location, [raw, ...redirects]);
      redirects.push(current.href);
      deps.onRedirect?.(current);
      continue;
    }
    const contentType = header(res, 'content-type');
    try {
      const { bytes, cut } = await readCapped(res, cap, contentType, signal);
      return { url: current, status: res.status, contentType, bytes, cut, redirects };
    } catch (err) {
      if (err instanceof ToolError) throw err;
      throw networkFailure(current, err, signal);
    } finally {
      res.close();
    }
  }
}

/**
 * Where a redirect leads, or why it is not followed: past MAX_REDIRECTS, or back to an address
 * already visited (a loop). The caller's loop checks the hop against SSRF like the first request.
 */
function nextHop(current: URL, location: string, visited: string[]): URL {
  if (visited.length > MAX_REDIRECTS) {
    throw new ToolError(
      `Stopped after ${MAX_REDIRECTS} redirects (last: ${current.href}). The page keeps redirecting.`,
    );
  }
  let next: URL;
  try {
    next = new URL(location, current);
  } catch {
    throw new ToolError(`${current.href} redirects to an invalid address (${location.slice(0, 200)}).`);
  }
  next.hash = '';
  const seen = visited.map((v) => normalHref(v));
  if (next.href === normalHref(current.href) || seen.includes(next.href)) {
    throw new ToolError(
      `${current.href} redirects in a loop (back to ${next.href}); the page cannot be read.`,
    );
  }
  return next;
}

function normalHref(raw: string): string {
  try {
    const u = new URL(raw.trim());
    u.hash = '';
    return u.href;
  } catch {
    return raw;
  }
}

/**
 * A redirect to another site is a new site: followed only when the egress rule lets zhi reach it
 * unasked (an address the person typed, or a site they allowed, carrying no data). Otherwise the
 * model is told the address, and fetching it is a new call, decided like any other.
 */
function followable(from: URL, to: URL, deps: WebFetchDeps): void {
  if (sameSite(from, to) || deps.mayFollow?.(to.href)) return;
  throw new ToolError(
    `${from.href} redirects to another site: ${to.href}. It was not followed, because zhi sends ` +
      'no request to a new site unasked. If that page is still needed, call web_fetch with that ' +
      'address (the user may be asked).',
  );
}

/** The same host, `www.` or not: a redirect there needs no new decision. */
function sameSite(a: URL, b: URL): boolean {
  const host = (u: URL) =>
    u.hostname
      .toLowerCase()
      .replace(/^www\./, '')
      .replace(/\.$/, '');
  return host(a) === host(b);
}

function header(res: HopResponse, name: string): string | undefined {
  const v = res.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function networkFailure(url: URL, err: unknown, signal: AbortSignal): ToolError {
  if (signal.aborted) {
    const reason = signal.reason as Error | undefined;
    if (reason?.name === 'TimeoutError')
      return new ToolError(`${url.href} did not answer within ${TIMEOUT_MS / 1000} s.`);
    return new ToolError('Interrupted.');
  }
  const e = err as Error & { code?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  const detail = [code, e.cause?.message ?? e.message].filter(Boolean).join(': ');
  return new ToolError(`Could not fetch ${url.href}: ${detail || 'network error'}.`);
}

/** Read the body, decompressing, and stop at `cap` bytes (the rest is never downloaded). */
async function readCapped(
  res: HopResponse,
  cap: number,
  contentType: string | undefined,
  signal: AbortSignal,
): Promise<{ bytes: Buffer; cut: boolean }> {
  const encoding = (header(res, 'content-encoding') ?? '').trim().toLowerCase();
  let stream: AsyncIterable<Uint8Array> = res.body;
  // pipeline, not pipe: a body that fails mid-way (a reset connection) ends the loop below with
  // its error instead of an unhandled 'error' event.
  const inflate =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (inflate) stream = pipeline(res.body, inflate, () => {});
  const chunks: Buffer[] = [];
  let size = 0;
  let cut = false;
  let checked = false;
  for await (const chunk of stream) {
    if (signal.aborted) throw signal.reason ?? new Error('aborted');
    const buf = Buffer.from(chunk);
    if (!checked) {
      checked = true;
      // Binary is refused on its first bytes, before more is downloaded.
      if (contentKind(contentType, buf) === 'binary') {
        const length = header(res, 'content-length');
        const size = length ? `, ${formatBytes(Number(length))}` : '';
        throw new ToolError(
          `The response is binary (${mimeOf(contentType) || 'unknown type'}${size}), and web_fetch reads only web pages and text. ` +
            'If it is a PDF or an image, ask the user to download it into the current folder and use ocr on it.',
        );
      }
    }
    if (size + buf.length > cap) {
      chunks.push(buf.subarray(0, cap - size));
      size = cap;
      cut = true;
      break;
    }
    chunks.push(buf);
    size += buf.length;
  }
  inflate?.destroy();
  return { bytes: Buffer.concat(chunks), cut };
}

/** Turn a fetched page into the text the model reads. */
export async function renderPage(
  page: Page,
  maxBytes = MAX_RESULT_BYTES,
): Promise<{ text: string; isError: boolean }> {
  const kind = contentKind(page.contentType, page.bytes);
  const body = decodeBody(page.bytes, page.contentType, kind);
  const lines = [`URL: ${page.url.href}`];
  if (page.redirects.length)
    lines.push(`(redirected ${page.redirects.length} time${page.redirects.length > 1 ? 's' : ''})`);
  let text = body;
  if (kind === 'html') {
    const title = htmlTitle(body);
    if (title) lines.push(`Title: ${title}`);
    text = await htmlToMarkdown(body, page.url);
  } else if (page.contentType) {
    lines.push(`Content-Type: ${mimeOf(page.contentType)}`);
  }
  const isError = page.status >= 400;
  if (isError) lines.unshift(`HTTP ${page.status}: the server answered with an error for this page.`);
  if (page.cut)
    lines.push(
      `(the page is larger than ${formatBytes(page.bytes.length)}; only its beginning was downloaded)`,
    );
  if (!text.trim())
    text =
      kind === 'html'
        ? '(the page has no readable text; it may need JavaScript to show its content)'
        : '(empty)';
  const head = `${lines.join('\n')}\n\n`;
  // Room for the boundary around the page (support/untrusted.ts).
  const capped = truncateText(text, Math.max(1024, maxBytes - Buffer.byteLength(head) - 512));
  return { text: head + untrusted(capped.text, `web page ${page.url.href}`), isError };
}

export function createWebFetch(deps: WebFetchDeps = {}): Tool<typeof schema> {
  return {
    name: WEB_FETCH_TOOL.name,
    traits: WEB_FETCH_TOOL.traits,
    description: [
      'Fetch a public http(s) page as text (HTML as Markdown), no binaries or private addresses.',
      `≤ ${formatBytes(MAX_RESULT_BYTES)}.`,
    ].join(' '),
    schema,
    kind: 'read',
    label: (args) => {
      try {
        return new URL(args.url).host;
      } catch {
        return args.url.slice(0, 60);
      }
    },
    egress: (args) => [{ kind: 'url', url: args.url }],
    // An address that would be refused anyway is refused before anyone is asked about it.
    // The question offers "always for this site" (remembered for the session by the loop; it
    // covers addresses there that carry no data).
    async assess(args) {
      const { checkUrl, parseTarget } = await import('./ssrf.js');
      let host: string;
      try {
        const { hostname } = parseTarget(args.url);
        if (isIP(hostname)) await checkUrl(args.url);
        host = hostname;
      } catch (err) {
        if (err instanceof ToolError && /^Refused to fetch /.test(err.message))
          return { refuse: err.message.replace(/^Refused to fetch /, 'fetching ') };
        return {};
      }
      return {
        choices: [{ key: 'a', label: t('safety.fetch.always', { host: visible(host) }), grant: ALWAYS_SITE }],
      };
    },
    preview: (args) => fetchPreview(args.url),
    async execute(args, ctx: ToolContext) {
      const timeoutMs = deps.timeoutMs ?? TIMEOUT_MS;
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(timeoutMs)]);
      const page = await fetchChecked(args.url, signal, {
        ...deps,
        timeoutMs,
        onRedirect: (to) => ctx.progress(t('web.redirect', { host: to.host })),
        mayFollow: (url) => ctx.mayReach?.(url) ?? false,
      });
      const { text, isError } = await renderPage(page);
      return { content: text, isError };
    },
  };
}

export default createWebFetch();

/** Data after "?" longer than this is pointed out in the question: it may carry something out. */
export const LONG_QUERY = 200;

/**
 * The question's body: the whole address (sanitized, never shortened: what is in it is what
 * leaves the computer) and the site an "always" would cover.
 */
export function fetchPreview(raw: string): string {
  const lines = [t('safety.fetch.address', { url: visible(raw.trim()) })];
  try {
    const u = new URL(raw.trim());
    lines.push(t('safety.fetch.site', { host: visible(u.hostname) }));
    const query = u.search.length > 1 ? u.search.length - 1 : 0;
    if (query > LONG_QUERY) lines.push(t('safety.fetch.longQuery', { n: query }));
  } catch {
    // Not a URL: the tool will say so when it runs; the question shows the text as given.
  }
  return lines.join('\n');
}
