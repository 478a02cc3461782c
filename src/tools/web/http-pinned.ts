/**
 * One HTTP GET to an address that was already checked. The URL keeps its host name (so TLS SNI,
 * certificate checks and the Host header are those of the site), but the connection's DNS
 * lookup is replaced by one that returns the checked address: the name is never resolved again,
 * so a DNS answer that changes between the check and the connection (DNS rebinding) cannot
 * send the request anywhere else. Redirects are not followed here.
 */
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { CheckedTarget } from './ssrf.js';

export interface HopResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: AsyncIterable<Uint8Array>;
  /** Release the connection (after reading, or without reading). */
  close(): void;
}

export interface HopRequest {
  target: CheckedTarget;
  headers: Record<string, string>;
  signal: AbortSignal;
}

/** Makes one request to a checked target. Injected in tests. */
export type Connector = (req: HopRequest) => Promise<HopResponse>;

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `lookup` for net.connect/tls.connect that always answers with the pinned address. */
export function pinnedLookup(address: string, family: 4 | 6) {
  return (_hostname: string, options: LookupOptions | number | LookupCallback, callback?: LookupCallback) => {
    const cb = (typeof options === 'function' ? options : callback) as LookupCallback;
    const all = typeof options === 'object' && options !== null && options.all;
    if (all) cb(null, [{ address, family }]);
    else cb(null, address, family);
  };
}

export const pinnedConnector: Connector = async ({ target, headers, signal }) => {
  const { Agent, request } = await import('undici');
  const agent = new Agent({
    connect: { lookup: pinnedLookup(target.address, target.family) as never, timeout: 15_000 },
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  });
  try {
    const res = await request(target.url, {
      method: 'GET',
      headers,
      signal,
      dispatcher: agent,
      maxRedirections: 0,
    });
    return {
      status: res.statusCode,
      headers: res.headers,
      body: res.body,
      close: () => {
        // undici's body, destroyed unread, emits RequestAbortedError: with no listener that
        // error would end the process (every redirect closes a body it never read).
        res.body.on('error', () => {});
        res.body.destroy();
        void agent.close().catch(() => {});
      },
    };
  } catch (err) {
    void agent.close().catch(() => {});
    throw err;
  }
};
