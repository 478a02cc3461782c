/**
 * Why an MCP server failed, said in words: a command that is not installed, an address where
 * nothing answers, a server that did not answer in time — not "fetch failed" or a raw
 * `spawn … ENOENT`. The server's last lines of stderr follow, when it wrote any.
 */

import { proxyInUse } from '../../llm/http.js';
import { type Language, t } from '../../support/i18n/index.js';
import type { McpServerConfig } from '../../support/mcp-config.js';
import { usesOAuth } from './transports.js';

/** The SDK's codes: a request that timed out, a connection closed under a request. */
const REQUEST_TIMEOUT = -32001;
const CONNECTION_CLOSED = -32000;

interface ErrorLike {
  message?: string;
  code?: string | number;
  syscall?: string;
  cause?: unknown;
}

/** The innermost cause with a system error code (`fetch failed` wraps ECONNREFUSED in `cause`). */
function systemCause(err: unknown): ErrorLike | undefined {
  let e = err as ErrorLike | undefined;
  for (let i = 0; e && i < 5; i++) {
    if (typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code)) return e;
    e = e.cause as ErrorLike | undefined;
  }
  return undefined;
}

/** The cause alone, in `lang` (English for the model, the person's language for warnings). */
export function mcpCause(err: unknown, config: McpServerConfig, timeoutS: number, lang?: Language): string {
  const e = (err ?? {}) as ErrorLike;
  const sys = systemCause(err);
  const url = config.url ?? '';
  const command = config.command ?? '';
  if ((err as { name?: string } | undefined)?.name === 'McpLoginNeeded')
    return t('mcp.cause.login', { server: (err as { server: string }).server }, lang);
  if ((err as { name?: string } | undefined)?.name === 'UnauthorizedError')
    return t('mcp.cause.unauthorized', { url }, lang);
  if (sys?.syscall?.startsWith('spawn')) {
    if (sys.code === 'ENOENT') return t('mcp.cause.noCommand', { command }, lang);
    if (sys.code === 'EACCES') return t('mcp.cause.noPermission', { command }, lang);
  }
  const proxied = url ? proxyCause(err, sys, url, lang) : undefined;
  if (proxied) return proxied;
  if (sys?.code === 'ECONNREFUSED') return t('mcp.cause.refused', { url }, lang);
  if (sys?.code === 'ENOTFOUND' || sys?.code === 'EAI_AGAIN') {
    return t('mcp.cause.noHost', { host: hostOf(url) }, lang);
  }
  if (e.code === REQUEST_TIMEOUT) return t('mcp.cause.timeout', { seconds: timeoutS }, lang);
  if (e.code === CONNECTION_CLOSED) return t('mcp.cause.stoppedAtStart', {}, lang);
  // A sign-in the server asks for but zhi cannot do (no OAuth metadata, an answer that is not OAuth's).
  const unauthorized = e.code === 401 || /^HTTP 401\b|Invalid OAuth error response/.test(e.message ?? '');
  if (url && unauthorized && usesOAuth(config)) return t('mcp.cause.noOAuth', { url }, lang);
  if (url && unauthorized) return t('mcp.cause.http', { url, status: 401 }, lang);
  // The SDK's HTTP errors carry the status as their code (JSON-RPC codes are negative).
  if (url && typeof e.code === 'number' && e.code >= 400 && e.code < 600)
    return t('mcp.cause.http', { url, status: e.code }, lang);
  // A web page where an MCP server should be (a login page, the site's home page).
  if (
    url &&
    /Unexpected content type: text\/html|^(SSE|Streamable HTTP) error: .*<(!doctype|html)/is.test(
      e.message ?? '',
    )
  )
    return t('mcp.cause.notMcp', { url }, lang);
  const status = /\(HTTP (\d{3})\)/.exec(e.message ?? '')?.[1];
  if (status) return t('mcp.cause.http', { url, status }, lang);
  if (sys && url) return t('mcp.cause.network', { url, detail: sys.message ?? String(sys.code) }, lang);
  const message = e.message ?? String(err);
  // fetch's own words are "fetch failed"; what failed is in its cause (a proxy that refused, a bad port).
  if (message === 'fetch failed' && url) return t('mcp.cause.network', { url, detail: innermost(e) }, lang);
  return message;
}

/**
 * The proxy in the way (HTTPS_PROXY / HTTP_PROXY): it refused the tunnel to the server (undici:
 * "Proxy response (403) !== 200 when HTTP Tunneling"), or nothing answers at the proxy itself.
 * The proxy is named by host and port only (its URL may hold a password).
 */
function proxyCause(
  err: unknown,
  sys: ErrorLike | undefined,
  url: string,
  lang?: Language,
): string | undefined {
  const proxy = proxyInUse();
  if (!proxy) return undefined;
  const shown = hostOf(proxy);
  const status = /Proxy response \((\d{3})\)/.exec(innermost((err ?? {}) as ErrorLike))?.[1];
  if (status) return t('mcp.cause.proxyRefused', { proxy: shown, url, status }, lang);
  const at = sys as (ErrorLike & { address?: string; port?: number }) | undefined;
  if (at?.code === 'ECONNREFUSED' && at.port !== undefined && `${at.port}` === portOf(proxy)) {
    return t('mcp.cause.proxyDown', { proxy: shown, url }, lang);
  }
  return undefined;
}

function portOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.port || (u.protocol === 'https:' ? '443' : '80');
  } catch {
    return undefined;
  }
}

/** The cause, and what the server wrote on stderr last (its own words often say more). */
export function withStderr(cause: string, stderr: string, lang?: Language): string {
  const said = stderrGist(stderr).join(' | ');
  return said ? t('mcp.cause.serverSaid', { cause, said }, lang) : cause;
}

/**
 * The last few lines a server wrote that a person can read: a crashed Node or Python server's
 * stack frames, its source line with the caret under it, and the runtime's version line are
 * left out (the error line itself is kept).
 */
export function stderrGist(stderr: string, count = 3): string[] {
  const noise = [
    /^\s+at\s/, // a Node stack frame
    /^\s*File ".*", line \d+/, // a Python traceback frame
    /^Traceback \(most recent call last\)/,
    /^\s*\^+\s*$/, // the caret under the failing source line
    /^Node\.js v\d/,
    /^(file:\/\/|\/|[A-Za-z]:\\).*:\d+$/, // the file:line above the source line
  ];
  const lines = stderr.split('\n').map((l) => l.trimEnd());
  const kept = lines.filter((l, i) => l.trim() && !noise.some((re) => re.test(l)) && !isSourceLine(lines, i));
  return kept.slice(-count);
}

/** A line of source code or its place: Node prints both above a caret, Python the code below a frame. */
function isSourceLine(lines: string[], i: number): boolean {
  const caret = (l: string | undefined) => /^\s*\^+\s*$/.test(l ?? '');
  const blankThenCaret = !lines[i + 1]?.trim() && caret(lines[i + 2]);
  return (
    caret(lines[i + 1]) ||
    caret(lines[i + 2]) ||
    blankThenCaret ||
    /^\s*File ".*", line \d+/.test(lines[i - 1] ?? '')
  );
}

function innermost(e: ErrorLike): string {
  let last = e;
  for (let i = 0; last.cause && typeof last.cause === 'object' && i < 5; i++) last = last.cause as ErrorLike;
  return last.message ?? String(last);
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
