import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { ToolContext, ToolResult } from '../../src/tools/types.js';
import { createWebFetch, fetchChecked, type WebFetchDeps } from '../../src/tools/web/fetch.js';
import type { Connector, HopRequest, HopResponse } from '../../src/tools/web/http-pinned.js';
import type { Resolver } from '../../src/tools/web/ssrf.js';
import { toolContext } from '../helpers/file-fixtures.js';
import { unwrap } from '../helpers/untrusted.js';

const DNS: Record<string, string> = {
  'site.example': '93.184.216.34',
  'other.example': '1.1.1.1',
  'evil.example': '10.0.0.7',
};
const resolve: Resolver = async (host) => {
  const a = DNS[host];
  if (!a) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
  return [{ address: a, family: 4 }];
};

interface Route {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer | (() => AsyncIterable<Uint8Array>);
}

/** A fake network: answers per URL and records which address every request went to. */
function fakeNet(routes: Record<string, Route>) {
  const calls: { url: string; address: string; host: string }[] = [];
  const connect: Connector = async (req: HopRequest): Promise<HopResponse> => {
    calls.push({ url: req.target.url.href, address: req.target.address, host: req.target.hostname });
    const route = routes[req.target.url.href];
    if (!route)
      return {
        status: 404,
        headers: { 'content-type': 'text/plain' },
        body: one('not found'),
        close: () => {},
      };
    const body = typeof route.body === 'function' ? route.body() : one(route.body ?? '');
    return {
      status: route.status ?? 200,
      headers: route.headers ?? { 'content-type': 'text/html' },
      body,
      close: () => {},
    };
  };
  return { calls, connect };
}

async function* one(data: string | Buffer): AsyncIterable<Uint8Array> {
  yield typeof data === 'string' ? Buffer.from(data) : data;
}

const ctx = (): ToolContext => toolContext({ cwd: '/tmp', outputDir: '/tmp/zhi-output' });

async function run(url: string, deps: WebFetchDeps): Promise<ToolResult> {
  return (await createWebFetch(deps).execute({ url }, ctx())) as ToolResult;
}

describe('fetching', () => {
  it('HTML becomes Markdown: title kept, scripts and styles dropped, links made absolute', async () => {
    const net = fakeNet({
      'https://site.example/news': {
        body: `<html><head><title>Q4 &amp; results</title><style>p{color:red}</style>
          <script>var secret = "do not show";</script></head>
          <body><h1>Results</h1><p>Revenue grew <b>12%</b>. See <a href="/details">details</a>.</p>
          <table><tr><th>Q</th><th>Rev</th></tr><tr><td>Q4</td><td>100</td></tr></table>
          <noscript>enable JS</noscript><script>alert(1)</script></body></html>`,
      },
    });
    const out = await run('https://site.example/news', { resolve, connect: net.connect });
    expect(out.isError).toBe(false);
    expect(out.content).toContain('URL: https://site.example/news');
    expect(out.content).toContain('Title: Q4 & results');
    expect(out.content).toContain('# Results');
    expect(out.content).toContain('Revenue grew **12%**');
    expect(out.content).toContain('[details](https://site.example/details)');
    expect(out.content).toContain('| Q4 | 100 |');
    expect(out.content).not.toMatch(/secret|alert|color:red|enable JS/);
    expect(net.calls).toEqual([
      { url: 'https://site.example/news', address: '93.184.216.34', host: 'site.example' },
    ]);
  });

  it('other text passes through; gzip is decoded; GBK without a charset header is decoded', async () => {
    const gbk = Buffer.from([0xc4, 0xe3, 0xba, 0xc3, 0xca, 0xc0, 0xbd, 0xe7]); // 你好世界 in GBK
    const net = fakeNet({
      'https://site.example/data.json': {
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        body: gzipSync('{"total": 42}'),
      },
      'https://site.example/cn.txt': { headers: { 'content-type': 'text/plain' }, body: gbk },
    });
    const json = await run('https://site.example/data.json', { resolve, connect: net.connect });
    expect(json.content).toContain('Content-Type: application/json');
    expect(json.content).toContain('{"total": 42}');
    const cn = await run('https://site.example/cn.txt', { resolve, connect: net.connect });
    expect(cn.content).toContain('你好世界');
  });

  it('binary is refused after its first bytes', async () => {
    let chunks = 0;
    const net = fakeNet({
      'https://site.example/report.pdf': {
        headers: { 'content-type': 'application/pdf', 'content-length': '5000000' },
        body: async function* () {
          for (let i = 0; i < 1000; i++) {
            chunks++;
            yield Buffer.from('%PDF-1.7 binary…');
          }
        },
      },
    });
    await expect(run('https://site.example/report.pdf', { resolve, connect: net.connect })).rejects.toThrow(
      /binary \(application\/pdf, 4\.8 MB\).*use ocr/,
    );
    expect(chunks).toBe(1);
  });

  it('stops reading at the size cap instead of downloading everything', async () => {
    let produced = 0;
    const net = fakeNet({
      'https://site.example/huge.txt': {
        headers: { 'content-type': 'text/plain' },
        body: async function* () {
          for (;;) {
            produced += 1024;
            yield Buffer.alloc(1024, 'a');
          }
        },
      },
    });
    const out = await run('https://site.example/huge.txt', {
      resolve,
      connect: net.connect,
      maxDownloadBytes: 64 * 1024,
    });
    expect(produced).toBeLessThanOrEqual(65 * 1024);
    expect(out.content).toContain('only its beginning was downloaded');
    expect(unwrap(out.content)).toMatch(/\[truncated: showing the first \d+ KB of 64 KB\]$/);
    expect(Buffer.byteLength(out.content)).toBeLessThanOrEqual(50 * 1024 + 200);
  });

  it('an HTTP error status is reported as an error with the page text', async () => {
    const net = fakeNet({});
    const out = await run('https://site.example/missing', { resolve, connect: net.connect });
    expect(out.isError).toBe(true);
    expect(out.content).toMatch(/^HTTP 404/);
  });

  it('a DNS failure is an error', async () => {
    const net = fakeNet({});
    await expect(run('https://nowhere.example/', { resolve, connect: net.connect })).rejects.toThrow(
      /does not exist/,
    );
    expect(net.calls).toHaveLength(0);
  });

  it('a server that never answers times out', async () => {
    const hang: Connector = (req) =>
      new Promise((_, reject) =>
        req.signal.addEventListener('abort', () => reject(req.signal.reason), { once: true }),
      );
    await expect(
      run('https://site.example/slow', { resolve, connect: hang, timeoutMs: 100 }),
    ).rejects.toThrow(/did not answer within/);
  });
});

describe('redirects', () => {
  it('are followed by hand, each hop checked and pinned', async () => {
    const net = fakeNet({
      'http://site.example/a': { status: 301, headers: { location: 'https://site.example/b' } },
      'https://site.example/b': { status: 302, headers: { location: '//other.example/c' } },
      'https://other.example/c': { status: 307, headers: { location: '/final' } },
      'https://other.example/final': { headers: { 'content-type': 'text/plain' }, body: 'arrived' },
    });
    // Another site is followed only when the egress rule says so (here: always).
    const page = await fetchChecked('http://site.example/a', AbortSignal.timeout(5000), {
      resolve,
      connect: net.connect,
      mayFollow: () => true,
    });
    expect(page.url.href).toBe('https://other.example/final');
    expect(page.redirects).toHaveLength(3);
    expect(net.calls.map((c) => c.address)).toEqual(['93.184.216.34', '93.184.216.34', '1.1.1.1', '1.1.1.1']);
  });

  it('a redirect to an inside address is refused before it is requested', async () => {
    const net = fakeNet({
      'https://site.example/go': {
        status: 302,
        headers: { location: 'http://169.254.169.254/latest/meta-data/' },
      },
      'https://site.example/go2': { status: 302, headers: { location: 'http://evil.example/' } },
      'https://site.example/go3': { status: 302, headers: { location: 'file:///etc/passwd' } },
    });
    await expect(run('https://site.example/go', { resolve, connect: net.connect })).rejects.toThrow(
      /Refused.*cloud metadata/,
    );
    await expect(run('https://site.example/go2', { resolve, connect: net.connect })).rejects.toThrow(
      /resolves to 10\.0\.0\.7/,
    );
    await expect(run('https://site.example/go3', { resolve, connect: net.connect })).rejects.toThrow(
      /Only http/,
    );
    expect(net.calls.map((c) => c.url)).toEqual([
      'https://site.example/go',
      'https://site.example/go2',
      'https://site.example/go3',
    ]);
  });

  it('stop after 5', async () => {
    const routes: Record<string, Route> = {};
    for (let i = 0; i < 10; i++)
      routes[`https://site.example/${i}`] = { status: 302, headers: { location: `/${i + 1}` } };
    const net = fakeNet(routes);
    await expect(run('https://site.example/0', { resolve, connect: net.connect })).rejects.toThrow(
      /Stopped after 5 redirects/,
    );
    expect(net.calls).toHaveLength(6);
  });

  it('the name is resolved once per hop and the connection uses that answer (no rebinding)', async () => {
    let lookups = 0;
    const flipping: Resolver = async () => {
      lookups++;
      // First answer public, any later answer private: a rebinding attacker's DNS.
      return [{ address: lookups === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    };
    const net = fakeNet({
      'https://site.example/x': { headers: { 'content-type': 'text/plain' }, body: 'ok' },
    });
    await run('https://site.example/x', { resolve: flipping, connect: net.connect });
    expect(lookups).toBe(1);
    expect(net.calls[0]!.address).toBe('93.184.216.34');
  });
});
