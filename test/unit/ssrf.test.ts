import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ToolError } from '../../src/tools/types.js';
import { pinnedConnector } from '../../src/tools/web/http-pinned.js';
import { addressProblem, checkUrl, type Resolver } from '../../src/tools/web/ssrf.js';

/** A fake DNS: public names, names that point inside, a name with one bad address among good ones. */
const DNS: Record<string, string[]> = {
  'example.com': ['93.184.216.34'],
  'sub.example.org': ['1.1.1.1'],
  'dual.example': ['2606:4700::6810:84e5', '104.16.132.229'],
  'v6only.example': ['2606:4700:4700::1111'],
  'xn--fsqu00a.xn--0zwm56d': ['203.119.25.1'],
  'internal.example': ['10.1.2.3'],
  'router.example': ['192.168.0.1'],
  'rebind.example': ['93.184.216.34', '127.0.0.1'],
  'v6private.example': ['fd12:3456::1'],
  '127.0.0.1.nip.io': ['127.0.0.1'],
  'meta.example': ['169.254.169.254'],
  'mapped.example': ['::ffff:10.0.0.5'],
  'cgnat.example': ['100.64.12.34'],
};

const fakeDns: Resolver = async (host) => {
  const found = DNS[host];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

type Expect = 'blocked' | 'scheme' | 'dns' | 'allowed';

const URLS: [url: string, verdict: Expect, address?: string][] = [
  // loopback in every spelling
  ['http://127.0.0.1/', 'blocked'],
  ['http://127.1/', 'blocked'],
  ['http://2130706433/', 'blocked'],
  ['http://0x7f000001/', 'blocked'],
  ['http://0177.0.0.1/', 'blocked'],
  ['http://0x7f.1/', 'blocked'],
  ['http://%31%32%37.0.0.1/', 'blocked'],
  ['http://①②⑦.0.0.1/', 'blocked'],
  ['http://127.0.0.1:8080/admin', 'blocked'],
  ['http://[::1]/', 'blocked'],
  ['http://[::ffff:127.0.0.1]/', 'blocked'],
  ['http://[0:0:0:0:0:ffff:7f00:1]/', 'blocked'],
  ['http://[::127.0.0.1]/', 'blocked'],
  ['http://localhost/', 'blocked'],
  ['http://localhost./', 'blocked'],
  ['http://LOCALHOST:3000/', 'blocked'],
  ['http://app.localhost/', 'blocked'],
  ['http://0.0.0.0/', 'blocked'],
  ['http://0/', 'blocked'],
  ['http://[::]/', 'blocked'],
  // private, link-local, CGNAT, multicast, reserved, broadcast
  ['http://10.0.0.1/', 'blocked'],
  ['http://172.16.5.4/', 'blocked'],
  ['http://192.168.1.1/', 'blocked'],
  ['http://100.64.0.1/', 'blocked'],
  ['http://224.0.0.1/', 'blocked'],
  ['http://255.255.255.255/', 'blocked'],
  ['http://240.0.0.1/', 'blocked'],
  ['http://198.18.0.1/', 'blocked'],
  ['http://[fe80::1]/', 'blocked'],
  ['http://[fc00::1]/', 'blocked'],
  ['http://[ff02::1]/', 'blocked'],
  // wrapped IPv4 (NAT64, 6to4, Teredo, mapped) of an inside address
  ['http://[64:ff9b::7f00:1]/', 'blocked'],
  ['http://[64:ff9b:1::a00:1]/', 'blocked'],
  ['http://[2002:7f00:1::]/', 'blocked'],
  ['http://[2002:c0a8:101::1]/', 'blocked'],
  ['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', 'blocked'],
  ['http://[::ffff:169.254.169.254]/', 'blocked'],
  // cloud metadata
  ['http://169.254.169.254/latest/meta-data/', 'blocked'],
  ['http://metadata.google.internal/computeMetadata/v1/', 'blocked'],
  ['http://metadata.google.internal./', 'blocked'],
  ['http://100.100.100.200/latest/meta-data/', 'blocked'],
  ['http://[fd00:ec2::254]/', 'blocked'],
  ['http://168.63.129.16/', 'blocked'],
  // public names that resolve inside
  ['http://internal.example/', 'blocked'],
  ['http://router.example/', 'blocked'],
  ['https://rebind.example/', 'blocked'],
  ['http://v6private.example/', 'blocked'],
  ['http://127.0.0.1.nip.io/', 'blocked'],
  ['http://meta.example/', 'blocked'],
  ['http://mapped.example/', 'blocked'],
  ['http://cgnat.example/', 'blocked'],
  // not http(s)
  ['file:///etc/passwd', 'scheme'],
  ['ftp://example.com/', 'scheme'],
  ['gopher://example.com/', 'scheme'],
  ['javascript:alert(1)', 'scheme'],
  // a DNS failure is an error, never a pass
  ['http://no-such-host.example/', 'dns'],
  // public
  ['https://example.com/', 'allowed', '93.184.216.34'],
  ['http://93.184.216.34/', 'allowed', '93.184.216.34'],
  ['http://8.8.8.8:8080/path?q=1', 'allowed', '8.8.8.8'],
  ['https://sub.example.org/a?b=c', 'allowed', '1.1.1.1'],
  ['https://[2606:4700:4700::1111]/', 'allowed', '2606:4700:4700::1111'],
  ['https://[64:ff9b::808:808]/', 'allowed', '64:ff9b::808:808'],
  ['https://dual.example/', 'allowed', '104.16.132.229'],
  ['https://v6only.example/', 'allowed', '2606:4700:4700::1111'],
  ['https://例子.测试/', 'allowed', '203.119.25.1'],
  ['http://user:pass@example.com/', 'allowed', '93.184.216.34'],
];

describe('web_fetch address checks (corpus)', () => {
  it('has a large corpus', () => {
    expect(URLS.length).toBeGreaterThanOrEqual(25);
    expect(URLS.filter(([, v]) => v === 'allowed').length).toBeGreaterThanOrEqual(8);
  });

  it.each(URLS)('%s → %s', async (url, verdict, address) => {
    const outcome = await checkUrl(url, fakeDns).then(
      (t) => ({ ok: true as const, address: t.address }),
      (err: unknown) => ({ ok: false as const, err }),
    );
    if (verdict === 'allowed') {
      expect(outcome).toEqual({ ok: true, address });
      return;
    }
    expect(outcome.ok).toBe(false);
    const err = (outcome as { err: unknown }).err;
    expect(err).toBeInstanceOf(ToolError);
    const message = (err as Error).message;
    if (verdict === 'blocked')
      expect(message).toMatch(/^Refused to fetch .*: .+\. web_fetch only reaches public internet addresses/);
    if (verdict === 'scheme') expect(message).toMatch(/Only http:\/\/ and https:\/\/|not a valid URL/);
    if (verdict === 'dns') expect(message).toMatch(/the name does not exist/);
  });
});

describe('refusal reasons', () => {
  it('say what kind of address it is', () => {
    expect(addressProblem('127.0.0.1')).toMatch(/loopback/);
    expect(addressProblem('10.0.0.1')).toMatch(/private network/);
    expect(addressProblem('100.64.0.1')).toMatch(/carrier-grade NAT/);
    expect(addressProblem('169.254.169.254')).toMatch(/cloud metadata/);
    expect(addressProblem('::ffff:192.168.0.1')).toMatch(
      /IPv4-mapped form of 192\.168\.0\.1.*private network/,
    );
    expect(addressProblem('93.184.216.34')).toBeUndefined();
  });

  it('a public name that resolves to a private address is named with the address', async () => {
    await expect(checkUrl('http://rebind.example/', fakeDns)).rejects.toThrow(
      /"rebind\.example" resolves to 127\.0\.0\.1, and that is a loopback/,
    );
  });
});

describe('the pinned connection', () => {
  it('connects to the checked address while Host (and SNI) stay the original name', async () => {
    const seen: { url?: string; headers?: IncomingHttpHeaders }[] = [];
    const server = createServer((req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('pinned ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      // The name does not exist in any DNS: the only way to reach the server is the pinned address.
      const url = new URL(`http://public-name.invalid:${port}/page?x=1`);
      const res = await pinnedConnector({
        target: { url, hostname: 'public-name.invalid', address: '127.0.0.1', family: 4 },
        headers: { 'user-agent': 'test' },
        signal: AbortSignal.timeout(5000),
      });
      let body = '';
      for await (const chunk of res.body) body += Buffer.from(chunk).toString();
      res.close();
      expect(res.status).toBe(200);
      expect(body).toBe('pinned ok');
      expect(seen).toHaveLength(1);
      expect(seen[0]!.url).toBe('/page?x=1');
      expect(seen[0]!.headers!.host).toBe(`public-name.invalid:${port}`);
    } finally {
      server.close();
    }
  });
});
