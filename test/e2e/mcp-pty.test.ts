/**
 * MCP in a real terminal: a tool of a server not trusted as read-only asks in approve mode, and
 * `/mcp` lists the server, its state and its tools.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fake-zhipu/server.js';
import { useE2E } from '../helpers/e2e.js';

const CRASHY = resolve(import.meta.dirname, '../fixtures/mcp/crashy.mjs');
const PROMPT = /zhi \[(approve|auto|确认|自动)\]> $/;

const e = useE2E();
const { fake } = e;
let home: string;
beforeEach(() => {
  home = e.home;
});

describe('MCP in the REPL', () => {
  it('asks before an MCP tool runs in approve mode, and /mcp shows the server and its tools', async () => {
    writeFileSync(
      join(home, 'config.yaml'),
      ['mcp_servers:', '  crashy:', '    command: node', `    args: [${JSON.stringify(CRASHY)}]`].join('\n'),
    );
    fake.script(
      { kind: 'tools', calls: [{ name: 'crashy__echo', arguments: { text: 'hello' } }] },
      { kind: 'text', text: 'The server echoed.' },
    );
    const s = e.pty({ cols: 120, rows: 40 });
    await s.waitFor(PROMPT, 15_000);
    let from = s.mark();
    s.write('echo hello through the server');
    await s.waitFor('echo hello through the server', 10_000, from);
    s.write('\r');
    await s.waitFor('Allow?', 15_000, from);
    expect(s.text().slice(from)).toContain('crashy__echo');
    s.write('y\r');
    await s.waitFor('The server echoed.', 15_000, from);
    await s.waitFor(PROMPT, 10_000, from);
    const second = fake.requests.filter((r: RecordedRequest) => r.path.endsWith('/chat/completions'))[1]!;
    expect(second.body.messages.at(-1).content).toBe('echo: hello');

    from = s.mark();
    s.write('/mcp');
    await s.waitFor('/mcp', 10_000, from);
    s.write('\r');
    await s.waitFor('tools: crashy__echo, crashy__crash', 10_000, from);
    expect(s.text().slice(from)).toContain('crashy (stdio, trust: ask): running');
  });
});
