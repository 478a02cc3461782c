/**
 * The sandbox's network when the person allows it (issue 37): a filtering proxy on this computer
 * (net-proxy.ts) reached through a bridge inside the sandbox (net-bridge.ts). Loopback, private
 * ranges and metadata are refused in every spelling; a public address is reached, bytes both ways.
 * The public side is simulated: a name resolving to a public address, connected to a local server.
 */
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EgressProxy, startEgressProxy } from '../../src/tools/shell/net-proxy.js';
import { runSandboxed, sandboxState } from '../../src/tools/shell/sandbox.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let server: Server;
let port = 0;
let hits: string[] = [];
beforeEach(async () => {
  hits = [];
  server = createServer((req, res) => {
    hits.push(`${req.method} ${req.headers.host} ${req.url}`);
    res.end('hello from outside');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as { port: number }).port;
});
afterEach(() => new Promise<void>((done) => server.close(() => done())));

/** `public.test` is a public address; connecting to it reaches the local server. */
const egress = {
  resolve: async (name: string) =>
    name === 'public.test'
      ? [{ address: '93.184.216.34', family: 4 as const }]
      : name === 'sneaky.test'
        ? [
            { address: '93.184.216.34', family: 4 as const },
            { address: '192.168.1.10', family: 4 as const },
          ]
        : [],
  connectTo: (address: string, _port: number): Socket =>
    address === '93.184.216.34' ? connect(port, '127.0.0.1') : connect(1, '0.0.0.0'),
};

/** One raw exchange with the proxy: what it answers to `request`. */
function exchange(proxy: EgressProxy, request: string): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(proxy.port, '127.0.0.1', () => s.write(request));
    let got = '';
    s.on('data', (d) => {
      got += String(d);
      if (/200 Connection Established\r\n\r\n$/.test(got))
        s.end('GET / HTTP/1.1\r\nHost: public.test\r\nConnection: close\r\n\r\n');
    });
    s.on('close', () => resolve(got));
    s.on('error', () => resolve(got));
  });
}

describe('the filtering proxy', () => {
  it.each([
    ['CONNECT 127.0.0.1:443', 'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n'],
    ['CONNECT localhost', 'CONNECT localhost:80 HTTP/1.1\r\n\r\n'],
    ['CONNECT [::1]', 'CONNECT [::1]:443 HTTP/1.1\r\n\r\n'],
    ['CONNECT metadata', 'CONNECT 169.254.169.254:80 HTTP/1.1\r\n\r\n'],
    ['CONNECT a private range', 'CONNECT 10.1.2.3:22 HTTP/1.1\r\n\r\n'],
    ['CONNECT 172.16/12', 'CONNECT 172.20.0.1:80 HTTP/1.1\r\n\r\n'],
    ['CONNECT fc00::/7', 'CONNECT [fd12::1]:80 HTTP/1.1\r\n\r\n'],
    ['CONNECT fe80::/10', 'CONNECT [fe80::1]:80 HTTP/1.1\r\n\r\n'],
    ['CONNECT 127.1 spelled short', 'CONNECT 2130706433:80 HTTP/1.1\r\n\r\n'],
    ['a name that also resolves privately', 'CONNECT sneaky.test:443 HTTP/1.1\r\n\r\n'],
    ['plain HTTP to loopback', `GET http://127.0.0.1:${1}/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`],
    ['plain HTTP to a private range', 'GET http://192.168.0.1/ HTTP/1.1\r\nHost: 192.168.0.1\r\n\r\n'],
    ['a request that is not a proxy request', 'GET / HTTP/1.1\r\nHost: x\r\n\r\n'],
  ])('refuses %s with 403 and connects nowhere', async (_, request) => {
    const proxy = await startEgressProxy(egress);
    try {
      expect(await exchange(proxy, request)).toMatch(/^HTTP\/1\.1 403/);
      expect(hits).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('tunnels to a public address, and forwards plain HTTP with the host name', async () => {
    const proxy = await startEgressProxy(egress);
    try {
      const tunnelled = await exchange(proxy, 'CONNECT public.test:443 HTTP/1.1\r\n\r\n');
      expect(tunnelled).toContain('hello from outside');
      const plain = await exchange(
        proxy,
        'GET http://public.test/page?q=1 HTTP/1.1\r\nHost: public.test\r\nProxy-Authorization: x\r\nConnection: close\r\n\r\n',
      );
      expect(plain).toMatch(/^HTTP\/1\.1 200/);
      expect(plain).toContain('hello from outside');
      expect(hits).toEqual(['GET public.test /', 'GET public.test /page?q=1']);
    } finally {
      await proxy.close();
    }
  });
});

const hasBwrap = process.platform === 'linux' && sandboxState().kind === 'bwrap';
if (!hasBwrap)
  console.warn(
    '[skip] sandbox network tests with a real bwrap: bubblewrap unavailable (apt-get install bubblewrap)',
  );

describe.runIf(hasBwrap)('"also use the network" in a real sandbox', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('zhi-sbxnet-');
  });
  afterEach(() => cleanup(dir));
  const run = (command: string) =>
    runSandboxed(command, {
      cwd: dir,
      outputDir: `${dir}/zhi-output`,
      timeoutMs: 20_000,
      maxBytes: 20_000,
      allowNetwork: true,
      egress,
    });

  it('reaches a public address through the bridge, never loopback or metadata, by proxy or around it', async () => {
    const ok = await run('curl -sS -m 10 http://public.test/hi');
    expect(ok.stdout).toBe('hello from outside');
    expect(hits).toEqual(['GET public.test /hi']);
    const local = await run(`curl -sS -m 10 -o /dev/null -w "%{http_code}" http://127.0.0.1:${port}/`);
    expect(local.stdout).toBe('403');
    const around = await run(`curl -sS -m 10 --noproxy '*' http://127.0.0.1:${port}/`);
    expect(around.exitCode).not.toBe(0);
    const metadata = await run(
      'curl -sS -m 10 -o /dev/null -w "%{http_code}" http://169.254.169.254/latest/meta-data/',
    );
    expect(metadata.stdout).toBe('403');
    expect(hits).toEqual(['GET public.test /hi']);
    // The command does not hold the bridge's channel.
    const fds = await run('ls /proc/self/fd');
    expect(fds.stdout.trim().split('\n').sort()).toEqual(['0', '1', '2', '3']);
  });
});
