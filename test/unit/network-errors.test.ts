import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { describeApiError } from '../../src/llm/describe.js';
import { fetchFailure } from '../../src/llm/network.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import { setLanguage } from '../../src/support/i18n/index.js';

const BASE = 'https://open.bigmodel.cn/api/paas/v4';

/** A port nothing listens on: opened by us, then closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/** What fetch throws: "fetch failed", the socket or TLS error as its cause. */
function fetchError(cause: object): Error {
  return new TypeError('fetch failed', { cause });
}

function person(err: ReturnType<typeof fetchFailure>) {
  const e = describeApiError(err, PLATFORMS.bigmodel);
  return { what: e.whatText(), why: e.whyText() ?? '', tries: e.tryTexts().join('\n'), exit: e.exitCode };
}

afterEach(() => setLanguage('en'));

describe('a request that got no answer says what happened, why, and what to try', () => {
  it('a closed port: connection refused, naming the host (a real fetch, offline)', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/api/paas/v4`;
    const err = await fetch(`${url}/chat/completions`).then(
      () => undefined,
      (e: unknown) => e,
    );
    const info = fetchFailure(err, url);
    expect(info).toMatchObject({ kind: 'network', network: 'refused', retryable: true });
    expect(info.message).toContain('ECONNREFUSED');
    const p = person(info);
    expect(p.what).toBe(`Could not connect to 127.0.0.1:${port}: connection refused.`);
    expect(p.why).toMatch(/^Nothing is listening at that address and port/);
    expect(p.tries).toContain('zhi config get base_url');
    expect(p.what + p.why).not.toContain('fetch failed');
  });

  it.each([
    [
      { code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND open.bigmodel.cn' },
      'not_found',
      /^Could not find the server open\.bigmodel\.cn\.$/,
    ],
    [
      { code: 'UND_ERR_CONNECT_TIMEOUT', message: 'Connect Timeout Error' },
      'timeout',
      /^Connecting to open\.bigmodel\.cn timed out\.$/,
    ],
    [{ code: 'ECONNRESET', message: 'read ECONNRESET' }, 'reset', /closed unexpectedly/],
    [
      { code: 'ENETUNREACH', message: 'connect ENETUNREACH' },
      'unreachable',
      /no route to open\.bigmodel\.cn/,
    ],
    [
      { code: 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', message: 'unable to get local issuer certificate' },
      'certificate',
      /could not be verified/,
    ],
    [
      { code: 'CERT_HAS_EXPIRED', message: 'certificate has expired' },
      'certificate',
      /could not be verified/,
    ],
  ] as const)('%j → %s', (cause, network, what) => {
    const info = fetchFailure(fetchError(cause), BASE);
    expect(info.network).toBe(network);
    expect(person(info).what).toMatch(what);
  });

  it('finds the code one level down and inside an AggregateError (one error per address)', () => {
    const inner = Object.assign(new Error('connect ECONNREFUSED ::1:443'), { code: 'ECONNREFUSED' });
    const aggregate = new AggregateError([inner], '');
    expect(fetchFailure(fetchError(aggregate), BASE).network).toBe('refused');
    expect(fetchFailure(fetchError({ cause: inner }), BASE).network).toBe('refused');
  });

  it('a certificate problem is not retried and says how to trust a company certificate, with the code', () => {
    const info = fetchFailure(
      fetchError({
        code: 'SELF_SIGNED_CERT_IN_CHAIN',
        message: 'self-signed certificate in certificate chain',
      }),
      BASE,
    );
    expect(info.retryable).toBe(false);
    const p = person(info);
    expect(p.why).toContain('SELF_SIGNED_CERT_IN_CHAIN');
    expect(p.tries).toContain('NODE_EXTRA_CA_CERTS');
  });

  it('through a proxy: the proxy is named (without its password) when it is the one that failed', () => {
    const proxy = 'http://ann:pw@10.0.0.8:3128';
    const refused = fetchFailure(
      fetchError({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 10.0.0.8:3128' }),
      BASE,
      proxy,
    );
    const p = person(refused);
    expect(p.what).toBe('Could not connect to 10.0.0.8:3128: connection refused.');
    expect(p.tries).toContain('the proxy 10.0.0.8:3128 (HTTPS_PROXY or HTTP_PROXY)');
    expect(JSON.stringify(p)).not.toContain('pw@');
    const tunnel = fetchFailure(
      fetchError(new Error('Proxy response (407) !== 200 when HTTP Tunneling')),
      BASE,
      proxy,
    );
    expect(tunnel.network).toBe('proxy');
    expect(person(tunnel).what).toBe('Could not connect through the proxy 10.0.0.8:3128.');
  });

  it('in Chinese too', () => {
    setLanguage('zh');
    const p = person(
      fetchFailure(fetchError({ code: 'ECONNREFUSED', message: 'x' }), 'http://127.0.0.1:5/api'),
    );
    expect(p.what).toBe('无法连接到 127.0.0.1:5：连接被拒绝。');
    expect(p.why).toMatch(/^该地址和端口上没有服务在监听/);
    expect(p.tries).toContain('zhi config get base_url');
  });

  it('an unknown cause keeps the general message, with the deepest reason instead of "fetch failed"', () => {
    const p = person(fetchFailure(fetchError(new Error('bad port')), 'http://127.0.0.1:1/api'));
    expect(p.what).toBe('zhi will not connect to 127.0.0.1:1: that port is blocked for safety.');
    const other = person(fetchFailure(fetchError(new Error('something odd')), BASE));
    expect(other.what).toBe('Could not reach the Zhipu API.');
    expect(other.why).toBe('The system said: “something odd”');
  });
});

describe("the platform's own words", () => {
  it('are labelled as the platform’s answer, in the person’s language, with status and code', () => {
    const err = {
      kind: 'auth' as const,
      status: 401,
      code: '401',
      message: '令牌已过期或验证不正确！',
      retryable: false,
    };
    setLanguage('en');
    expect(describeApiError(err, PLATFORMS.bigmodel).whyText()).toBe(
      'the platform answered “令牌已过期或验证不正确！” (HTTP 401, code 401)',
    );
    setLanguage('zh');
    expect(describeApiError(err, PLATFORMS.bigmodel).whyText()).toBe(
      '平台的回复：“令牌已过期或验证不正确！”（HTTP 401，错误码 401）',
    );
    setLanguage('en');
  });
});
