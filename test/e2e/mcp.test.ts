/**
 * MCP servers as tools, end to end: real servers (the npm package
 * @modelcontextprotocol/server-filesystem, and a small SDK server that crashes on demand) started
 * by zhi from config.yaml, their tools called by the fake model, results in the next request.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { CRASHY, FS_SERVER } from '../helpers/mcp.js';
import { makePng } from '../helpers/media.js';
import { toolNames, toolResults } from '../helpers/requests.js';
import { runZhi } from '../helpers/zhi.js';

const e = useE2E();
const { fake } = e;
let home: string;
let work: string;
beforeEach(() => {
  ({ home, cwd: work } = e);
});

const zhi = (args: string[]) => e.zhi(args, { timeoutMs: 30_000 });

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
        '    egress: true',
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
    const [first, second] = fake.chatRequests();
    // The server's tools wait for tool_search; one called by name is offered from then on.
    expect(toolNames(first!)).toContain('tool_search');
    expect(toolNames(first!).filter((n) => n.startsWith('files__'))).toEqual([]);
    expect(toolNames(second!)).toContain('files__read_text_file');
    expect(toolNames(second!)).not.toContain('files__list_directory');
    const schema = second!.body.tools.find(
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

  it('an image an MCP tool returns is shown to a vision model: its bytes reach a glm-4.6v-flash request, its description the next chat request; a GIF is only noted', async () => {
    const data = join(work, 'data');
    mkdirSync(data);
    const png = makePng(3, 2, [10, 200, 30]);
    writeFileSync(join(data, 'chart.png'), png);
    writeFileSync(join(data, 'anim.gif'), Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'));
    config(
      [
        'mcp_servers:',
        '  files:',
        '    command: node',
        `    args: [${JSON.stringify(FS_SERVER)}, ${JSON.stringify(data)}]`,
        '    trust: read',
        '    egress: true',
        '    include: [read_media_file]',
      ].join('\n'),
    );
    fake.script(
      {
        kind: 'tools',
        calls: [
          { name: 'files__read_media_file', arguments: { path: join(data, 'chart.png') } },
          { name: 'files__read_media_file', arguments: { path: join(data, 'anim.gif') } },
        ],
      },
      { kind: 'text', text: 'A green bar chart: sales 42 in March.' },
      { kind: 'text', text: 'The chart shows sales of 42 in March.' },
    );
    const r = await zhi(['-c', 'What does the chart in the data folder show?']);
    expect(r.stderr).not.toContain('not available');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('The chart shows sales of 42 in March.\n');
    const [first, vision, second] = fake.chatRequests();
    expect(first!.body.model).toBe('glm-5');
    expect(vision!.body.model).toBe('glm-4.6v-flash');
    expect(vision!.body.stream).toBeFalsy();
    const parts = vision!.body.messages[0].content as {
      type: string;
      text?: string;
      image_url?: { url: string };
    }[];
    expect(parts[0]!.text).toContain(
      'The tool "read_media_file" of the MCP server "files" returned this image',
    );
    expect(parts.filter((p) => p.type === 'image_url').map((p) => p.image_url!.url)).toEqual([
      `data:image/png;base64,${png.toString('base64')}`,
    ]);
    expect(vision!.body.tools).toBeUndefined();
    const [described, gif] = toolResults(second!);
    expect(described).toContain('[image from the MCP server "files": image/png');
    expect(described).toContain('described by the vision model glm-4.6v-flash');
    expect(described).toContain('A green bar chart: sales 42 in March.');
    expect(described).not.toContain(png.toString('base64'));
    expect(gif).toContain('image/gif');
    expect(gif).toContain('not shown to a vision model: image/gif is not a type the vision model takes');
    expect(fake.chatRequests()).toHaveLength(3);
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
    const result = toolResults(fake.chatRequests()[1]!)[0]!;
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
        '    egress: true',
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
    const [, second, third, fourth] = fake.chatRequests();
    const firstCrash = toolResults(second!)[0]!;
    expect(firstCrash).toContain('The MCP server "crashy" stopped while running crash');
    expect(firstCrash).toContain('zhi restarted it');
    expect(firstCrash).toContain('crashy: going down');
    expect(toolResults(third!)[1]).toBe('echo: still here');
    expect(toolResults(fourth!)[2]).toContain('could not be restarted, so its tools are gone');
    expect(toolNames(fourth!).filter((n) => n.startsWith('crashy__'))).toEqual([]);
    // tool_search stays for the deferred built-ins, no longer naming the server.
    const search = (fourth!.body.tools as { function: { name: string; description: string } }[]).find(
      (t) => t.function.name === 'tool_search',
    );
    expect(search?.function.description).not.toContain('crashy');
    expect(toolNames(third!)).toContain('crashy__crash');
  });

  it('a call that never answers ends at call_timeout with a clear error (en and zh), the run goes on; a hostile description is sanitized; arguments carrying a key are refused', async () => {
    config(
      [
        'mcp_servers:',
        '  crashy:',
        '    command: node',
        `    args: [${JSON.stringify(CRASHY)}]`,
        '    trust: read',
        '    egress: true',
        '    call_timeout: 2',
      ].join('\n'),
    );
    fake.script(
      // MCP tools are deferred: the hostile description is seen once the search loads the tool.
      { kind: 'tools', calls: [{ name: 'tool_search', arguments: { query: 'select:crashy__poisoned' } }] },
      { kind: 'tools', calls: [{ name: 'crashy__hang', arguments: {} }] },
      {
        kind: 'tools',
        calls: [{ name: 'crashy__echo', arguments: { text: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' } }],
      },
      { kind: 'text', text: 'Carried on.' },
    );
    const r = await e.zhi(['-c', 'try the server'], { timeoutMs: 30_000, env: { ZHI_LANGUAGE: 'zh' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Carried on.\n');
    const [, first, second, third] = fake.chatRequests();
    expect(toolResults(second!)[1]).toContain('did not answer hang within 2 s');
    expect(r.stderr).toContain('MCP 服务器“crashy”在 2 秒内没有回应 hang');
    expect(toolResults(third!)[2]).toMatch(/^Error: Refused: crashy__echo would send a secret/);
    const poisoned = (first!.body.tools ?? []).find(
      (t: { function: { name: string } }) => t.function.name === 'crashy__poisoned',
    );
    const description = poisoned.function.description as string;
    expect(description).toContain('Reads files.');
    expect(description).not.toMatch(/[\u001b\u202e\u200b]/);
    expect(description).toContain('\\u202e');
  });

  it('a server that cannot start is reported once, and the chat works without it', async () => {
    config(['mcp_servers:', '  broken:', '    command: /nonexistent/mcp-server'].join('\n'));
    // It starts in the background; the model's search waits for it (then the answer).
    fake.script({ kind: 'tools', calls: [{ name: 'tool_search', arguments: { query: 'broken' } }] });
    const r = await zhi(['-c', 'hello']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('OK\n');
    expect(r.stderr).toContain('MCP server broken: the command "/nonexistent/mcp-server" was not found');
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
    expect(bad.stderr).toContain(
      'This MCP server cannot be added: the setting "trust" is "always", but it must be one of ask, read, auto.',
    );
    const removed = await zhi(['mcp', 'remove', 'files']);
    expect(removed.code).toBe(0);
    expect((await zhi(['mcp', 'list'])).stdout).toContain('No MCP servers are configured.');
  });

  it('a bad mcp_servers entry is a clear warning naming the server and the setting (en and zh); the other servers still work; zhi mcp remove removes it', async () => {
    const yaml = [
      'mcp_servers:',
      '  crashy:',
      '    command: node',
      `    args: [${JSON.stringify(CRASHY)}]`,
      '    trust: read',
      '    egress: true',
      '  broken:',
      '    command: node',
      '    args: server.js',
    ];
    config(yaml.join('\n'));
    fake.script(
      { kind: 'tools', calls: [{ name: 'crashy__echo', arguments: { text: 'still works' } }] },
      { kind: 'text', text: 'Done.' },
    );
    const r = await zhi(['-c', 'echo']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Done.\n');
    expect(toolResults(fake.chatRequests()[1]!)).toEqual(['echo: still works']);
    expect(r.stderr).toContain('The MCP server "broken" in ');
    expect(r.stderr).toContain('is left out: the setting "args" must be a list of text');
    expect(r.stderr).toContain('remove it with `zhi mcp remove broken`');
    expect(r.stderr).not.toContain('[object Object]');
    expect(r.stderr).not.toContain('zhi config set');
    expect(toolNames(fake.chatRequests()[0]!).some((n) => n.startsWith('broken__'))).toBe(false);

    const zh = await runZhi({
      args: ['mcp', 'list'],
      baseUrl: fake.baseUrl,
      home,
      cwd: work,
      env: { ZHI_LANGUAGE: 'zh' },
      timeoutMs: 30_000,
    });
    expect(zh.code).toBe(0);
    expect(zh.stderr).toContain('MCP 服务器 “broken” 未被启用：设置项 “args” 必须是文本列表');
    expect(zh.stdout).toContain('crashy');

    const removed = await zhi(['mcp', 'remove', 'broken']);
    expect(removed.code).toBe(0);
    expect(readFileSync(join(home, 'config.yaml'), 'utf8')).not.toContain('broken');
    expect(readFileSync(join(home, 'config.yaml'), 'utf8')).toContain('crashy');
    expect((await zhi(['mcp', 'list'])).stderr).not.toContain('broken');

    config('mcp_servers: [files]\n');
    const list = await zhi(['mcp', 'list']);
    expect(list.code).toBe(3);
    expect(list.stderr).toContain('mcp_servers in ');
    expect(list.stderr).toContain('it must list servers by name');
    expect(list.stderr).not.toContain('[object Object]');
  });

  it('a skill uses an MCP server with tools: [mcp:<server>]; an unknown server is a clear error', async () => {
    config(
      [
        'mcp_servers:',
        '  crashy:',
        '    command: node',
        `    args: [${JSON.stringify(CRASHY)}]`,
        '    trust: read',
        '    egress: true',
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
    const [first, second] = fake.chatRequests();
    // A skill run sends its servers' tools whole (up to 20 of them; more wait for tool_search).
    expect(toolNames(first!).sort()).toEqual([
      'crashy__crash',
      'crashy__echo',
      'crashy__hang',
      'crashy__poisoned',
    ]);
    expect(toolResults(second!)).toEqual(['echo: from a skill']);

    const lost = await zhi(['run', 'lost']);
    expect(lost.code).toBe(3);
    expect(lost.stderr).toContain(
      'The skill lost uses the MCP server "github", which is not in config.yaml.',
    );
  });
});
