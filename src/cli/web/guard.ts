/**
 * Who may talk to the server, decided before any route runs (docs/web-api.md, "Start and auth"):
 * the Host must be the loopback address and port (a DNS-rebinding page gets 421), an Origin must
 * be the page's own (another site's fetch or form gets 403), every request carries the secret
 * made for this start (cookie or Bearer), and a cookie-carried change needs the page's Origin
 * (CSRF). Pure functions of the request's headers, so they are tested as tables.
 */
import { timingSafeEqual } from 'node:crypto';

export interface RequestFacts {
  method: string;
  /** The path without the query. */
  path: string;
  host: string | undefined;
  origin: string | undefined;
  /** `Sec-Fetch-Site` (a browser says `cross-site` for another site's request). */
  fetchSite: string | undefined;
  /** `Sec-Fetch-Mode` (`navigate` for the top-level page a person opens). */
  fetchMode?: string | undefined;
  cookie: string | undefined;
  authorization: string | undefined;
}

export type Verdict =
  | { ok: true; by: 'cookie' | 'bearer' | 'none' }
  | { ok: false; status: 401 | 403 | 421; reason: 'host' | 'origin' | 'csrf' | 'secret' };

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The Host values this server answers to. */
export function loopbackHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}

/** The origins of this server's own page. */
export function ownOrigins(port: number): string[] {
  return loopbackHosts(port).map((h) => `http://${h}`);
}

/** The cookie's name: one per port, as cookies are not kept apart by port. */
export function cookieName(port: number): string {
  return `zhi_${port}`;
}

/** The secret in a cookie header, under this server's name. */
export function cookieSecret(header: string | undefined, port: number): string | undefined {
  if (!header) return undefined;
  const name = cookieName(port);
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Equal strings, compared in constant time (a timing attack learns nothing of the secret). */
export function sameSecret(given: string | undefined, secret: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Requests that need no secret: the browser's icon. */
function open(facts: RequestFacts): boolean {
  return facts.method === 'GET' && facts.path === '/favicon.ico';
}

/**
 * The verdict on one request. `tokenInQuery`: the address zhi printed (`/?token=…`), which
 * authenticates the request that sets the cookie.
 */
export function judge(facts: RequestFacts, port: number, secret: string, tokenInQuery?: string): Verdict {
  const host = facts.host?.toLowerCase();
  if (!host || !loopbackHosts(port).includes(host)) return { ok: false, status: 421, reason: 'host' };
  const origin = facts.origin?.toLowerCase();
  if (origin !== undefined && !ownOrigins(port).includes(origin))
    return { ok: false, status: 403, reason: 'origin' };
  // Another site (or another port of this host, which browsers count as the same site) may only
  // send the person to the page itself: the printed address opened from a file or a link.
  const foreign = facts.fetchSite === 'cross-site' || facts.fetchSite === 'same-site';
  const opening = facts.method === 'GET' && facts.path === '/' && facts.fetchMode === 'navigate';
  if (foreign && !opening) return { ok: false, status: 403, reason: 'origin' };
  if (open(facts)) return { ok: true, by: 'none' };
  const bearer = /^Bearer\s+(\S+)$/i.exec(facts.authorization ?? '')?.[1];
  if (bearer !== undefined) {
    return sameSecret(bearer, secret)
      ? { ok: true, by: 'bearer' }
      : { ok: false, status: 401, reason: 'secret' };
  }
  if (tokenInQuery !== undefined && facts.method === 'GET' && facts.path === '/') {
    return sameSecret(tokenInQuery, secret)
      ? { ok: true, by: 'none' }
      : { ok: false, status: 401, reason: 'secret' };
  }
  if (!sameSecret(cookieSecret(facts.cookie, port), secret))
    return { ok: false, status: 401, reason: 'secret' };
  // A cookie goes with any request the browser makes: a change must come from the page itself.
  if (UNSAFE.has(facts.method) && origin === undefined) return { ok: false, status: 403, reason: 'csrf' };
  return { ok: true, by: 'cookie' };
}
