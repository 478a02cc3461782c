/**
 * MCP at scale: a server with 150 tools (one of them Pydantic-shaped, with $defs and $ref) does
 * not weigh on every request. The first request carries the built-in tools and tool_search; the
 * model searches, the found tool's whole schema arrives in the next request, and it is called
 * with nested arguments.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fake-zhipu/server.js';
import { useE2E } from '../helpers/e2e.js';
import { MANY } from '../helpers/mcp.js';
import { toolResults } from '../helpers/requests.js';

// biome-ignore lint/suspicious/noExplicitAny: schemas are inspected freely
type J = any;

const e = useE2E();
const { fake } = e;
let home: string;
beforeEach(() => {
  ({ home } = e);
});

const zhi = (args: string[]) => e.zhi(args, { timeoutMs: 30_000 });
type ToolDef = { function: { name: string; description: string; parameters: J } };
const tools = (req: RecordedRequest): ToolDef[] => req.body.tools ?? [];
const names = (req: RecordedRequest): string[] => tools(req).map((t) => t.function.name);

function manyServer(): void {
  writeFileSync(
    join(home, 'config.yaml'),
    [
      'mcp_servers:',
      '  many:',
      '    command: node',
      `    args: [${JSON.stringify(MANY)}]`,
      '    trust: read',
      '    egress: true',
    ].join('\n'),
    { mode: 0o600 },
  );
}

const INVOICE = {
  invoice: { customer: { name: 'Li Lei' }, lines: [{ sku: 'A-1', qty: 2 }] },
};

describe('MCP with many tools', () => {
  it('150 tools: a small first request; the model finds the Pydantic tool with tool_search and calls it with its nested fields', async () => {
    manyServer();
    fake.script(
      { kind: 'tools', calls: [{ name: 'tool_search', arguments: { query: 'create invoice' } }] },
      { kind: 'tools', calls: [{ name: 'many__create_invoice', arguments: INVOICE }] },
      { kind: 'text', text: 'Invoice created.' },
    );
    const r = await zhi(['-c', 'Make an invoice for Li Lei: 2 of A-1']);
    expect(r.stderr).not.toMatch(/not available|Error/);
    expect(r.stdout).toBe('Invoice created.\n');
    const [first, second, third] = fake.chatRequests();
    // The first request: built-ins and tool_search, none of the server's 150 tools.
    expect(first!.raw.length).toBeLessThanOrEqual(24 * 1024);
    expect(names(first!).length).toBeLessThanOrEqual(40);
    expect(names(first!)).toContain('tool_search');
    expect(names(first!).filter((n) => n.startsWith('many__'))).toEqual([]);
    // The server starts in the background: counted when it was up before the request, else "starting".
    expect(tools(first!).find((t) => t.function.name === 'tool_search')!.function.description).toMatch(
      /many \((150|starting)\)/,
    );
    // The search found it; its whole schema goes with the next request.
    expect(toolResults(second!)[0]).toContain('many__create_invoice');
    const invoice = tools(second!).find((t) => t.function.name === 'many__create_invoice')!.function;
    expect(names(second!).length).toBeLessThanOrEqual(40);
    const fields = invoice.parameters.properties.invoice;
    expect(fields.properties.customer.properties.name.type).toBe('string');
    expect(fields.properties.lines.items.properties.qty.type).toBe('integer');
    expect(JSON.stringify(invoice.parameters)).not.toContain('$ref');
    // The long description is whole (2,800 characters), not cut at 1,000.
    expect(invoice.description).toContain('The end of a long description.');
    // The call reached the server with its nested arguments.
    expect(toolResults(third!)[1]).toBe(`create_invoice got ${JSON.stringify(INVOICE)}`);
  });

  it('a chat that uses no MCP tool costs within 10 % of one with no server configured', async () => {
    fake.script({ kind: 'text', text: 'Hi.' });
    await zhi(['-c', 'hello']);
    const without = fake.chatRequests()[0]!.raw.length;
    manyServer();
    fake.script({ kind: 'text', text: 'Hi.' });
    await zhi(['-c', 'hello']);
    const withServer = fake.chatRequests()[1]!.raw.length;
    expect(withServer).toBeGreaterThan(without);
    expect(withServer).toBeLessThanOrEqual(without * 1.1);
  });

  it('a deferred tool called by name works and is offered from then on; an unknown search says what there is', async () => {
    manyServer();
    fake.script(
      { kind: 'tools', calls: [{ name: 'tool_search', arguments: { query: 'zzzz' } }] },
      { kind: 'tools', calls: [{ name: 'many__weather_op_10', arguments: { id: 'x' } }] },
      { kind: 'text', text: 'Done.' },
    );
    const r = await zhi(['-c', 'weather']);
    expect(r.stdout).toBe('Done.\n');
    const [, second, third] = fake.chatRequests();
    expect(toolResults(second!)[0]).toContain('No tool matches "zzzz". There are: ');
    expect(toolResults(second!)[0]).toContain('MCP servers many (150)');
    expect(toolResults(third!)[1]).toBe('weather_op_10 got {"id":"x"}');
    expect(names(third!)).toContain('many__weather_op_10');
  });
});
