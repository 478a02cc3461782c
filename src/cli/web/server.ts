/**
 * The local server of `zhi web` / `zhi serve` (docs/web-api.md): Node's own http server on
 * 127.0.0.1, every request judged first (guard.ts: Host, Origin, the secret, CSRF), every
 * response with the security headers, then the page's files or the API's routes.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { log } from '../../support/log.js';
import { PING_MS } from './channel.js';
import { cookieName, judge, type Verdict } from './guard.js';
import {
  errorBody,
  type HttpError,
  httpError,
  notFound,
  securityHeaders,
  sendError,
  sendJson,
} from './http.js';
import { Router } from './router.js';
import type { WebState } from './state.js';
import { sendHtml, serveStatic, unauthorizedPage } from './static.js';

export interface RunningServer {
  port: number;
  secret: string;
  /** The page's address, carrying the secret (the first line `zhi serve` prints). */
  url: string;
  close(): Promise<void>;
}

/** A route module: adds its routes to the table. */
export type Routes = (router: Router, state: WebState) => void;

export async function startServer(state: WebState, routes: Routes[], port: number): Promise<RunningServer> {
  const secret = randomBytes(32).toString('base64url');
  const router = new Router();
  for (const add of routes) add(router, state);
  let bound = 0;
  const server = createServer((req, res) => {
    handle(req, res, { router, secret, port: bound }).catch((err) => {
      log().warn('web request failed', err);
      sendError(res, err);
    });
  });
  // Slow or stuck clients do not hold the server; SSE streams are exempt (no request timeout).
  server.headersTimeout = 20_000;
  server.requestTimeout = 0;
  await listen(server, port);
  bound = (server.address() as AddressInfo).port;
  const ping = setInterval(() => {
    state.conversations.ping();
    state.skillRuns.ping();
  }, PING_MS);
  ping.unref();
  return {
    port: bound,
    secret,
    url: `http://127.0.0.1:${bound}/?token=${secret}`,
    close: async () => {
      clearInterval(ping);
      await Promise.all([state.conversations.close(), state.skillRuns.close()]);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

interface Shared {
  router: Router;
  secret: string;
  port: number;
}

async function handle(req: IncomingMessage, res: ServerResponse, s: Shared): Promise<void> {
  securityHeaders(res);
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const method = req.method ?? 'GET';
  const token = url.pathname === '/' ? (url.searchParams.get('token') ?? undefined) : undefined;
  const verdict = judge(
    {
      method,
      path: url.pathname,
      host: req.headers.host,
      origin: header(req, 'origin'),
      fetchSite: header(req, 'sec-fetch-site'),
      fetchMode: header(req, 'sec-fetch-mode'),
      cookie: req.headers.cookie,
      authorization: req.headers.authorization,
    },
    s.port,
    s.secret,
    token,
  );
  if (!verdict.ok) return refuse(req, res, url, verdict);
  if (token !== undefined) {
    acceptToken(req, res, s);
    return;
  }
  if (url.pathname === '/favicon.ico') {
    res.writeHead(204);
    res.end();
    return;
  }
  if (url.pathname.startsWith('/api/') || url.pathname === '/openapi.json') {
    const { handler, params } = s.router.find(method, url.pathname);
    const answer = await handler({ req, res, params, url });
    if (answer) sendJson(res, answer[0], answer[1]);
    return;
  }
  if (method !== 'GET' && method !== 'HEAD') throw httpError(405, { what: { key: 'web.err.method' } });
  if (!(await serveStatic(res, url.pathname))) throw notFound();
}

/**
 * The printed address: the cookie is set and the secret leaves the address bar (and history).
 * Opened from another site or a file (zhi web's opener), the browser would not send a
 * SameSite=Strict cookie on a redirect of that navigation, so the page moves itself on to `/`
 * (a meta refresh: no script), a navigation of its own origin that carries the cookie.
 */
function acceptToken(req: IncomingMessage, res: ServerResponse, s: Shared): void {
  const cookie = `${cookieName(s.port)}=${s.secret}; HttpOnly; SameSite=Strict; Path=/`;
  const site = header(req, 'sec-fetch-site');
  if (site === 'cross-site' || site === 'same-site') {
    res.writeHead(200, {
      'Set-Cookie': cookie,
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
    });
    res.end(
      '<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=/"><title>zhi</title>\n',
    );
    return;
  }
  res.writeHead(303, { Location: '/', 'Set-Cookie': cookie, 'Cache-Control': 'no-store' });
  res.end();
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

const REFUSALS = {
  host: 'web.err.host421',
  origin: 'web.err.origin',
  csrf: 'web.err.origin',
  secret: 'web.err.unauthorized',
} as const;

function refuse(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  v: Extract<Verdict, { ok: false }>,
): void {
  // The body is not read, and the connection ends with the answer: a refused upload is not taken in.
  res.setHeader('Connection', 'close');
  if (v.status === 401 && req.method === 'GET' && url.pathname === '/') {
    sendHtml(res, 401, unauthorizedPage());
    return;
  }
  const err = httpError(v.status, {
    what: { key: REFUSALS[v.reason] },
    tries: [{ key: v.reason === 'secret' ? 'web.err.unauthorizedTry' : 'web.err.originTry' }],
  });
  sendJson(res, v.status, errorBody((err as HttpError).error));
}
