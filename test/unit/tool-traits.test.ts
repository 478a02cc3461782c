import { describe, expect, it } from 'vitest';
import { batchBlocker } from '../../src/agent/skills/batchable.js';
import { ALL_TOOL_NAMES, CLI_TOOLS } from '../../src/cli/tools.js';
import type { Skill } from '../../src/skills/schema.js';
import { usesTrustTools } from '../../src/skills/trust.js';
import { BUILTIN_TOOL_NAMES, loadTools, offerOnDemand, traitsOf } from '../../src/tools/index.js';
import type { ToolRegistry } from '../../src/tools/registry.js';
import { type ToolEntry, traitsOfTool } from '../../src/tools/types.js';

const skill = (tools: string[], args: unknown[] = []) => ({ name: 's', tools, args }) as unknown as Skill;

describe('tool traits come from the tool table', () => {
  it('answers for every built-in, and nothing for a skill or an MCP tool', () => {
    expect(BUILTIN_TOOL_NAMES).toEqual([
      'file_read',
      'file_write',
      'file_list',
      'ocr',
      'shell',
      'run_script',
      'web_fetch',
      'web_search',
    ]);
    expect(traitsOf('file_write')).toMatchObject({ trust: 'skills.trust.write', writesOutput: true });
    expect(traitsOf('shell')).toMatchObject({ trust: 'skills.trust.shell', needsPerson: true });
    expect(traitsOf('file_read')).toMatchObject({ skillDefault: true, action: 'tools.action.file_read' });
    expect(traitsOf('file_read').writesOutput).toBeUndefined();
    expect(traitsOf('shell').showsOutput).toBe(true);
    expect(traitsOf('run_script').showsOutput).toBeUndefined();
    expect(traitsOf('shell').skillDefault).toBeUndefined();
    expect(traitsOf('run_script')).toMatchObject({ trust: 'skills.trust.script', writesOutput: true });
    expect(traitsOf('run_script').offer).toEqual({ search: 'run Python/Node code' });
    expect(traitsOf('summarize')).toEqual({});
    expect(traitsOf('files__write_file')).toEqual({});
  });

  it('decides skill trust and batchability from the traits, not from names', () => {
    expect(usesTrustTools(skill(['file_read', 'file_list']))).toBe(false);
    expect(usesTrustTools(skill(['file_read', 'file_write']))).toBe(true);
    expect(usesTrustTools(skill(['shell']))).toBe(true);
    expect(batchBlocker(skill(['file_read', 'file_write']))).toBeUndefined();
    expect(batchBlocker(skill(['file_read', 'shell']))?.kind).toBe('usage');
    // A composite skill's combining step needs every file's result first: not a batch job either.
    const composite = skill(['file_write'], [{ name: 'folder', type: 'directory', each: 'summarize' }]);
    expect(batchBlocker(composite)?.whatText()).toContain('summarize');
  });

  it('loads extra entries of higher layers through the same loadTools', async () => {
    const extra: ToolEntry[] = [
      {
        name: 'risky_new',
        traits: { trust: 'skills.trust.shell', needsPerson: true },
        load: async () => ({
          name: 'risky_new',
          description: 'x',
          kind: 'shell',
          schema: (await import('zod')).z.object({}),
          execute: async () => 'ok',
        }),
      },
    ];
    expect(traitsOf('risky_new', extra).needsPerson).toBe(true);
    const registry = await loadTools({ client: undefined as never }, ['file_read', 'risky_new'], extra);
    expect(registry.names()).toEqual(['file_read', 'risky_new']);
  });

  it('keeps one traits object per tool: the loaded tool shares the entry object', async () => {
    const registry = await loadTools({ client: {} as never }, ALL_TOOL_NAMES, CLI_TOOLS);
    for (const name of ALL_TOOL_NAMES) {
      expect(traitsOfTool(registry.get(name)!), name).toBe(traitsOf(name, CLI_TOOLS));
    }
    expect(traitsOf('file_read')).toMatchObject({
      readsFile: true,
      repeatable: true,
      maxResultBytes: 26_624,
    });
  });

  it('offers each tool as its one `offer` trait says, in a conversation only', async () => {
    const chat = await loadTools({ client: {} as never }, ALL_TOOL_NAMES, CLI_TOOLS);
    offerOnDemand(chat);
    const sent = (r: ToolRegistry, text?: string) => r.schemas(text).map((s) => s.function.name);
    expect(sent(chat, 'hello')).toEqual(['file_read', 'file_write', 'file_list', 'shell', 'tool_search']);
    expect(sent(chat, 'make a skill')).toContain('skill_create');
    expect(chat.alwaysOffered()).not.toContain('skill_create');
    expect(chat.searchPhrases().map((p) => p.name)).toEqual(['ocr', 'run_script', 'web_fetch', 'web_search']);
    chat.load(['ocr']);
    expect(sent(chat, 'hello')).toContain('ocr');
    // A skill run named its tools: all of them go out, tool_search is not needed.
    const run = await loadTools({ client: {} as never }, ['file_read', 'ocr', 'skill_create'], CLI_TOOLS);
    expect(sent(run, 'hello')).toEqual(['file_read', 'ocr', 'skill_create']);
  });
});
