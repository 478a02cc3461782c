/**
 * MCP servers start in the background (issue 43 point 2): the first message goes out while
 * three slow servers (3 s each before they answer `initialize`) are still starting — the first
 * request's tool_search says "starting" for each, which it says only of a server not up when the
 * request was built. A call of a starting server's tool, or a search, waits for that server; one
 * that takes longer than its `timeout:` is reported once, naming that setting, with no stack.
 * The stdio servers get the proxy variables from zhi's environment.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fake-zhipu/server.js';
import { useE2E } from '../helpers/e2e.js';
import { SLOW } from '../helpers/mcp.js';
import { toolResults } from '../helpers/requests.js';

const e = useE2E();
const { fake } = e;

function slowServers(extra: string[] = []): void {
  const server = (name: string, timeout?: number) => [
    `  ${name}:`,
    '    command: node',
    `    args: [${JSON.stringify(SLOW)}]`,
    '    env: { SLOW_MS: "3000" }',
    '    trust: read',
    '    egress: true',
    ...(timeout ? [`    timeout: ${timeout}`] : []),
  ];
  const lines = ['mcp_servers:', ...server('slow1'), ...server('slow2'), ...server('slow3', 1), ...extra];
  writeFileSync(join(e.home, 'config.yaml'), lines.join('\n'), { mode: 0o600 });
}

const searchDescription = (req: RecordedRequest): string =>
  req.body.tools.find((t: { function: { name: string } }) => t.function.name === 'tool_search').function
    .description;

const PROXY_ENV = {
  HTTPS_PROXY: 'http://127.0.0.1:9',
  no_proxy: '127.0.0.1,localhost',
  NO_PROXY: '127.0.0.1,localhost',
};

describe('MCP servers starting in the background', () => {
  it('the first request leaves before 3 slow servers are up; a call and a search wait for theirs; a slow start names timeout:', async () => {
    slowServers();
    fake.script(
      // Called by name while slow1 is still starting (as after a resumed session).
      { kind: 'tools', calls: [{ name: 'slow1__proxy_env', arguments: {} }] },
      { kind: 'tools', calls: [{ name: 'tool_search', arguments: { query: 'select:slow2__proxy_env' } }] },
      { kind: 'tools', calls: [{ name: 'tool_search', arguments: { query: 'slow3' } }] },
      { kind: 'text', text: 'Done.' },
    );
    const r = await e.zhi(['-c', 'What proxy do the servers see?'], { timeoutMs: 30_000, env: PROXY_ENV });
    expect(r.stdout).toBe('Done.\n');
    const [first, second, third, fourth] = fake.chatRequests();
    // Built before any of them answered initialize.
    const described = searchDescription(first!);
    for (const name of ['slow1', 'slow2', 'slow3']) expect(described).toContain(`${name} (starting)`);
    // The call waited for slow1 and ran; its server got the proxy settings, not zhi's key.
    const env = toolResults(second!)[0]!;
    expect(env).toContain('HTTPS_PROXY=http://127.0.0.1:9');
    expect(env).toContain('NO_PROXY=127.0.0.1,localhost');
    expect(env).toContain('no_proxy=127.0.0.1,localhost');
    expect(env).not.toContain('ZHI_');
    // The search waited for slow2 and found its tool.
    expect(toolResults(third!)[1]).toContain('Found 1 tool(s)');
    expect(third!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toContain(
      'slow2__proxy_env',
    );
    // slow3 (timeout: 1) did not make it: the model is told, and so is the person, once.
    expect(toolResults(fourth!)[2]).toMatch(/Not available: the MCP server "slow3" did not start .*timeout:/);
    const warned = r.stderr.split('\n').filter((l) => l.includes('slow3'));
    expect(warned.join('\n')).toMatch(/slow3: it did not finish starting within 1 s.*timeout:/);
    expect(r.stderr.match(/MCP server slow3/g)).toHaveLength(1);
    expect(r.stderr).not.toMatch(/\s+at\s|node:internal/);
  });

  it('a server whose command is missing: the answer does not wait; a search tells the model and the person, once', async () => {
    slowServers(['  broken:', '    command: no-such-mcp-server-zhi', '    trust: read']);
    fake.script(
      { kind: 'tools', calls: [{ name: 'tool_search', arguments: { query: 'broken' } }] },
      { kind: 'tools', calls: [{ name: 'tool_search', arguments: { query: 'broken' } }] },
      { kind: 'text', text: 'Hi.' },
    );
    const r = await e.zhi(['-c', 'hello'], { timeoutMs: 30_000 });
    expect(r.stdout).toBe('Hi.\n');
    const [first, second] = fake.chatRequests();
    expect(searchDescription(first!)).toContain('slow1 (starting)');
    expect(toolResults(second!)[0]).toMatch(
      /Not available: .*the MCP server "broken" did not start \(the command "no-such-mcp-server-zhi" was not found/,
    );
    expect(r.stderr).toMatch(/MCP server broken: the command "no-such-mcp-server-zhi" was not found/);
    expect(r.stderr.match(/MCP server broken/g)).toHaveLength(1);
  });
});
