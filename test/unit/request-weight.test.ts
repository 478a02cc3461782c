import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { chatSystemPrompt } from '../../src/agent/prompt.js';
import { estimateToolsTokens } from '../../src/agent/tokens.js';
import { ALL_TOOL_NAMES, CLI_TOOLS } from '../../src/cli/tools.js';
import type { PlatformClient } from '../../src/llm/types.js';
import { chatSkillTool, skillListing } from '../../src/skills/chat-skill-tool.js';
import type { Skill } from '../../src/skills/schema.js';
import { loadTools, offerOnDemand } from '../../src/tools/index.js';
import { lean, toSchema } from '../../src/tools/registry.js';
import type { AnyTool } from '../../src/tools/types.js';

function skill(name: string, source: Skill['source'], description: string, descriptionZh?: string): Skill {
  return {
    name,
    description,
    ...(descriptionZh ? { descriptionZh } : {}),
    systemPrompt: 'Do it.',
    tools: [],
    maxTurns: 5,
    thinking: false,
    args: [],
    output: {},
    source,
    file: `/skills/${name}.yaml`,
    format: 'yaml',
    resources: [],
    hash: 'h',
    toolLines: [],
  } as Skill;
}

describe('the chat skill list', () => {
  it("names zhi's built-ins on one line and gives the person's own skills their description", () => {
    const listing = skillListing(
      [
        skill('translate', 'builtin', 'Translate a document'),
        skill('summarize', 'builtin', 'Summarize a document into key points'),
        skill('release-notes', 'user', 'Write release notes from the git log', '从 git 日志写发布说明'),
        skill('team-style', 'project', 'Our house style'),
      ],
      'en',
    );
    expect(listing.split('\n')).toEqual([
      '- built-in: summarize, translate',
      '- release-notes: Write release notes from the git log',
      '- team-style: Our house style',
    ]);
    expect(listing).not.toContain('Summarize a document');
    expect(skillListing([skill('release-notes', 'user', 'Notes', '发布说明')], 'zh')).toBe(
      '- release-notes: 发布说明',
    );
  });

  it('gives whole descriptions, past 200 characters, with the trigger words at their end', () => {
    const long = `${'Create, edit and analyse spreadsheets with formulas and charts. '.repeat(15)}Use when the user asks for an xlsx.`;
    expect(long.length).toBeGreaterThan(900);
    expect(skillListing([skill('xlsx', 'user', long)], 'en')).toBe(`- xlsx: ${long.trim()}`);
  });

  it('keeps all descriptions under the budget by leaving out whole ones, named on a last line', () => {
    const d = (c: string) => c.repeat(300);
    const listing = skillListing(
      [skill('a-one', 'user', d('a')), skill('b-two', 'user', d('b')), skill('c-three', 'user', d('c'))],
      'en',
      700,
    );
    expect(listing.split('\n')).toEqual([
      `- a-one: ${d('a')}`,
      `- b-two: ${d('b')}`,
      '- more (the list is full; load one to see what it is for): c-three',
    ]);
  });

  it('has no built-in line when there are only user skills', () => {
    expect(skillListing([skill('mine', 'user', 'Mine')], 'en')).toBe('- mine: Mine');
  });
});

describe('the chat system prompt', () => {
  const base = { cwd: '/w', outputDir: '/w/out', date: '2026-01-01', uiLanguage: 'en' as const };

  it('stays short: no tool names repeated (they travel in the request), skills after the rule that loads them', () => {
    const prompt = chatSystemPrompt({
      ...base,
      toolNames: ['file_read', 'skill'],
      skills: '- built-in: a, b',
    });
    expect(prompt).not.toContain('file_read,');
    expect(prompt).toMatch(/load it with the skill tool[^\n]*\n- built-in: a, b/);
    expect(prompt).toContain('Answer in the language the user writes in');
    expect(prompt.length).toBeLessThan(1100);
  });

  it('says so when there are no tools', () => {
    expect(chatSystemPrompt({ ...base, toolNames: [] })).toContain('You have no tools');
  });
});

describe('tool schemas on the wire', () => {
  it('leave out limits the model never nears and "anything" schemas, and keep what steers it', () => {
    const schema = z.object({
      command: z.string().min(1).max(20_000),
      query: z.string().max(200),
      page: z.coerce.number().int().min(1).max(100_000).optional(),
      offset: z.coerce.number().int().min(0).optional(),
      timeout: z.number().int().min(1).max(300).default(30),
      content: z.union([z.string(), z.looseObject({}), z.array(z.unknown())]),
    });
    const tool = { name: 't', description: 'd', schema, kind: 'read', execute: async () => '' } as AnyTool;
    const params = toSchema(tool).function.parameters as { properties: Record<string, unknown> };
    expect(params.properties).toEqual({
      command: { type: 'string' },
      query: { type: 'string', maxLength: 200 },
      page: { type: 'integer', minimum: 1 },
      offset: { type: 'integer' },
      timeout: { type: 'integer', minimum: 1, maximum: 300, default: 30 },
      content: { anyOf: [{ type: 'string' }, { type: 'object' }, { type: 'array' }] },
    });
    // …while the arguments are still checked against every limit.
    expect(schema.safeParse({ command: 'x'.repeat(20_001), query: 'q', content: '' }).success).toBe(false);
  });

  it('keep property names whatever they are called, and the parameters object its properties', () => {
    expect(lean({ type: 'object', properties: { items: {}, maximum: { type: 'integer' } } })).toEqual({
      type: 'object',
      properties: { items: {}, maximum: { type: 'integer' } },
    });
    expect(lean({ type: 'object', properties: {} })).toEqual({ type: 'object', properties: {} });
  });
});

describe('built-in tool definitions in a chat request', () => {
  it('weigh at most 700 tokens by the estimate the bench uses: ocr and the web tools wait for tool_search', async () => {
    const tools = await loadTools({ client: {} as PlatformClient }, ALL_TOOL_NAMES, CLI_TOOLS);
    offerOnDemand(tools);
    tools.register(
      chatSkillTool(new Map([['summarize', skill('summarize', 'builtin', 'Summarize')]]), { shell: true }),
    );
    const schemas = tools.schemas('hello');
    const names = schemas.map((s) => s.function.name);
    expect(names).toEqual(
      expect.arrayContaining(['file_read', 'file_write', 'file_list', 'shell', 'tool_search', 'skill']),
    );
    expect(names).not.toContain('ocr');
    expect(estimateToolsTokens(schemas)).toBeLessThanOrEqual(700);
    // tool_search names what it can add, and the key facts stay in the descriptions.
    const search = schemas.find((s) => s.function.name === 'tool_search')!.function.description;
    expect(search).toMatch(/ocr \(.+\), web_fetch \(.+\), web_search \(.+\)/);
    const write = schemas.find((s) => s.function.name === 'file_write')!.function.description;
    for (const fact of [
      'output folder',
      '.xlsx {sheets',
      '.csv {headers, rows}',
      '.docx {content',
      '.pptx {slides',
    ]) {
      expect(write).toContain(fact);
    }
  });

  it('a skill run (a filtered registry) defers none of them', async () => {
    const tools = await loadTools({ client: {} as PlatformClient }, ALL_TOOL_NAMES, CLI_TOOLS);
    offerOnDemand(tools);
    expect(
      tools
        .filter(['web_search', 'ocr'])
        .schemas()
        .map((s) => s.function.name),
    ).toEqual(['web_search', 'ocr']);
  });
});
