/**
 * Roots and list changes (issue 43 point 2): the server asking for the client's roots gets the
 * working folder; a tool a server adds while running (list_changed) is found by tool_search —
 * the search waits for the list being read again, so nothing depends on timing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { NOTES } from '../helpers/mcp.js';
import { toolResults } from '../helpers/requests.js';

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

describe('MCP roots and list changes', () => {
  it('the root is the working folder; a tool added while running is found and called', async () => {
    notesServer();
    fake.script(
      { kind: 'tools', calls: [{ name: 'notes__roots', arguments: {} }] },
      { kind: 'tools', calls: [{ name: 'notes__grow', arguments: {} }] },
      { kind: 'tools', calls: [{ name: 'tool_search', arguments: { query: 'select:notes__extra_tool' } }] },
      { kind: 'tools', calls: [{ name: 'notes__extra_tool', arguments: {} }] },
      { kind: 'text', text: 'Done.' },
    );
    const r = await e.zhi(['-c', 'grow the server'], { timeoutMs: 30_000 });
    expect(r.stdout).toBe('Done.\n');
    const results = toolResults(fake.chatRequests().at(-1)!);
    expect(results[0]).toContain(pathToFileURL(e.cwd).href);
    expect(results[1]).toBe('grown');
    expect(results[3]).toBe('MARK-EXTRA ran');
  });
});
