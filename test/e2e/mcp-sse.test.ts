/**
 * The legacy HTTP+SSE transport (issue 43 point 2): `transport: sse` uses it; a plain `url:` whose
 * streamable-HTTP POST is answered 405 falls back to it; an address that answers with a web page
 * is said in words, not as raw HTML.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { LEGACY_SSE } from '../helpers/mcp.js';
import { toolResults } from '../helpers/requests.js';

const e = useE2E();
const { fake } = e;
type Started = { base: string; close(): Promise<void> };
const servers: Started[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function start(kind: 'startLegacySse' | 'startWebPage'): Promise<Started> {
  const mod = (await import(pathToFileURL(LEGACY_SSE).href)) as Record<string, () => Promise<Started>>;
  const s = await mod[kind]!();
  servers.push(s);
  return s;
}

function config(lines: string[]): void {
  writeFileSync(join(e.home, 'config.yaml'), ['mcp_servers:', ...lines].join('\n'), { mode: 0o600 });
}

const echo = () =>
  fake.script(
    { kind: 'tools', calls: [{ name: 'old__echo', arguments: { text: 'hi' } }] },
    { kind: 'text', text: 'Done.' },
  );

describe('the legacy SSE transport', () => {
  it('transport: sse, and a url whose POST is answered 405, both reach the tool; zhi mcp list says sse', async () => {
    const s = await start('startLegacySse');
    for (const extra of [['    transport: sse'], []]) {
      config(['  old:', `    url: ${s.base}/sse`, '    trust: read', '    egress: true', ...extra]);
      echo();
      const r = await e.zhi(['-c', 'echo hi'], { timeoutMs: 30_000 });
      expect(r.stdout).toBe('Done.\n');
      expect(toolResults(fake.chatRequests().at(-1)!)[0]).toBe('legacy echo: hi');
    }
    const list = await e.zhi(['mcp', 'test', 'old'], { timeoutMs: 30_000 });
    expect(list.stdout).toContain('old (sse, trust: read): running');
  });

  it('a web page where the server should be is said in words (en, zh), without its HTML', async () => {
    const s = await start('startWebPage');
    config(['  site:', `    url: ${s.base}/`]);
    const r = await e.zhi(['mcp', 'test', 'site'], { timeoutMs: 30_000 });
    expect(r.stderr + r.stdout).toContain(`the address ${s.base}/ answered with a web page, not MCP`);
    expect(r.stderr + r.stdout).not.toMatch(/<html|DOCTYPE/i);
    const zh = await e.zhi(['mcp', 'test', 'site'], { timeoutMs: 30_000, env: { ZHI_LANGUAGE: 'zh' } });
    expect(zh.stderr + zh.stdout).toContain('返回的是网页，不是 MCP');
  });

  it('transport: without a url, or another value, is a clear config problem', async () => {
    config(['  bad:', '    command: node', '    transport: sse']);
    const r = await e.zhi(['mcp', 'list'], { timeoutMs: 30_000 });
    expect(r.stderr).toContain('the setting "transport" is "sse", but it must be http or sse, beside a url');
  });
});
