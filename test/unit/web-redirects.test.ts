/**
 * Redirects through the real connector (undici) against a local server: every status a server
 * redirects with, a loop, a redirect into this computer or the metadata address, and a redirect
 * to another site. None may crash the process (a body closed unread once raised an unhandled
 * RequestAbortedError). The server listens on 127.0.0.1, which web_fetch refuses: the test's
 * resolver gives the site a public address and its connector dials the local server instead.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchChecked, type WebFetchDeps } from '../../src/tools/web/fetch.js';
import { type Connector, pinnedConnector } from '../../src/tools/web/http-pinned.js';

let server: Server;
let port = 0;
const hits: string[] = [];
const crashes: unknown[] = [];
const onCrash = (err: unknown) => crashes.push(err);

const ROUTES: Record<string, [number, string]> = {
  '/301': [301, '/ok'],
  '/302': [302, '/ok'],
  '/303': [303, '/ok'],
  '/307': [307, '/ok'],
  '/308': [308, '/ok'],
  '/chain': [302, '/301'],
  '/loop-a': [302, '/loop-b'],
  '/loop-b': [302, '/loop-a'],
  '/self': [301, '/self'],
  '/home': [302, 'http://127.0.0.1/admin'],
  '/meta': [302, 'http://169.254.169.254/latest/meta-data/'],
  '/away': [302, 'https://other.example/page'],
};

beforeAll(async () => {
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const route = ROUTES[req.url ?? ''];
    if (route) {
      // A body the client never reads: the case that crashed.
      res.writeHead(route[0], { location: route[1], 'content-type': 'text/html' });
      res.end(`<p>moved</p>${'x'.repeat(20_000)}`);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('arrived');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  process.off('uncaughtException', onCrash);
  process.off('unhandledRejection', onCrash);
  await new Promise((done) => server.close(done));
});

const toLocal: Connector = (req) =>
  pinnedConnector({ ...req, target: { ...req.target, address: '127.0.0.1', family: 4 } });

const deps: WebFetchDeps = {
  resolve: async () => [{ address: '93.184.216.34', family: 4 }],
  connect: toLocal,
};

const url = (path: string) => `http://site.example:${port}${path}`;
const get = (path: string, more: Partial<WebFetchDeps> = {}) =>
  fetchChecked(url(path), AbortSignal.timeout(10_000), { ...deps, ...more });

/** Let undici's late events (a destroyed body's error) happen before looking for crashes. */
const settle = () => new Promise((done) => setTimeout(done, 50));

describe('redirects through the real connector', () => {
  it.each(['/301', '/302', '/303', '/307', '/308', '/chain'])('%s is followed to the page', async (path) => {
    const page = await get(path);
    expect(page.status).toBe(200);
    expect(page.bytes.toString()).toBe('arrived');
    expect(page.url.href).toBe(url('/ok'));
    await settle();
    expect(crashes).toEqual([]);
  });

  it('a loop stops at once with a reason, never a crash', async () => {
    await expect(get('/loop-a')).rejects.toThrow(/redirects in a loop/);
    await expect(get('/self')).rejects.toThrow(/redirects in a loop/);
    await settle();
    expect(crashes).toEqual([]);
  });

  it('a redirect to this computer or the metadata address is refused before it is requested', async () => {
    hits.length = 0;
    await expect(get('/home', { mayFollow: () => true })).rejects.toThrow(/Refused.*loopback/);
    await expect(get('/meta', { mayFollow: () => true })).rejects.toThrow(/Refused.*cloud metadata/);
    expect(hits).toEqual(['/home', '/meta']);
    await settle();
    expect(crashes).toEqual([]);
  });

  it('a redirect to another site is not followed unless the egress rule allows it', async () => {
    await expect(get('/away')).rejects.toThrow(/redirects to another site: https:\/\/other\.example\/page/);
    const asked: string[] = [];
    await expect(
      get('/away', {
        mayFollow: (to) => {
          asked.push(to);
          return true;
        },
        // The other site answers too (through the same local server): its page is read.
        resolve: async () => [{ address: '93.184.216.34', family: 4 }],
      }),
    ).rejects.toThrow(/Could not fetch https:\/\/other\.example\/page/);
    expect(asked).toEqual(['https://other.example/page']);
    await settle();
    expect(crashes).toEqual([]);
  });
});
