/**
 * The server's annotations decide approvals (issue 43 point 2). With no terminal (where anything
 * that asks is refused) a tool marked read-only runs on a `trust: ask` server; one marked
 * destructive, or unmarked, does not; `annotations: ignore` takes the marks away. What the
 * arguments carry out still goes by the egress rule: without `egress: true` a read-only call with
 * arguments asks (so is refused here); with none it runs. In a terminal, the destructive tool's
 * question warns in the person's language.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { ANNOTATED } from '../helpers/mcp.js';
import { toolResults } from '../helpers/requests.js';

const e = useE2E();
const { fake } = e;

function server(extra: string[]): void {
  const lines = ['mcp_servers:', '  db:', '    command: node', `    args: [${JSON.stringify(ANNOTATED)}]`];
  writeFileSync(join(e.home, 'config.yaml'), [...lines, ...extra].join('\n'), { mode: 0o600 });
}

const calls = (...list: [string, Record<string, unknown>][]) =>
  fake.script(
    ...list.map(([name, args]) => ({ kind: 'tools' as const, calls: [{ name, arguments: args }] })),
    { kind: 'text', text: 'Done.' },
  );

/** The tool results the model got back, in order (the last request carries them all). */
const results = () => toolResults(fake.chatRequests().at(-1)!);

describe("MCP tools' annotations", () => {
  it('with no terminal: the read-only tool runs, the destructive and the unmarked ones are refused', async () => {
    server(['    egress: true']);
    calls(
      ['db__query', { sql: 'SELECT 1' }],
      ['db__drop_table', { table: 'users' }],
      ['db__note', { text: 'x' }],
    );
    const r = await e.zhi(['-c', 'look at the database'], { timeoutMs: 30_000 });
    expect(r.stdout).toBe('Done.\n');
    const [query, drop, note] = results();
    expect(query).toBe('query ran {"sql":"SELECT 1"}');
    expect(drop).not.toContain('drop_table ran');
    expect(note).not.toContain('note ran');
  });

  it('annotations: ignore — the read-only mark counts for nothing', async () => {
    server(['    egress: true', '    annotations: ignore']);
    calls(['db__query', { sql: 'SELECT 1' }]);
    await e.zhi(['-c', 'look at the database'], { timeoutMs: 30_000 });
    expect(results()[0]).not.toContain('query ran');
  });

  it('without egress: true, a read-only call with arguments still asks (refused here); one without runs', async () => {
    server([]);
    calls(['db__query', { sql: 'SELECT secret_plan FROM t' }], ['db__query', {}]);
    const r = await e.zhi(['-c', 'look at the database'], { timeoutMs: 30_000 });
    const [withArgs, without] = results();
    expect(withArgs).not.toContain('query ran');
    expect(without).toBe('query ran {}');
    expect(r.stderr).toMatch(/MCP db/);
  });

  for (const lang of ['en', 'zh'] as const) {
    it(`in a terminal, the destructive tool's question warns (${lang})`, async () => {
      server(['    egress: true']);
      calls(['db__drop_table', { table: 'users' }]);
      const s = e.pty({ cols: 140, rows: 40, env: { ZHI_LANGUAGE: lang } });
      await s.waitFor(/\]> $/, 15_000);
      const from = s.mark();
      s.write('drop the users table\r');
      await s.waitFor(lang === 'zh' ? '允许吗' : 'Allow?', 20_000, from);
      const shown = s.text().slice(from).replace(/\s+/g, ' ');
      expect(shown).toContain(
        lang === 'zh'
          ? '服务器把 drop_table 标为破坏性操作：它可能删除或覆盖数据，而且可能无法撤销。'
          : 'The server marks drop_table as destructive: it may delete or overwrite data, and that may not be undone.',
      );
      s.write('n\r');
      await s.waitFor('Done.', 15_000, from);
    });
  }
});
