/**
 * MCP resources (issue 43 point 2): the person attaches one with `@<server>:<uri>` in a message
 * (the server is waited for; the text arrives marked as untrusted data, cut to the attachments'
 * limit); the model lists and reads them through the deferred `<server>__resources` tool,
 * templates included, and follows a resource link a tool returned.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { NOTES } from '../helpers/mcp.js';
import { rawToolResults, toolResults } from '../helpers/requests.js';

const e = useE2E();
const { fake } = e;

function notesServer(): void {
  const lines = [
    'mcp_servers:',
    '  notes:',
    '    command: node',
    `    args: [${JSON.stringify(NOTES)}]`,
    '    trust: read',
    '    egress: true',
  ];
  writeFileSync(join(e.home, 'config.yaml'), lines.join('\n'), { mode: 0o600 });
}

const userText = (i = 0): string => {
  const body = fake.chatRequests()[i]!.body;
  return String(body.messages.find((m: { role: string }) => m.role === 'user').content);
};

describe('MCP resources', () => {
  it('@notes:notes://today attaches the resource as untrusted text; a big one is cut; an unknown server or a missing resource is said', async () => {
    notesServer();
    fake.script({ kind: 'text', text: 'Read.' });
    const r = await e.zhi(
      [
        '-c',
        'Summarize @notes:notes://today and @notes:notes://big, mail me@example.com, @notes:notes://nope.',
      ],
      { timeoutMs: 30_000 },
    );
    expect(r.stdout).toBe('Read.\n');
    const text = userText();
    expect(text).toMatch(
      /<resource server="notes" uri="notes:\/\/today">\n.*untrusted.*\n?MARK-TODAY: meeting at 10/s,
    );
    expect(text).toContain('MARK-BIG');
    expect(text).not.toContain('MARK-BIG-END');
    expect(r.stderr).toContain('notes:notes://today (44 B, from the MCP server notes)');
    expect(r.stderr).toContain('notes:notes://big was cut to its first 100 KB.');
    expect(r.stderr).toMatch(/notes:notes:\/\/nope was not attached: .*nope/);
    // An e-mail address is not a server: left alone, nothing said.
    expect(r.stderr).not.toContain('example.com');
  });

  it('in Chinese, the attachment is said in Chinese', async () => {
    notesServer();
    fake.script({ kind: 'text', text: '好。' });
    const r = await e.zhi(['-c', '总结 @notes:notes://today'], {
      timeoutMs: 30_000,
      env: { ZHI_LANGUAGE: 'zh' },
    });
    expect(r.stderr).toContain('notes:notes://today（44 B，来自 MCP 服务器 notes）');
    expect(userText()).toContain('MARK-TODAY');
  });

  it('the model lists resources and templates, follows a resource link, and reads a templated uri', async () => {
    notesServer();
    fake.script(
      { kind: 'tools', calls: [{ name: 'tool_search', arguments: { query: 'notes' } }] },
      { kind: 'tools', calls: [{ name: 'notes__resources', arguments: {} }] },
      { kind: 'tools', calls: [{ name: 'notes__find_note', arguments: { topic: 'budget' } }] },
      { kind: 'tools', calls: [{ name: 'notes__resources', arguments: { uri: 'notes://today' } }] },
      { kind: 'tools', calls: [{ name: 'notes__resources', arguments: { uri: 'notes://day/2026-11-29' } }] },
      { kind: 'text', text: 'Done.' },
    );
    const r = await e.zhi(['-c', 'What do my notes say?'], { timeoutMs: 30_000 });
    expect(r.stdout).toBe('Done.\n');
    const results = toolResults(fake.chatRequests().at(-1)!);
    expect(results[0]).toContain('notes__resources');
    expect(results[1]).toContain("- notes://today (today, text/plain): Today's notes");
    expect(results[1]).toContain('- notes://day/{date} (day): The notes of one day');
    expect(results[2]).toContain(
      '[resource link: today notes://today (read it with notes__resources {"uri": "notes://today"})]',
    );
    expect(results[3]).toBe('MARK-TODAY: meeting at 10, bring the budget.');
    expect(results[4]).toBe('MARK-DAY 2026-11-29');
    // The server's words reach the model as data.
    expect(rawToolResults(fake.chatRequests().at(-1)!)[3]).toMatch(/untrusted/i);
  });
});
