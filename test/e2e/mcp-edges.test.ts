/**
 * MCP at the edges and house rules: `trust: auto` with --auto in a script, `zhi mcp add --env`,
 * servers that cannot start said in words, HTTP servers through the proxy, 50 calls in one run
 * without a listener leak; ZHI.md / AGENTS.md in the system prompt.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { CRASHY } from '../helpers/mcp.js';
import { toolResults } from '../helpers/requests.js';

const e = useE2E();
const { fake } = e;
let home: string;
let work: string;
beforeEach(() => {
  ({ home, cwd: work } = e);
});

const zhi = (args: string[], env: Record<string, string> = {}, cwd?: string) =>
  e.zhi(args, { timeoutMs: 60_000, env, ...(cwd ? { cwd } : {}) });
const config = (lines: string[]) =>
  writeFileSync(join(home, 'config.yaml'), lines.join('\n'), { mode: 0o600 });
/**
 * Servers start in the background: the model's first move is a search, which waits for them, so
 * a failure is known (and said) before the answer whatever the machine's speed.
 */
const searchFirst = () =>
  fake.script({ kind: 'tools', calls: [{ name: 'tool_search', arguments: { query: 'anything' } }] });
const crashy = (trust: string, egress = true) =>
  config([
    'mcp_servers:',
    '  crashy:',
    '    command: node',
    `    args: [${JSON.stringify(CRASHY)}]`,
    `    trust: ${trust}`,
    ...(egress ? ['    egress: true'] : []),
  ]);

describe('MCP at the edges', () => {
  it('trust: auto with --auto runs without a terminal, as documented; without --auto it is denied', async () => {
    crashy('auto');
    fake.script(
      { kind: 'tools', calls: [{ name: 'crashy__echo', arguments: { text: 'scripted' } }] },
      { kind: 'text', text: 'Echoed.' },
    );
    const r = await zhi(['-c', 'echo it', '--auto']);
    expect(r.code).toBe(0);
    expect(toolResults(fake.chatRequests()[1]!)).toEqual(['echo: scripted']);
    fake.script(
      { kind: 'tools', calls: [{ name: 'crashy__echo', arguments: { text: 'again' } }] },
      { kind: 'text', text: 'Denied.' },
    );
    await zhi(['-c', 'echo it']);
    expect(toolResults(fake.chatRequests()[3]!)[0]).toMatch(/^Error: /);
  });

  it('trust: auto without egress: true — the arguments still leave for the server, so --auto with no terminal refuses with the reason', async () => {
    crashy('auto', false);
    fake.script(
      { kind: 'tools', calls: [{ name: 'crashy__echo', arguments: { text: 'my salary' } }] },
      { kind: 'text', text: 'Refused.' },
    );
    const r = await zhi(['-c', 'echo it', '--auto']);
    expect(r.code).toBe(0);
    expect(toolResults(fake.chatRequests()[1]!)[0]).toMatch(
      /^Error: Denied: this call would send data off this computer/,
    );
    expect(r.stderr).toContain('to MCP crashy: {"text":"my salary"}');
    expect(r.stderr).toContain('there is no terminal to ask you');
  });

  it('50 MCP calls in one run: no MaxListenersExceededWarning', async () => {
    crashy('read');
    const turn = (n: number) => ({
      kind: 'tools' as const,
      calls: Array.from({ length: 5 }, (_, i) => ({
        name: 'crashy__echo',
        arguments: { text: `${n}-${i}` },
      })),
    });
    fake.script(...Array.from({ length: 10 }, (_, n) => turn(n)), { kind: 'text', text: 'Fifty.' });
    const r = await zhi(['-c', 'echo fifty times']);
    expect(r.stdout).toBe('Fifty.\n');
    expect(toolResults(fake.chatRequests()[10]!)).toHaveLength(50);
    expect(toolResults(fake.chatRequests()[10]!).at(-1)).toBe('echo: 9-4');
    expect(r.stderr).not.toContain('MaxListeners');
  });

  it('zhi mcp add --env keeps every variable (and the server gets them); a malformed one is refused', async () => {
    const add = await zhi(['mcp', 'add', 'crashy', '--env', 'A=1', '--env', 'B=two=2', '--', 'node', CRASHY]);
    expect(add.code).toBe(0);
    const yaml = readFileSync(join(home, 'config.yaml'), 'utf8');
    expect(yaml).toMatch(/env:\s*\n\s+A: "?1"?\s*\n\s+B: two=2/);
    const bad = await zhi(['mcp', 'add', 'other', '--env', 'NOVALUE', '--', 'node', CRASHY]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--env "NOVALUE" is not a setting: write it as NAME=value.');
  });

  it('a server that cannot start is said in words, in both languages: no raw ENOENT, no "fetch failed"', async () => {
    // A port where nothing listens.
    const closed = createServer();
    await new Promise<void>((ok) => closed.listen(0, '127.0.0.1', ok));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((ok) => closed.close(() => ok()));
    const url = `http://127.0.0.1:${port}/mcp`;
    config(['mcp_servers:', '  gone:', '    command: /nonexistent/mcp-server', '  dead:', `    url: ${url}`]);
    searchFirst();
    const r = await zhi(['-c', 'hello']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'MCP server gone: the command "/nonexistent/mcp-server" was not found: is it installed, and on PATH?',
    );
    expect(r.stderr).toContain(`MCP server dead: nothing answers at ${url} (connection refused)`);
    expect(r.stderr).not.toMatch(/ENOENT|fetch failed/);
    searchFirst();
    const zh = await zhi(['-c', 'hello'], { ZHI_LANGUAGE: 'zh' });
    expect(zh.stderr).toContain('找不到命令 “/nonexistent/mcp-server”');
    expect(zh.stderr).toContain(`${url} 没有应答（连接被拒绝）`);
  });
});

describe('an HTTP MCP server behind a proxy', () => {
  let proxy: Server;
  const seen: string[] = [];
  beforeEach(async () => {
    seen.length = 0;
    // A proxy that records what it is asked for and lets nothing through.
    proxy = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(404).end('not here');
    });
    proxy.on('connect', (req, socket) => {
      seen.push(`CONNECT ${req.url}`);
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    });
    await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', ok));
  });
  afterEach(() => new Promise<void>((ok) => proxy.close(() => ok())));

  it('goes through HTTP_PROXY (NO_PROXY still reaches the API directly) and names the cause', async () => {
    config(['mcp_servers:', '  remote:', '    url: http://mcp.example.invalid/mcp']);
    const port = (proxy.address() as AddressInfo).port;
    searchFirst();
    const r = await zhi(['-c', 'hello'], {
      HTTP_PROXY: `http://127.0.0.1:${port}`,
      NO_PROXY: '127.0.0.1,localhost',
    });
    expect(r.stdout).toBe('OK\n');
    // undici's proxy agent tunnels every request (CONNECT), http:// ones too.
    expect(seen.some((s) => s.includes('mcp.example.invalid'))).toBe(true);
    // The server and the proxy are both named, and that it was the proxy that refused.
    expect(r.stderr).toContain(
      `MCP server remote: the proxy 127.0.0.1:${port} refused to connect to http://mcp.example.invalid/mcp (HTTP 403)`,
    );
    expect(r.stderr).not.toContain('fetch failed —');
    expect(r.stderr).not.toMatch(/Tunneling|UNDICI|experimental/);
    searchFirst();
    const zh = await zhi(['-c', 'hello'], {
      HTTP_PROXY: `http://user:secret@127.0.0.1:${port}`,
      NO_PROXY: '127.0.0.1,localhost',
      ZHI_LANGUAGE: 'zh',
    });
    expect(zh.stderr).toContain(`代理 127.0.0.1:${port} 拒绝连接 http://mcp.example.invalid/mcp（HTTP 403）`);
    expect(zh.stderr).not.toContain('secret');
  });

  it('a proxy that does not answer is named as such, with the server', async () => {
    config(['mcp_servers:', '  remote:', '    url: http://mcp.example.invalid/mcp']);
    const port = (proxy.address() as AddressInfo).port;
    await new Promise<void>((ok) => proxy.close(() => ok()));
    proxy = createServer();
    searchFirst();
    const r = await zhi(['-c', 'hello'], {
      HTTP_PROXY: `http://127.0.0.1:${port}`,
      NO_PROXY: '127.0.0.1,localhost',
    });
    expect(r.stderr).toContain(
      `MCP server remote: the proxy 127.0.0.1:${port} does not answer (connection refused)`,
    );
    await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', ok));
  });
});

describe('project instructions', () => {
  it("ZHI.md and AGENTS.md here and in the parents, and the person's own ZHI.md, reach the system prompt in order", async () => {
    const sub = join(work, 'project', 'sub');
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(home, 'ZHI.md'), 'MARK-OWN: answer briefly.');
    writeFileSync(join(work, 'project', 'ZHI.md'), 'MARK-PROJECT: invoices are in EUR.');
    writeFileSync(join(sub, 'AGENTS.md'), 'MARK-AGENTS: use British spelling.');
    writeFileSync(join(sub, 'ZHI.md'), `MARK-SUB-ZHI ${'x'.repeat(20_000)}`);
    await zhi(['-c', 'hello'], {}, sub);
    const system: string = fake.chatRequests()[0]!.body.messages[0].content;
    const at = (m: string) => system.indexOf(m);
    for (const m of ['MARK-OWN', 'MARK-PROJECT', 'MARK-SUB-ZHI', 'MARK-AGENTS'])
      expect(at(m)).toBeGreaterThan(0);
    expect(at('MARK-OWN')).toBeLessThan(at('MARK-PROJECT'));
    expect(at('MARK-PROJECT')).toBeLessThan(at('MARK-SUB-ZHI'));
    expect(at('MARK-SUB-ZHI')).toBeLessThan(at('MARK-AGENTS'));
    expect(system).toContain(`<instructions file="${join(sub, 'AGENTS.md')}">`);
    // Capped: the long file is cut, and says so.
    expect(system).toContain('[cut: the file is longer than 12000 characters]');
    expect(system.length).toBeLessThan(30_000);
  });
});
