/**
 * Starting MCP servers (issue 43 point 2): what a crashed server's stderr shows (its error, not
 * its stack frames), and the proxy settings a stdio server gets from zhi's environment.
 */
import { describe, expect, it } from 'vitest';
import { mcpCause, stderrGist, withStderr } from '../../src/tools/mcp/errors.js';
import { proxyEnvironment } from '../../src/tools/mcp/transports.js';

const NODE_CRASH = `file:///home/me/server.mjs:3
throw new Error('DATABASE_URL is not set');
^

Error: DATABASE_URL is not set
    at file:///home/me/server.mjs:3:7
    at ModuleJob.run (node:internal/modules/esm/module_job:234:25)
    at async ModuleLoader.import (node:internal/modules/esm/loader:473:24)

Node.js v20.18.0
`;

const PYTHON_CRASH = `Traceback (most recent call last):
  File "/srv/server.py", line 12, in <module>
    main()
  File "/srv/server.py", line 9, in main
    raise RuntimeError("no token")
RuntimeError: no token
`;

describe('a server that crashed at start', () => {
  it.each([
    ['Node', NODE_CRASH, ['Error: DATABASE_URL is not set']],
    [
      'node -e',
      '[eval]:1\nthrow new Error("no DATABASE_URL")\n^\n\nError: no DATABASE_URL\n    at [eval]:1:7\n\nNode.js v20.18.0\n',
      ['Error: no DATABASE_URL'],
    ],
    ['Python', PYTHON_CRASH, ['RuntimeError: no token']],
    [
      'plain lines',
      'starting\nlistening on stdio\nbad flag --x\n',
      ['starting', 'listening on stdio', 'bad flag --x'],
    ],
  ])('%s: its error line is kept, no stack frames', (_, stderr, want) => {
    expect(stderrGist(stderr)).toEqual(want);
    const said = withStderr('it stopped as soon as it started', stderr, 'en');
    expect(said).not.toMatch(/\sat\s|node:internal|File "|Node\.js v|\^/);
  });
});

describe('proxy settings for stdio servers', () => {
  it('passes HTTP(S)_PROXY, NO_PROXY and ALL_PROXY in both spellings, nothing else', () => {
    const env = {
      HTTPS_PROXY: 'http://proxy:3128',
      http_proxy: 'http://proxy:3128',
      NO_PROXY: 'localhost,.corp',
      no_proxy: 'localhost',
      ZHI_API_KEY: 'secret',
      PATH: '/usr/bin',
      HTTP_PROXY: '',
    };
    expect(proxyEnvironment(env)).toEqual({
      HTTPS_PROXY: 'http://proxy:3128',
      http_proxy: 'http://proxy:3128',
      NO_PROXY: 'localhost,.corp',
      no_proxy: 'localhost',
    });
  });
});

describe('a server that asks for a sign-in', () => {
  const url = 'http://127.0.0.1:9/mcp';
  it.each([
    [
      'OAuth needed, zhi mcp login',
      { name: 'McpLoginNeeded', server: 'secure', message: 'x' },
      {},
      /run `zhi mcp login secure`/,
    ],
    [
      '401 with no OAuth',
      { message: 'HTTP 401: Invalid OAuth error response: <html>' },
      {},
      /asks for a sign-in \(HTTP 401\) but offers no OAuth/,
    ],
    [
      '401 to a given token',
      { code: 401, message: 'x' },
      { headers: { Authorization: 'Bearer t' } },
      /answered HTTP 401$/,
    ],
    [
      'a web page',
      { code: -1, message: 'Streamable HTTP error: Unexpected content type: text/html' },
      {},
      /answered with a web page, not MCP/,
    ],
    [
      '404 with an HTML body',
      { code: 404, message: 'Streamable HTTP error: Error POSTing to endpoint: <html>' },
      {},
      /answered HTTP 404$/,
    ],
  ])('%s', (_, err, extra, want) => {
    const said = mcpCause(
      Object.assign(new Error(err.message), err),
      { url, trust: 'ask', ...extra },
      30,
      'en',
    );
    expect(said).toMatch(want);
    expect(said).not.toContain('<html>');
  });
});
