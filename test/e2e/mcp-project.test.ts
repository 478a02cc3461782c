/**
 * A project's own MCP servers, `.zhi/mcp.yaml` (issue 43 point 2): never started unasked. With no
 * terminal they are left out with a warning; at a terminal the person is shown what the file
 * starts and asked once per folder and content (a yes holds for the next chat; an edited file
 * asks again); a name config.yaml already uses stays the person's.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fake-zhipu/server.js';
import { useE2E } from '../helpers/e2e.js';
import { NOTES } from '../helpers/mcp.js';

const e = useE2E();
const { fake } = e;

function projectFile(extra = ''): void {
  mkdirSync(join(e.cwd, '.zhi'), { recursive: true });
  const lines = ['mcp_servers:', '  notes:', '    command: node', `    args: [${JSON.stringify(NOTES)}]`];
  writeFileSync(join(e.cwd, '.zhi', 'mcp.yaml'), `${lines.join('\n')}\n${extra}`);
}

const searchDescription = (req: RecordedRequest): string =>
  req.body.tools.find((t: { function: { name: string } }) => t.function.name === 'tool_search').function
    .description;

describe("a project's MCP servers (.zhi/mcp.yaml)", () => {
  it('with no terminal: not started, and the warning says how to allow them', async () => {
    projectFile();
    fake.script({ kind: 'text', text: 'Hi.' });
    const r = await e.zhi(['-c', 'hello'], { timeoutMs: 30_000 });
    expect(r.stdout).toBe('Hi.\n');
    expect(r.stderr).toContain(
      'lists MCP servers (notes); they are not started, since nobody can be asked here.',
    );
    expect(searchDescription(fake.chatRequests()[0]!)).not.toContain('notes');
  });

  it('at a terminal: shown and asked; yes holds for the next chat in this folder; an edited file asks again', async () => {
    projectFile();
    fake.script(
      { kind: 'text', text: 'First.' },
      { kind: 'text', text: 'Second.' },
      { kind: 'text', text: 'Third.' },
    );
    const ask = async (expectQuestion: boolean, answer: string, reply: string) => {
      const s = e.pty({ cols: 140, rows: 40 });
      await s.waitFor(/\]> $/, 15_000);
      const from = s.mark();
      s.write('hello\r');
      if (expectQuestion) {
        await s.waitFor('Allow them in this folder?', 20_000, from);
        expect(s.text().slice(from)).toContain(`notes: node ${NOTES}`);
        s.write(`${answer}\r`);
      }
      await s.waitFor(reply, 20_000, from);
      const seen = s.text().slice(from);
      s.write('/exit\r');
      await s.exited();
      return seen;
    };
    await ask(true, 'y', 'First.');
    expect(searchDescription(fake.chatRequests()[0]!)).toMatch(/notes \((starting|\d+)\)/);
    const second = await ask(false, '', 'Second.');
    expect(second).not.toContain('Allow them in this folder?');
    expect(searchDescription(fake.chatRequests()[1]!)).toMatch(/notes \((starting|\d+)\)/);
    projectFile('# changed\n');
    await ask(true, 'n', 'Third.');
    expect(searchDescription(fake.chatRequests()[2]!)).not.toContain('notes');
  });

  it("a name config.yaml uses stays the person's", async () => {
    projectFile();
    writeFileSync(join(e.home, 'config.yaml'), 'mcp_servers:\n  notes:\n    url: http://127.0.0.1:9/mcp\n', {
      mode: 0o600,
    });
    fake.script({ kind: 'text', text: 'Hi.' });
    const r = await e.zhi(['-c', 'hello'], { timeoutMs: 30_000 });
    expect(r.stderr).toContain('The MCP server "notes" in');
    expect(r.stderr).toContain('is left out: your config.yaml has a server of that name.');
  });
});

describe('zhi mcp import', () => {
  it(".mcp.json's servers join config.yaml (trust: ask); one already there and a bad one are said; zh too", async () => {
    writeFileSync(
      join(e.cwd, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          notes: { command: 'node', args: [NOTES] },
          old: { type: 'sse', url: 'http://127.0.0.1:9/sse' },
          broken: { type: 'stdio' },
        },
      }),
    );
    writeFileSync(join(e.home, 'config.yaml'), 'mcp_servers:\n  old:\n    url: http://127.0.0.1:9/mcp\n', {
      mode: 0o600,
    });
    const r = await e.zhi(['mcp', 'import'], { timeoutMs: 30_000 });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('The MCP server old is already in config.yaml: left as it is.');
    expect(r.stderr).toContain('Not imported: ');
    expect(r.stderr).toMatch(/Imported 1 MCP server\(s\) from .*\.mcp\.json into .*config\.yaml: notes\./);
    const list = await e.zhi(['mcp', 'test', 'notes'], { timeoutMs: 30_000 });
    expect(list.stdout).toContain('notes (stdio, trust: ask): running');
    const zh = await e.zhi(['mcp', 'import', 'nope.json'], {
      timeoutMs: 30_000,
      env: { ZHI_LANGUAGE: 'zh' },
    });
    expect(zh.code).toBe(2);
    expect(zh.stderr).toContain('找不到要导入 MCP 服务器的文件');
  });
});
