import { describe, expect, it } from 'vitest';
import { batchBlocker } from '../../src/agent/skills/batchable.js';
import type { Skill } from '../../src/skills/schema.js';
import { usesTrustTools } from '../../src/skills/trust.js';
import { BUILTIN_TOOL_NAMES, loadTools, traitsOf } from '../../src/tools/index.js';
import type { ToolEntry } from '../../src/tools/types.js';

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
    expect(traitsOf('file_read')).toEqual({ skillDefault: true });
    expect(traitsOf('shell').skillDefault).toBeUndefined();
    expect(traitsOf('run_script')).toMatchObject({ trust: 'skills.trust.script', writesOutput: true });
    expect(traitsOf('run_script').deferredAs).toBeDefined();
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
});
