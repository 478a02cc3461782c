/**
 * The sandbox's network, when the person allows it for one command (issue 37): the command keeps
 * its own network namespace (only loopback), and a small Node program inside — the bridge —
 * listens on 127.0.0.1:3128 there. Every connection to it travels over one descriptor zhi handed
 * in (a connected socket pair, fd 4: the seccomp filter refuses creating unix sockets, not using
 * one given) to zhi, which opens a connection to its filtering proxy (net-proxy.ts) for it. So the
 * command reaches only what that proxy lets through: public addresses, never loopback, private
 * ranges or cloud metadata. HTTP(S)_PROXY and ALL_PROXY point programs at the bridge.
 *
 * Frames on the descriptor: type (1 byte: 1 open, 2 data, 3 end), stream id (4 bytes), length
 * (4 bytes), payload. The bridge starts the command once it listens, with fd 4 closed.
 */
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** The port the bridge listens on inside the sandbox (its own network namespace: never taken). */
export const BRIDGE_PORT = 3128;
/** The descriptor the channel arrives on inside the sandbox (3 is the seccomp filter). */
export const CHANNEL_FD = 4;

const OPEN = 1;
const DATA = 2;
const END = 3;
const HEADER = 9;

/**
 * The bridge, run as `node -e BRIDGE <command>` inside the sandbox. Plain JavaScript with the
 * same frames as below; it exits with the command's status.
 */
export const BRIDGE = `
const net = require('net'), cp = require('child_process'), os = require('os');
const ch = new net.Socket({ fd: ${CHANNEL_FD}, readable: true, writable: true });
const socks = new Map();
let next = 1, pending = Buffer.alloc(0);
const send = (t, id, body) => {
  const h = Buffer.alloc(${HEADER});
  h[0] = t; h.writeUInt32BE(id, 1); h.writeUInt32BE(body ? body.length : 0, 5);
  ch.write(body ? Buffer.concat([h, body]) : h);
};
ch.on('data', (d) => {
  pending = Buffer.concat([pending, d]);
  while (pending.length >= ${HEADER}) {
    const len = pending.readUInt32BE(5);
    if (pending.length < ${HEADER} + len) break;
    const t = pending[0], id = pending.readUInt32BE(1), body = pending.subarray(${HEADER}, ${HEADER} + len);
    pending = pending.subarray(${HEADER} + len);
    const s = socks.get(id);
    if (!s) continue;
    if (t === ${DATA}) s.write(body);
    else if (t === ${END}) { socks.delete(id); s.end(); }
  }
});
ch.on('error', () => {});
const server = net.createServer((s) => {
  const id = next++;
  socks.set(id, s);
  send(${OPEN}, id);
  s.on('data', (d) => send(${DATA}, id, d));
  const done = () => { if (socks.delete(id)) send(${END}, id); };
  s.on('end', done); s.on('close', done); s.on('error', () => {});
});
server.listen(${BRIDGE_PORT}, '127.0.0.1', () => {
  const c = cp.spawn('/bin/sh', ['-c', 'exec ${CHANNEL_FD}>&-; exec /bin/sh -c "$1"', 'sh', process.argv[1]], { stdio: 'inherit' });
  c.on('exit', (code, sig) => process.exit(code ?? 128 + (os.constants.signals[sig] || 0)));
});
`;

/** The proxy settings programs inside read (curl, wget, pip, git, npm, requests, Node's fetch). */
export function proxyEnv(): Record<string, string> {
  const url = `http://127.0.0.1:${BRIDGE_PORT}`;
  const env: Record<string, string> = {};
  for (const name of ['http_proxy', 'https_proxy', 'all_proxy']) {
    env[name] = url;
    env[name.toUpperCase()] = url;
  }
  env.no_proxy = '';
  env.NO_PROXY = '';
  // Node's own fetch follows these only when asked (Node 22.14+/24).
  env.NODE_USE_ENV_PROXY = '1';
  return env;
}

/**
 * zhi's end of the channel: each stream the bridge opens becomes a connection to the filtering
 * proxy on this computer (`proxyPort`), bytes copied both ways. Returns when the channel closes.
 */
export function serveChannel(
  channel: Duplex,
  proxyPort: number,
  open: () => Socket = () => connect(proxyPort, '127.0.0.1'),
): void {
  const streams = new Map<number, Socket>();
  let pending = Buffer.alloc(0);
  const send = (type: number, id: number, body?: Buffer) => {
    const head = Buffer.alloc(HEADER);
    head[0] = type;
    head.writeUInt32BE(id, 1);
    head.writeUInt32BE(body?.length ?? 0, 5);
    channel.write(body ? Buffer.concat([head, body]) : head);
  };
  const opened = (id: number) => {
    const s = open();
    streams.set(id, s);
    s.on('data', (d: Buffer) => send(DATA, id, d));
    const done = () => {
      if (streams.delete(id)) send(END, id);
    };
    s.on('end', done);
    s.on('close', done);
    s.on('error', () => s.destroy());
  };
  channel.on('data', (d: Buffer) => {
    pending = Buffer.concat([pending, d]);
    while (pending.length >= HEADER) {
      const len = pending.readUInt32BE(5);
      if (pending.length < HEADER + len) break;
      const type = pending[0];
      const id = pending.readUInt32BE(1);
      const body = pending.subarray(HEADER, HEADER + len);
      pending = pending.subarray(HEADER + len);
      if (type === OPEN) opened(id);
      else if (type === DATA) streams.get(id)?.write(body);
      else if (type === END) {
        const s = streams.get(id);
        streams.delete(id);
        s?.end();
      }
    }
  });
  const closeAll = () => {
    for (const s of streams.values()) s.destroy();
    streams.clear();
  };
  channel.on('close', closeAll);
  channel.on('error', closeAll);
}
