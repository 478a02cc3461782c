/**
 * OAuth for remote MCP servers (issue 43 point 2), against a local authorization server: without
 * a sign-in the server's failure says to run `zhi mcp login <name>`; the login runs the
 * authorization code flow with PKCE in the (fake) browser and keeps the tokens in a 0600 file in
 * the config folder; a chat then calls the server's tool with them.
 */
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { OAUTH_SERVER } from '../helpers/mcp.js';
import { toolResults } from '../helpers/requests.js';

const e = useE2E();
const { fake } = e;
type Mod = {
  startOAuthServer(): Promise<{ url: string; close(): Promise<void> }>;
  fakeBrowser(dir: string): string;
};
const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closing.splice(0)) await c();
});

describe('OAuth for remote MCP servers', () => {
  it('says to log in; zhi mcp login signs in through the browser; the chat then uses the tool', async () => {
    const mod = (await import(pathToFileURL(OAUTH_SERVER).href)) as Mod;
    const s = await mod.startOAuthServer();
    closing.push(s.close);
    const bin = mod.fakeBrowser(join(e.home, 'bin'));
    const env = { PATH: `${bin}:${process.env.PATH}` };
    writeFileSync(
      join(e.home, 'config.yaml'),
      ['mcp_servers:', '  secure:', `    url: ${s.url}`, '    egress: true'].join('\n'),
      { mode: 0o600 },
    );
    const before = await e.zhi(['mcp', 'test', 'secure'], { timeoutMs: 30_000, env });
    expect(before.code).toBe(1);
    expect(before.stdout).toContain('it needs you to sign in: run `zhi mcp login secure`');
    const login = await e.zhi(['mcp', 'login', 'secure'], { timeoutMs: 30_000, env });
    expect(login.stderr).toContain('Sign in in your browser');
    expect(login.stderr).toContain('Signed in to the MCP server secure');
    expect(login.code).toBe(0);
    const file = join(e.home, 'mcp-oauth.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    fake.script(
      { kind: 'tools', calls: [{ name: 'secure__whoami', arguments: {} }] },
      { kind: 'text', text: 'Done.' },
    );
    const r = await e.zhi(['-c', 'who am I there?'], { timeoutMs: 30_000, env });
    expect(r.stdout).toBe('Done.\n');
    expect(toolResults(fake.chatRequests().at(-1)!)[0]).toMatch(/^signed in as client \S+/);
  });
});
