/**
 * MCP in a real terminal: a tool of a server not trusted as read-only asks in approve mode, and
 * `/mcp` lists the server, its state and its tools.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fake-zhipu/server.js';
import { useE2E } from '../helpers/e2e.js';
import { CRASHY, FS_SERVER } from '../helpers/mcp.js';
import { unwrap } from '../helpers/untrusted.js';

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
    expect(s.text().slice(from)).toContain('crashy: echo');
    expect(s.text().slice(from)).not.toContain('crashy__echo');
    s.write('y\r');
    await s.waitFor('The server echoed.', 15_000, from);
    await s.waitFor(PROMPT, 10_000, from);
    const second = fake.requests.filter((r: RecordedRequest) => r.path.endsWith('/chat/completions'))[1]!;
    expect(unwrap(second.body.messages.at(-1).content)).toBe('echo: hello');

    from = s.mark();
    s.write('/mcp');
    await s.waitFor('/mcp', 10_000, from);
    s.write('\r');
    await s.waitFor('tools: crashy__echo, crashy__crash', 10_000, from);
    expect(s.text().slice(from)).toContain('crashy (stdio, trust: ask): running');
  });

  for (const lang of ['en', 'zh'] as const) {
    it(`an MCP write is asked in plain words with the existing file named (${lang}); "a" allows that tool for the session`, async () => {
      const work = e.cwd;
      writeFileSync(join(work, 'notes.txt'), 'my own notes, not to be lost\n');
      writeFileSync(
        join(home, 'config.yaml'),
        [
          'mcp_servers:',
          '  files:',
          '    command: node',
          `    args: [${JSON.stringify(FS_SERVER)}, ${JSON.stringify(work)}]`,
        ].join('\n'),
        { mode: 0o600 },
      );
      const content = 'Meeting at 10.\nBring the budget.\nAnd the slides.\n';
      fake.script(
        {
          kind: 'tools',
          calls: [{ name: 'files__write_file', arguments: { path: join(work, 'notes.txt'), content } }],
        },
        {
          kind: 'tools',
          calls: [{ name: 'files__write_file', arguments: { path: join(work, 'b.txt'), content: 'b' } }],
        },
        { kind: 'text', text: 'Both written.' },
      );
      const s = e.pty({ cols: 140, rows: 50, env: { ZHI_LANGUAGE: lang } });
      await s.waitFor(PROMPT, 15_000);
      const from = s.mark();
      s.write('write my notes');
      await s.waitFor('write my notes', 10_000, from);
      s.write('\r');
      const question = lang === 'en' ? 'Allow?' : '允许吗？';
      await s.waitFor(question, 15_000, from);
      const shown = s.text().slice(from);
      // The warning and the choices wrap at words to the window: compared without line breaks and spaces.
      const squeeze = (x: string) => x.replace(/\x1b\[[0-9;]*m/g, '').replace(/\s+/g, '');
      const flat = squeeze(shown);
      const has = (x: string) => expect(flat).toContain(squeeze(x));
      if (lang === 'en') {
        has('files wants to write notes.txt (49 B)');
        has('notes.txt exists: it will be replaced.');
        has("MCP tools act under the server's own rules, not zhi's");
        has('a = always allow write_file this session');
      } else {
        has('files 想要写入 notes.txt（49 B）');
        has('notes.txt 已存在：它会被替换。');
        has('MCP 工具按服务器自己的规则行事');
        has('a = 本次会话中总是允许 write_file');
      }
      // The arguments, folded: the content line by line, not one JSON string.
      expect(shown).toContain('Bring the budget.');
      expect(shown).not.toContain('\\n');
      s.write('a\r');
      await s.waitFor('Both written.', 20_000, from);
      // The second write ran without a question.
      expect(s.text().slice(from).split(question)).toHaveLength(2);
      expect(readFileSync(join(work, 'notes.txt'), 'utf8')).toBe(content);
      expect(readFileSync(join(work, 'b.txt'), 'utf8')).toBe('b');
    });
  }
});
