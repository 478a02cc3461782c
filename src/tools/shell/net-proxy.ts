/**
 * The filtering proxy behind the sandbox's network (issue 37, net-bridge.ts): an HTTP proxy on
 * 127.0.0.1 of this computer that lets a sandboxed command reach public addresses only. Every
 * destination — a CONNECT `host:port` for HTTPS and anything else over TLS, or an absolute
 * `http://` URL — goes through the same SSRF check as web_fetch (web/ssrf.ts: no loopback,
 * private ranges, link-local, metadata, in any spelling, nor a name resolving to one), and the
 * connection goes to the address that was checked, never resolving the name again.
 */
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { type CheckedTarget, checkUrl, type Resolver, systemResolver } from '../web/ssrf.js';

export interface ProxySeams {
  resolve?: Resolver;
  /** Open a TCP connection to a checked address (tests point it at a local server). */
  connectTo?: (address: string, port: number) => Socket;
}

export interface EgressProxy {
  port: number;
  close(): Promise<void>;
  /** Destinations refused so far, for the result the model gets. */
  refused: string[];
}

/** Start the proxy on a random port of 127.0.0.1. */
export async function startEgressProxy(seams: ProxySeams = {}): Promise<EgressProxy> {
  const resolve = seams.resolve ?? systemResolver;
  const connectTo = seams.connectTo ?? ((address: string, port: number) => connect(port, address));
  const refused: string[] = [];
  const check = async (raw: string): Promise<CheckedTarget | undefined> => {
    try {
      return await checkUrl(raw, resolve);
    } catch (err) {
      // The SSRF check's reason, without its advice for web_fetch.
      refused.push(`${raw}: ${(err as Error).message.replace(/ web_fetch only reaches.*$/s, '')}`);
      return undefined;
    }
  };
  const server = createServer((req, res) => void forward(req, res, check, connectTo));
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    void tunnel(req, client, head, check, connectTo);
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { port, refused, close: () => closeServer(server) };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((done) => server.close(() => done()));
}

type Check = (raw: string) => Promise<CheckedTarget | undefined>;
type ConnectTo = (address: string, port: number) => Socket;

/** CONNECT host:port: a tunnel to the checked address. */
async function tunnel(
  req: IncomingMessage,
  client: Duplex,
  head: Buffer,
  check: Check,
  connectTo: ConnectTo,
): Promise<void> {
  client.on('error', () => client.destroy());
  const target = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(req.url ?? '');
  const checked = target ? await check(`https://${req.url}/`) : undefined;
  if (!target || !checked) {
    client.end(
      'HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\n\r\nzhi: this address is not reachable from the sandbox (only public internet addresses are).\n',
    );
    return;
  }
  const upstream = connectTo(checked.address, Number(target[2]));
  upstream.on('connect', () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on('error', () => {
    client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
  });
  client.on('close', () => upstream.destroy());
}

/** A plain-HTTP request with an absolute URL: sent on to the checked address. */
async function forward(
  req: IncomingMessage,
  res: ServerResponse,
  check: Check,
  connectTo: ConnectTo,
): Promise<void> {
  const checked = /^http:\/\//i.test(req.url ?? '') ? await check(req.url!) : undefined;
  if (!checked) {
    res.writeHead(403, { 'Content-Type': 'text/plain', Connection: 'close' });
    res.end('zhi: this address is not reachable from the sandbox (only public internet addresses are).\n');
    return;
  }
  const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: checked.url.host };
  for (const name of Object.keys(headers)) if (/^proxy-/i.test(name)) delete headers[name];
  const port = Number(checked.url.port || 80);
  const upstream = request({
    method: req.method,
    path: `${checked.url.pathname}${checked.url.search}`,
    headers,
    createConnection: () => connectTo(checked.address, port),
  });
  upstream.on('response', (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(upstream);
}
