/**
 * A fetch answered from memory through Node's own HTTP client, so that the request path runs once
 * on sample data before the person's first message needs it (cli/repl/warm-up.ts). The request is
 * built, framed and written by the same code as apiFetch's, to a socket that exists only in this
 * process and answers as an HTTP/1.1 server would; no address is looked up and nothing leaves the
 * process. Node's fetch is undici: a dispatcher of the class Node made for its own fetch, given
 * a `connect` function (undici's documented way to supply the socket), makes that possible.
 */
import { Duplex } from 'node:stream';
import { type FetchLike, proxyConfigured } from './http.js';

/** Where undici keeps the dispatcher Node's fetch uses (shared by every copy of undici). */
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

type Connect = (options: unknown, done: (err: Error | null, socket: Duplex | null) => void) => void;
type AgentClass = new (o: { connect: Connect }) => object;

/**
 * A fetch whose every request gets `answer` (a whole HTTP response, see `chunkedResponse`).
 * Undefined where it would not run apiFetch's code: behind a proxy (apiFetch then uses the undici
 * package, another copy), before Node's fetch has made its dispatcher (it does on the first
 * fetch, such as the connection kept ready while the person types), or where the dispatcher was
 * set by someone else.
 */
export function memoryFetch(answer: string): FetchLike | undefined {
  if (proxyConfigured()) return undefined;
  const made = (globalThis as Record<symbol, { constructor?: unknown } | undefined>)[GLOBAL_DISPATCHER];
  const Agent = made?.constructor;
  // Node's own is a plain Agent; another (a proxy agent set by a preloaded module) is not copied.
  if (typeof Agent !== 'function' || Agent.name !== 'Agent') return undefined;
  return (url, init) => {
    const dispatcher = new (Agent as AgentClass)({
      // Handed over on the next tick, as a real connection would be: undici 7 (Node 24) writes
      // nothing to a socket handed over before its connect call has returned.
      connect: (_options, done) => {
        const socket = answeringSocket(answer);
        process.nextTick(() => done(null, socket));
      },
    });
    return fetch(url, { ...init, dispatcher } as RequestInit);
  };
}

/** An HTTP/1.1 200 response of `contentType`, its body sent in these chunks, the connection then closed. */
export function chunkedResponse(contentType: string, chunks: string[]): string {
  const body = chunks.map((c) => `${Buffer.byteLength(c).toString(16)}\r\n${c}\r\n`).join('');
  return `HTTP/1.1 200 OK\r\ncontent-type: ${contentType}\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n${body}0\r\n\r\n`;
}

/** A socket in memory: once a whole request has been written to it, it answers and ends. */
function answeringSocket(answer: string): Duplex {
  let request = '';
  let answered = false;
  const socket = new Duplex({
    read() {},
    write(chunk: Buffer | string, _encoding, done) {
      request += typeof chunk === 'string' ? chunk : chunk.toString('latin1');
      if (!answered && wholeRequest(request)) {
        answered = true;
        socket.push(answer);
        socket.push(null);
      }
      done();
    },
  });
  // What undici asks of a net.Socket beyond a stream.
  const self = () => socket;
  return Object.assign(socket, {
    setNoDelay: self,
    setKeepAlive: self,
    setTimeout: self,
    ref: self,
    unref: self,
  });
}

/** The head and as many bytes of body as its content-length says (in latin1, a character is a byte). */
function wholeRequest(request: string): boolean {
  const end = request.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const length = /\r\ncontent-length: *(\d+)/i.exec(request.slice(0, end))?.[1];
  return request.length - end - 4 >= Number(length ?? 0);
}
