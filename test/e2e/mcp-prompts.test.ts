/**
 * MCP prompts as slash commands (issue 43 point 2): `/mcp__<server>__<prompt> args…` in `zhi -c`
 * and in the REPL sends the prompt's message (the server waited for when it is still starting);
 * an unknown prompt names the known ones; a missing argument says how to type it; /help lists
 * the prompts of the servers that are up.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { NOTES } from '../helpers/mcp.js';

const e = useE2E();
const { fake } = e;

function notesServer(): void {
  const lines = ['mcp_servers:', '  notes:', '    command: node', `    args: [${JSON.stringify(NOTES)}]`];
  writeFileSync(join(e.home, 'config.yaml'), lines.join('\n'), { mode: 0o600 });
}

const lastUser = (): string => {
  const messages = fake.chatRequests().at(-1)!.body.messages as { role: string; content: unknown }[];
  return String(messages.filter((m) => m.role === 'user').at(-1)!.content);
};

describe('MCP prompts as slash commands', () => {
  it('zhi -c "/mcp__notes__summarize …" sends the prompt; name=value works too; an unknown one names the known', async () => {
    notesServer();
    fake.script({ kind: 'text', text: 'Summary.' }, { kind: 'text', text: 'Summary 2.' });
    const r = await e.zhi(['-c', '/mcp__notes__summarize in three bullets'], { timeoutMs: 30_000 });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Summary.\n');
    expect(lastUser()).toBe("MARK-PROMPT Summarize today's notes, style: in three bullets.");
    await e.zhi(['-c', '/mcp__notes__summarize style="very short"'], { timeoutMs: 30_000 });
    expect(lastUser()).toBe("MARK-PROMPT Summarize today's notes, style: very short.");
    const bad = await e.zhi(['-c', '/mcp__notes__sumarize x'], { timeoutMs: 30_000 });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('There is no MCP prompt /mcp__notes__sumarize.');
    expect(bad.stderr).toContain('/mcp__notes__summarize');
    expect(fake.chatRequests()).toHaveLength(2);
    const zh = await e.zhi(['-c', '/mcp__notes__nope'], { timeoutMs: 30_000, env: { ZHI_LANGUAGE: 'zh' } });
    expect(zh.stderr).toContain('没有名为 /mcp__notes__nope 的 MCP 提示词。');
  });

  it('in the REPL: typed before the server is up, it waits and sends; /help then lists it', async () => {
    notesServer();
    fake.script({ kind: 'text', text: 'Summarized.' });
    const s = e.pty({ cols: 120, rows: 40 });
    await s.waitFor(/\]> $/, 15_000);
    let from = s.mark();
    s.write('/mcp__notes__summarize bullet points\r');
    await s.waitFor('Summarized.', 20_000, from);
    expect(lastUser()).toBe("MARK-PROMPT Summarize today's notes, style: bullet points.");
    await s.waitFor(/\]> $/, 10_000, from);
    from = s.mark();
    s.write('/help\r');
    await s.waitFor('Prompts of MCP servers', 10_000, from);
    await s.waitFor('/mcp__notes__summarize [style]', 10_000, from);
    expect(s.text().slice(from)).toContain('Summarize a note in a given style.');
  });

  it('a prompt the server adds while running (list_changed) is a command from then on', async () => {
    const lines = [
      'mcp_servers:',
      '  notes:',
      '    command: node',
      `    args: [${JSON.stringify(NOTES)}]`,
      '    trust: read',
    ];
    writeFileSync(join(e.home, 'config.yaml'), lines.join('\n'), { mode: 0o600 });
    fake.script(
      { kind: 'tools', calls: [{ name: 'notes__grow', arguments: {} }] },
      { kind: 'text', text: 'Grown.' },
      { kind: 'text', text: 'Extra.' },
    );
    const s = e.pty({ cols: 120, rows: 40 });
    await s.waitFor(/\]> $/, 15_000);
    let from = s.mark();
    s.write('grow\r');
    await s.waitFor('Grown.', 20_000, from);
    await s.waitFor(/\]> $/, 10_000, from);
    from = s.mark();
    s.write('/mcp__notes__extra_prompt\r');
    await s.waitFor('Extra.', 20_000, from);
    expect(lastUser()).toBe('MARK-EXTRA-PROMPT');
  });
});
