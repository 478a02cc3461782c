import { describe, expect, it } from 'vitest';
import { parentName } from '../../src/cli/web/double-click.js';
import { cookieSecret, judge, type RequestFacts } from '../../src/cli/web/guard.js';

const PORT = 4567;
const SECRET = 's3cret-s3cret-s3cret';
const own = `127.0.0.1:${PORT}`;
const base: RequestFacts = {
  method: 'GET',
  path: '/api/status',
  host: own,
  origin: undefined,
  fetchSite: undefined,
  cookie: undefined,
  authorization: `Bearer ${SECRET}`,
};
const cookie = `other=1; zhi_${PORT}=${SECRET}`;

describe('judge', () => {
  const cases: [string, Partial<RequestFacts>, string, string?][] = [
    ['bearer', {}, 'ok:bearer'],
    ['bearer, localhost', { host: `localhost:${PORT}` }, 'ok:bearer'],
    ['bearer, [::1]', { host: `[::1]:${PORT}` }, 'ok:bearer'],
    ['no secret', { authorization: undefined }, '401'],
    ['wrong bearer', { authorization: 'Bearer nope' }, '401'],
    ['a longer bearer', { authorization: `Bearer ${SECRET}x` }, '401'],
    ['foreign host', { host: 'evil.example' }, '421'],
    ['foreign host with our port', { host: `evil.example:${PORT}` }, '421'],
    ['our host, another port', { host: `127.0.0.1:${PORT + 1}` }, '421'],
    ['no host', { host: undefined }, '421'],
    ['foreign origin', { origin: 'https://evil.example' }, '403'],
    ['null origin', { origin: 'null' }, '403'],
    ['own origin, another port', { origin: `http://127.0.0.1:${PORT + 1}` }, '403'],
    ['cross-site fetch', { fetchSite: 'cross-site' }, '403'],
    ['another port of this host (same-site)', { fetchSite: 'same-site', fetchMode: 'cors' }, '403'],
    ['cross-site navigation to an API', { fetchSite: 'cross-site', fetchMode: 'navigate' }, '403'],
    [
      'the printed address opened from a file',
      { authorization: undefined, path: '/', fetchSite: 'cross-site', fetchMode: 'navigate' },
      'ok:none',
      SECRET,
    ],
    [
      'the page opened from elsewhere without its cookie',
      { authorization: undefined, path: '/', fetchSite: 'cross-site', fetchMode: 'navigate' },
      '401',
    ],
    ['cookie read', { authorization: undefined, cookie }, 'ok:cookie'],
    ['cookie of another port', { authorization: undefined, cookie: `zhi_1=${SECRET}` }, '401'],
    ['cookie POST without origin (CSRF)', { authorization: undefined, cookie, method: 'POST' }, '403'],
    ['cookie DELETE without origin', { authorization: undefined, cookie, method: 'DELETE' }, '403'],
    [
      'cookie POST from the page',
      { authorization: undefined, cookie, method: 'POST', origin: `http://${own}` },
      'ok:cookie',
    ],
    ['bearer POST without origin', { method: 'POST' }, 'ok:bearer'],
    ['favicon without a secret', { authorization: undefined, path: '/favicon.ico' }, 'ok:none'],
    ['favicon from a foreign host', { authorization: undefined, path: '/favicon.ico', host: 'x' }, '421'],
    ['the printed address', { authorization: undefined, path: '/' }, 'ok:none', SECRET],
    ['the printed address, wrong token', { authorization: undefined, path: '/' }, '401', 'nope'],
  ];
  it.each(cases)('%s', (_name, facts, want, token) => {
    const v = judge({ ...base, ...facts }, PORT, SECRET, token);
    expect(v.ok ? `ok:${v.by}` : String(v.status)).toBe(want);
  });
});

describe('cookieSecret', () => {
  it('reads only the cookie named for this port', () => {
    expect(cookieSecret(`a=1; zhi_${PORT}=abc; zhi_9=def`, PORT)).toBe('abc');
    expect(cookieSecret('zhi=abc', PORT)).toBeUndefined();
    expect(cookieSecret(undefined, PORT)).toBeUndefined();
  });
});

describe('parentName (the double-clicked Windows executable)', () => {
  it.each([
    ['"explorer.exe","4312","Console","1","120,344 K"\r\n', 'explorer.exe'],
    ['"Explorer.EXE","4312","Console","1","120,344 K"', 'explorer.exe'],
    ['"cmd.exe","9000","Console","1","4,000 K"', 'cmd.exe'],
    ['INFO: No tasks are running which match the specified criteria.', undefined],
  ])('%j', (csv, want) => expect(parentName(csv)).toBe(want));
});
