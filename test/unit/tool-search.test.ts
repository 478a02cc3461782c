/** Deferred tools: left out of requests until tool_search finds them or the model calls one by name. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeApiError } from '../../src/llm/describe.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import { setLanguage } from '../../src/support/i18n/index.js';
import { MAX_LOADED, ToolRegistry } from '../../src/tools/registry.js';
import { createToolSearchTool, searchTools } from '../../src/tools/tool-search/tool-search.js';
import type { AnyTool } from '../../src/tools/types.js';

const tool = (name: string, description: string, deferred = true): AnyTool => ({
  name,
  description,
  schema: z.object({}),
  kind: 'read',
  ...(deferred ? { traits: { offer: 'on-search' as const } } : {}),
  execute: async () => 'ok',
});

function registry(): ToolRegistry {
  const r = new ToolRegistry([
    tool('file_read', 'Read a file', false),
    tool('git__status', '[MCP server "git"] Show the working tree status.'),
    tool('git__log', '[MCP server "git"] Show commit logs.'),
    tool('mem__create_entities', '[MCP server "mem"] Create entities in the knowledge graph.'),
  ]);
  r.register(
    createToolSearchTool(r, [
      { name: 'git', count: 2 },
      { name: 'mem', count: 1 },
    ]),
  );
  return r;
}

const sent = (r: ToolRegistry) => r.schemas().map((s) => s.function.name);
const ctx = {} as never;

describe('deferred tools', () => {
  it('sends only the built-ins and tool_search; a search loads what it finds for the next request', async () => {
    const r = registry();
    expect(sent(r)).toEqual(['file_read', 'tool_search']);
    expect(r.alwaysOffered()).toEqual(['file_read', 'tool_search']);
    const search = r.get('tool_search')!;
    expect(search.description).toContain('git (2), mem (1)');
    const before = r.version;
    const out = await search.execute({ query: 'knowledge graph entities' }, ctx);
    expect(out).toContain('- mem__create_entities: Create entities in the knowledge graph.');
    expect(r.version).toBeGreaterThan(before);
    expect(sent(r)).toEqual(['file_read', 'mem__create_entities', 'tool_search']);
  });

  it('ranks by name first; select: loads exact names; a server name lists its tools without loading', async () => {
    const r = registry();
    expect(searchTools(r.deferred(), 'log', 5).map((t) => t.name)).toEqual(['git__log']);
    expect(
      searchTools(r.deferred(), 'select:git__status, mem__create_entities', 5).map((t) => t.name),
    ).toEqual(['git__status', 'mem__create_entities']);
    const listed = await r.get('tool_search')!.execute({ query: 'git' }, ctx);
    expect(listed).toContain('git__status, git__log');
    expect(sent(r)).toEqual(['file_read', 'tool_search']);
    expect(await r.get('tool_search')!.execute({ query: 'weather' }, ctx)).toContain(
      'No tool matches "weather"',
    );
  });

  it('keeps at most MAX_LOADED found tools, the newest', () => {
    const r = new ToolRegistry(Array.from({ length: 30 }, (_, i) => tool(`s__t${i}`, `tool ${i}`)));
    for (let i = 0; i < 30; i++) r.load([`s__t${i}`]);
    expect(sent(r)).toHaveLength(MAX_LOADED);
    expect(sent(r)).toContain('s__t29');
    expect(sent(r)).not.toContain('s__t0');
    r.load(['not_deferred_or_unknown']);
    expect(sent(r)).toHaveLength(MAX_LOADED);
  });

  it('a 1214 about tools says there were too many tools, not "check the model name"', () => {
    setLanguage('en');
    const e = describeApiError(
      {
        kind: 'bad_request',
        code: '1214',
        status: 400,
        message: 'tools参数非法。请检查文档。',
        retryable: false,
      },
      PLATFORMS.bigmodel,
    );
    expect(e.whatText()).toBe('The API refused the request because it carried too many tools.');
    expect(e.tryTexts().join(' ')).not.toContain('model name');
    setLanguage('zh');
    expect(e.whatText()).toContain('工具太多');
    setLanguage('en');
  });
});
