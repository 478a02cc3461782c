/**
 * MCP servers as tools, end to end: real servers (the npm package
 * @modelcontextprotocol/server-filesystem, and a small SDK server that crashes on demand) started
 * by zhi from config.yaml, their tools called by the fake model, results in the next request.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fake-zhipu/server.js';
import { useE2E } from '../helpers/e2e.js';

const require = createRequire(import.meta.url);
const FS_SERVER = join(
  resolve(require.resolve('@modelcontextprotocol/server-filesystem/package.json'), '..'),
  'dist/index.js',
);
const CRASHY = resolve(import.meta.dirname, '../fixtures/mcp/crashy.mjs');

const e = useE2E();
const { fake } = e;
let home: string;
let work: string;
beforeEach(() => {
  ({ home, cwd: work } = e);
});

const zhi = (args: string[]) => e.zhi(args, { timeoutMs: 30_000 });
const chats = (): RecordedRequest[] => fake.requests.filter((r) => r.path.endsWith('/chat/completions'));
const toolNames = (req: RecordedRequest): string[] =>
  (req.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name);
const toolResults = (req: RecordedRequest): string[] =>
  req.body.messages
    .filter((m: { role: string }) => m.role === 'tool')
    .map((m: { content: string }) => m.content);

function config(yaml: string): void {
  writeFileSync(join(home, 'config.yaml'), yaml);
}

describe('MCP servers as tools', () => {
  it('starts a real stdio server from npm, the model calls its tool, the result reaches the next request; zhi mcp list shows it', async () => {
    const data = join(work, 'data');
    mkdirSync(data);
    writeFileSync(join(data, 'a.txt'), 'hello from the filesystem server');
    config(
      [
        'mcp_servers:',
        '  files:',
        '    command: node',
        `    args: [${JSON.stringify(FS_SERVER)}, ${JSON.stringify(data)}]`,
        '    trust: read',
        '    include: [read_text_file, list_directory]',
      ].join('\n'),
    );
    fake.script(
      { kind: 'tools', calls: [{ name: 'files__read_text_file', arguments: { path: join(data, 'a.txt') } }] },
      { kind: 'text', text: 'The file says hello.' },
    );
    const r = await zhi(['-c', 'What does data/a.txt say?']);
    expect(r.stderr).not.toContain('not available');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('The file says hello.\n');
    const [first, second] = chats();
    expect(toolNames(first!)).toEqual(
      expect.arrayContaining(['files__read_text_file', 'files__list_directory']),
    );
    expect(toolNames(first!)).not.toContain('files__write_file');
    const schema = first!.body.tools.find(
      (t: { function: { name: string } }) => t.function.name === 'files__read_text_file',
    ).function;
    expect(schema.description).toMatch(/^\[MCP server "files"\]/);
    expect(schema.parameters.type).toBe('object');
    expect(schema.parameters.properties.path.type).toBe('string');
    expect(JSON.stringify(schema.parameters)).not.toContain('$schema');
    expect(toolResults(second!)).toEqual(['hello from the filesystem server']);

    const list = await zhi(['mcp', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('files (stdio, trust: read): running');
    expect(list.stdout).toContain('tools: files__read_text_file, files__list_directory');
  });

  it('without a terminal, a server not trusted as read-only does not run: the call is denied and the chat goes on', async () => {
    config(
      ['mcp_servers:', '  crashy:', '    command: node', `    args: [${JSON.stringify(CRASHY)}]`].join('\n'),
    );
    fake.script(
      { kind: 'tools', calls: [{ name: 'crashy__echo', arguments: { text: 'hi' } }] },
      { kind: 'text', text: 'Could not run it.' },
    );
    const r = await zhi(['-c', 'echo hi']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Could not run it.\n');
    const result = toolResults(chats()[1]!)[0]!;
    expect(result).toMatch(/^Error: /);
    expect(result).not.toContain('echo: hi');
  });

  it('a server that crashes mid-call gives a clear tool error, is restarted once, and after a second crash its tools are gone', async () => {
    config(
      [
        'mcp_servers:',
        '  crashy:',
        '    command: node',
        `    args: [${JSON.stringify(CRASHY)}]`,
        '    trust: read',
      ].join('\n'),
    );
    fake.script(
      { kind: 'tools', calls: [{ name: 'crashy__crash', arguments: {} }] },
      { kind: 'tools', calls: [{ name: 'crashy__echo', arguments: { text: 'still here' } }] },
      { kind: 'tools', calls: [{ name: 'crashy__crash', arguments: {} }] },
      { kind: 'text', text: 'The server is gone; I carried on without it.' },
    );
    const r = await zhi(['-c', 'try the server']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('The server is gone; I carried on without it.\n');
    const [, second, third, fourth] = chats();
    const firstCrash = toolResults(second!)[0]!;
    expect(firstCrash).toContain('The MCP server "crashy" stopped while running crash');
    expect(firstCrash).toContain('zhi restarted it');
    expect(firstCrash).toContain('crashy: going down');
    expect(toolResults(third!)[1]).toBe('echo: still here');
    expect(toolResults(fourth!)[2]).toContain('could not be restarted, so its tools are gone');
    expect(toolNames(fourth!).filter((n) => n.startsWith('crashy__'))).toEqual([]);
    expect(toolNames(second!)).toContain('crashy__echo');
  });

  it('a server that cannot start is reported once, and the chat works without it', async () => {
    config(['mcp_servers:', '  broken:', '    command: /nonexistent/mcp-server'].join('\n'));
    const r = await zhi(['-c', 'hello']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('OK\n');
    expect(r.stderr).toContain('MCP server broken: spawn /nonexistent/mcp-server ENOENT');
    expect(r.stderr.match(/MCP server broken/g)).toHaveLength(1);
  });

  it('zhi mcp add and remove edit config.yaml; a bad entry is refused with its reason', async () => {
    const add = await zhi(['mcp', 'add', 'files', '--trust', 'read', '--', 'node', FS_SERVER, work]);
    expect(add.code).toBe(0);
    const list = await zhi(['mcp', 'test', 'files']);
    expect(list.stdout).toContain('files (stdio, trust: read): running');
    const dup = await zhi(['mcp', 'add', 'files', '--', 'node']);
    expect(dup.code).toBe(2);
    expect(dup.stderr).toContain('An MCP server called "files" is already configured.');
    const bad = await zhi(['mcp', 'add', 'web', '--trust', 'always', '--url', 'https://example.com/mcp']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('trust must be one of ask, read, auto');
    const removed = await zhi(['mcp', 'remove', 'files']);
    expect(removed.code).toBe(0);
    expect((await zhi(['mcp', 'list'])).stdout).toContain('No MCP servers are configured.');
  });

  it('a skill uses an MCP server with tools: [mcp:<server>]; an unknown server is a clear error', async () => {
    config(
      [
        'mcp_servers:',
        '  crashy:',
        '    command: node',
        `    args: [${JSON.stringify(CRASHY)}]`,
        '    trust: read',
      ].join('\n'),
    );
    mkdirSync(join(home, 'skills'));
    writeFileSync(
      join(home, 'skills', 'echoer.yaml'),
      'name: echoer\ndescription: Echo through the server\nsystem_prompt: Use the echo tool.\ntools: [mcp:crashy]\n',
    );
    writeFileSync(
      join(home, 'skills', 'lost.yaml'),
      'name: lost\ndescription: Uses a missing server\nsystem_prompt: p\ntools: [mcp:github]\n',
    );
    fake.script(
      { kind: 'tools', calls: [{ name: 'crashy__echo', arguments: { text: 'from a skill' } }] },
      { kind: 'text', text: 'Echoed.' },
    );
    const r = await zhi(['run', 'echoer']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Echoed.\n');
    const [first, second] = chats();
    expect(toolNames(first!).sort()).toEqual(['crashy__crash', 'crashy__echo']);
    expect(toolResults(second!)).toEqual(['echo: from a skill']);

    const lost = await zhi(['run', 'lost']);
    expect(lost.code).toBe(3);
    expect(lost.stderr).toContain(
      'The skill lost uses the MCP server "github", which is not in config.yaml.',
    );
  });
});
