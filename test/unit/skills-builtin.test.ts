import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverSkills } from '../../src/skills/discovery.js';
import { resolveTools } from '../../src/skills/resolve.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

const BUILTIN_DIR = resolve(import.meta.dirname, '../../skills');
const TOOLS = ['file_read', 'file_write', 'file_list', 'ocr', 'shell', 'web_fetch', 'skill_create'];

const SINGLE = [
  'summarize',
  'translate',
  'extract-text',
  'extract-table',
  'analyze',
  'proofread',
  'reformat',
  'meeting-notes',
  'compare',
];
const COMPOSITE: Record<string, string[]> = {
  'translate-proofread': ['translate', 'proofread'],
  'meeting-followup': ['meeting-notes', 'summarize', 'translate'],
  'invoice-to-excel': [],
  'daily-digest': [],
  'contract-review': ['analyze', 'compare', 'proofread'],
  'report-polish': ['proofread', 'analyze', 'reformat'],
};

describe('the 15 built-in skills', async () => {
  const noUserSkills = tempDir();
  const catalog = await discoverSkills({ builtinDir: BUILTIN_DIR, userDir: join(noUserSkills, 'none') });
  cleanup(noUserSkills);

  it('all load without problems or warnings', () => {
    expect(catalog.broken).toEqual([]);
    expect([...catalog.warnings.values()]).toEqual([]);
    expect([...catalog.skills.keys()].sort()).toEqual([...SINGLE, ...Object.keys(COMPOSITE)].sort());
  });

  it('use only known tools, leave the model to the configuration, and describe themselves in both languages', () => {
    for (const s of catalog.skills.values()) {
      const tools = resolveTools(s, catalog, TOOLS);
      expect(s.model, s.name).toBeUndefined();
      expect(s.descriptionZh, s.name).toBeTruthy();
      expect(s.thinking, s.name).toBe(false);
      expect(tools.builtin.length + tools.skills.length, s.name).toBeGreaterThan(0);
      expect(s.source).toBe('builtin');
    }
  });

  it('single-purpose skills write files and read scans; composites call the skills the issue names', () => {
    for (const name of SINGLE) {
      const s = catalog.skills.get(name)!;
      expect(s.tools, name).toContain('file_write');
      expect(s.tools, name).toContain('ocr');
    }
    for (const [name, steps] of Object.entries(COMPOSITE)) {
      const s = catalog.skills.get(name)!;
      expect(
        resolveTools(s, catalog, TOOLS).skills.map((x) => x.name),
        name,
      ).toEqual(steps);
    }
    expect(catalog.skills.get('invoice-to-excel')!.args[0]).toMatchObject({
      type: 'directory',
      each: 'extract-table',
    });
    expect(catalog.skills.get('daily-digest')!.args[0]).toMatchObject({
      type: 'directory',
      each: 'summarize',
    });
  });

  it('prompts name the output file and say what the final answer is', () => {
    for (const s of catalog.skills.values()) {
      expect(s.systemPrompt, s.name).toMatch(/file_write/);
      expect(s.systemPrompt, s.name).toMatch(/Final answer/);
    }
  });
});
