import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentResult, RunEvent } from '../../src/agent/events.js';
import type { Prompter } from '../../src/agent/loop.js';
import { runSkill } from '../../src/agent/skills/run.js';
import { skillToolSchema } from '../../src/agent/skills/skill-tool.js';
import type { SkillRuntime } from '../../src/agent/skills/types.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import type { AssistantMessage, ChatRequest, LlmClient, StreamEvent } from '../../src/llm/types.js';
import { UsageTracker } from '../../src/llm/usage.js';
import { discoverSkills, type SkillCatalog } from '../../src/skills/discovery.js';
import { completeInputs, lacksContent, mapCliInputs, skillUsage } from '../../src/skills/inputs.js';
import { parseSkillText } from '../../src/skills/loader.js';
import type { Skill } from '../../src/skills/schema.js';
import { TrustStore, untrustedOf } from '../../src/skills/trust.js';
import { ZhiError } from '../../src/support/errors.js';
import { outputFolder } from '../../src/support/output-dir.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { AnyTool } from '../../src/tools/types.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

function skill(yaml: string, file = '/s/x.yaml', source: 'user' | 'builtin' = 'user'): Skill {
  const r = parseSkillText(yaml, { file, source, format: 'yaml' });
  if (!r.skill) throw new Error(JSON.stringify(r.errors));
  return r.skill;
}

const TRANSLATE = skill(`name: translate
description: t
system_prompt: Translate.
tools: []
input:
  args:
    - {name: file, type: file}
    - {name: text, type: string}
    - {name: to, type: string}
    - {name: pages, type: number}
    - {name: keep, type: boolean, default: true}
`);

describe('inputs from the command line', () => {
  it('fills file inputs from positional words and named inputs from --name value', () => {
    expect(mapCliInputs(TRANSLATE, ['a.md'], { to: 'english', pages: '3', keep: 'no' })).toEqual({
      file: 'a.md',
      to: 'english',
      pages: 3,
      keep: false,
    });
  });

  it('applies defaults and accepts a bare boolean flag', () => {
    expect(mapCliInputs(TRANSLATE, [], { text: 'hi', keep: true })).toEqual({ text: 'hi', keep: true });
    expect(mapCliInputs(TRANSLATE, [], { text: 'hi' })).toEqual({ text: 'hi', keep: true });
  });

  it('accepts - and _ alike in names', () => {
    const s = skill(
      'name: x\ndescription: d\nsystem_prompt: p\ntools: []\ninput:\n  args:\n    - {name: max_rows, type: number}\n',
    );
    expect(mapCliInputs(s, [], { 'max-rows': '5' })).toEqual({ max_rows: 5 });
  });

  it('fills text inputs from positional words when the skill takes no paths (a URL)', () => {
    const s = skill(
      'name: x\ndescription: d\nsystem_prompt: p\ntools: []\ninput:\n  args:\n    - {name: url, type: string, required: true}\n',
    );
    expect(mapCliInputs(s, ['https://example.com'], {})).toEqual({ url: 'https://example.com' });
  });

  it('refuses unknown inputs, bad values, extra words and missing required inputs, with the usage', () => {
    const fail = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        expect(err).toBeInstanceOf(ZhiError);
        const e = err as ZhiError;
        expect(e.exitCode).toBe(2);
        return `${e.whatText()}\n${e.whyText()}`;
      }
      throw new Error('did not fail');
    };
    expect(fail(() => mapCliInputs(TRANSLATE, [], { too: 'x' }))).toContain('did you mean --to?');
    expect(fail(() => mapCliInputs(TRANSLATE, [], { pages: 'many' }))).toContain('--pages must be a number');
    expect(fail(() => mapCliInputs(TRANSLATE, [], { keep: 'maybe' }))).toContain('--keep must be yes or no');
    expect(fail(() => mapCliInputs(TRANSLATE, [], { to: true }))).toContain('--to needs a value');
    expect(fail(() => mapCliInputs(TRANSLATE, ['a.md', 'b.md'], {}))).toContain(
      'Too many inputs for the skill translate: b.md',
    );
    const compare = skill(
      'name: compare\ndescription: d\nsystem_prompt: p\ntools: []\ninput:\n  args:\n    - {name: a, type: file, required: true}\n    - {name: b, type: file, required: true}\n',
    );
    const text = fail(() => mapCliInputs(compare, ['x.md'], {}));
    expect(text).toContain('Missing required input: b');
    expect(text).toContain('Usage: zhi run compare <a> <b>');
  });

  it('checks an input with choices: any case of an allowed value, else a usage error listing them', () => {
    const s = skill(
      'name: x\ndescription: d\nsystem_prompt: p\ntools: []\ninput:\n  args:\n    - {name: text, type: string}\n    - {name: length, type: string, choices: [short, medium, long], default: medium}\n',
    );
    expect(mapCliInputs(s, [], { text: 'hi', length: 'Long' })).toEqual({ text: 'hi', length: 'long' });
    expect(mapCliInputs(s, [], { text: 'hi' })).toEqual({ text: 'hi', length: 'medium' });
    expect(skillUsage(s)).toContain('[--length <short|medium|long>]');
    let err: unknown;
    try {
      mapCliInputs(s, [], { text: 'hi', length: 'huge' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ZhiError);
    expect((err as ZhiError).exitCode).toBe(2);
    expect((err as ZhiError).whatText()).toBe('--length must be one of: short, medium, long (not "huge").');
    // A composite skill's call is checked the same way, and its tool schema offers only the choices.
    expect(() => completeInputs(s, { text: 'hi', length: 'huge' }, 'skill')).toThrow(/must be one of/);
    expect(skillToolSchema(s).safeParse({ length: 'huge' }).success).toBe(false);
    expect(skillToolSchema(s).safeParse({ length: 'short' }).success).toBe(true);
  });

  it('a skill file whose choices do not fit is an error naming the field', () => {
    const bad = (args: string) =>
      parseSkillText(`name: x\ndescription: d\nsystem_prompt: p\ntools: []\ninput:\n  args:\n${args}`, {
        file: '/s/x.yaml',
        source: 'user',
        format: 'yaml',
      }).errors.map((e) => JSON.stringify(e));
    expect(bad('    - {name: n, type: number, choices: [a]}\n').join()).toContain(
      '"field":"input.args[0].choices","message":{"key":"skills.err.choicesText"',
    );
    expect(bad('    - {name: n, type: string, choices: [a, b], default: c}\n').join()).toContain(
      '"field":"input.args[0].default","message":{"key":"skills.err.defaultChoice"',
    );
  });

  it('knows when a skill was given nothing to work on', () => {
    expect(lacksContent(TRANSLATE, { to: 'en' })).toBe(true);
    expect(lacksContent(TRANSLATE, { text: 'hi' })).toBe(false);
    expect(skillUsage(TRANSLATE)).toContain('--pages <n>');
  });
});

describe('discovery', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => cleanup(dir));
  const put = (rel: string, text: string) => {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  const minimal = (name: string, extra = '') =>
    `name: ${name}\ndescription: ${name} skill\nsystem_prompt: p\ntools: []\n${extra}`;

  it('finds built-in and user skills (YAML and SKILL.md); a user skill replaces a built-in', async () => {
    put('builtin/a.yaml', minimal('a'));
    put('builtin/b.yml', minimal('b'));
    put('user/a.yaml', minimal('a', 'model: glm-4-air\n'));
    put('user/c/SKILL.md', '---\nname: c\ndescription: c skill\n---\nDo c.\n');
    put('user/notes.txt', 'not a skill');
    const catalog = await discoverSkills({ builtinDir: join(dir, 'builtin'), userDir: join(dir, 'user') });
    expect([...catalog.skills.keys()].sort()).toEqual(['a', 'b', 'c']);
    expect(catalog.skills.get('a')).toMatchObject({ source: 'user', model: 'glm-4-air' });
    expect(catalog.builtins.get('a')?.source).toBe('builtin');
    expect(catalog.skills.get('c')).toMatchObject({ format: 'skill-md', systemPrompt: 'Do c.' });
  });

  it('skips a broken file and a second file with the same name, and keeps the rest', async () => {
    put('user/good.yaml', minimal('good'));
    put('user/bad.yaml', 'name: bad\ndescription: [unclosed\n');
    put('user/z-dup.yaml', minimal('good'));
    const catalog = await discoverSkills({ builtinDir: join(dir, 'none'), userDir: join(dir, 'user') });
    expect([...catalog.skills.keys()]).toEqual(['good']);
    expect(catalog.broken.map((b) => [b[0]!.file.split('/').pop(), b[0]!.message.key])).toEqual([
      ['bad.yaml', 'skills.err.yaml'],
      ['z-dup.yaml', 'skills.err.duplicate'],
    ]);
  });

  it('caches loaded files between runs and notices a changed, added or removed file', async () => {
    put('user/a.yaml', minimal('a'));
    put('user/b.yaml', minimal('b'));
    const dirs = { builtinDir: join(dir, 'none'), userDir: join(dir, 'user') };
    const cacheFile = join(dir, 'cache', 'skills.json');
    const first = await discoverSkills(dirs, { cacheFile });
    const cached = JSON.parse(readFileSync(cacheFile, 'utf8'));
    expect(
      Object.keys(cached.entries)
        .map((f) => f.split('/').pop())
        .sort(),
    ).toEqual(['a.yaml', 'b.yaml']);
    // A hit does not read the file again: a poisoned entry with the right key is believed.
    cached.entries[join(dir, 'user', 'a.yaml')].outcome.skill.description = 'from the cache';
    writeFileSync(cacheFile, JSON.stringify(cached));
    expect((await discoverSkills(dirs, { cacheFile })).skills.get('a')!.description).toBe('from the cache');
    put('user/a.yaml', minimal('a', 'model: glm-4-air\n'));
    rmSync(join(dir, 'user', 'b.yaml'));
    put('user/c.yaml', 'name: c\n');
    const again = await discoverSkills(dirs, { cacheFile });
    expect(again.skills.get('a')).toMatchObject({ description: 'a skill', model: 'glm-4-air' });
    expect([...again.skills.keys()].sort()).toEqual(['a']);
    expect(again.broken[0]![0]!.file).toBe(join(dir, 'user', 'c.yaml'));
    expect(
      Object.keys(JSON.parse(readFileSync(cacheFile, 'utf8')).entries)
        .map((f) => f.split('/').pop())
        .sort(),
    ).toEqual(['a.yaml', 'c.yaml']);
    expect(first.skills.get('a')!.hash).not.toBe(again.skills.get('a')!.hash);
  });

  it('treats missing folders as empty', async () => {
    const catalog = await discoverSkills({ builtinDir: join(dir, 'x'), userDir: join(dir, 'y') });
    expect(catalog.skills.size).toBe(0);
    expect(catalog.broken).toEqual([]);
  });
});

/** A scripted model: each call gets the next reply; requests are recorded. */
class ScriptedLlm implements LlmClient {
  readonly requests: ChatRequest[] = [];
  constructor(private readonly replies: ((req: ChatRequest) => AssistantMessage)[]) {}
  async *stream(req: ChatRequest): AsyncIterable<StreamEvent> {
    this.requests.push({ ...req, messages: [...req.messages] });
    const next = this.replies.shift();
    const message = next ? next(req) : { role: 'assistant' as const, content: 'OK' };
    const usage = {
      promptTokens: 10,
      completionTokens: 2,
      totalTokens: 12,
      cachedTokens: 0,
      reasoningTokens: 0,
    };
    yield {
      type: 'done',
      message,
      finishReason: message.tool_calls ? 'tool_calls' : 'stop',
      usage,
      model: req.model,
    };
  }
}

const text = (content: string) => () => ({ role: 'assistant' as const, content });
const call = (name: string, args: Record<string, unknown>) => () => ({
  role: 'assistant' as const,
  content: '',
  tool_calls: [
    { id: `c-${name}`, type: 'function' as const, function: { name, arguments: JSON.stringify(args) } },
  ],
});

const writeTool: AnyTool = {
  name: 'file_write',
  description: 'write',
  schema: z.object({ path: z.string() }),
  kind: 'risky',
  async execute(args: { path: string }, ctx) {
    ctx.recordFile({ path: join(ctx.outputDir, args.path), bytes: 3 });
    return 'written';
  },
};

const yes: Prompter = { interactive: true, confirmTool: async () => true, ask: async () => true };

function runtime(catalog: SkillCatalog, llm: LlmClient, over: Partial<SkillRuntime> = {}): SkillRuntime {
  return {
    llm,
    platform: PLATFORMS.bigmodel,
    catalog,
    prompter: yes,
    mode: 'auto',
    signal: new AbortController().signal,
    cwd: '/work',
    // As outputFolder decides: the skill's own folder unless --output-dir was given.
    outputFolder: (skillDir) => outputFolder({ cwd: '/work', configured: 'zhi-output', skillDir }),
    skillModel: 'glm-4-flash',
    builtinTools: ['file_read', 'file_write'],
    loadTools: async (names) => new ToolRegistry(names.includes('file_write') ? [writeTool] : []),
    readDocument: async () => {
      throw new Error('no files in this test');
    },
    ...over,
  };
}

function catalogOf(...skills: Skill[]): SkillCatalog {
  return {
    skills: new Map(skills.map((s) => [s.name, s])),
    builtins: new Map(skills.filter((s) => s.source === 'builtin').map((s) => [s.name, s])),
    shadows: new Map(),
    broken: [],
    warnings: new Map(),
    dirs: { builtinDir: '/b', userDir: '/u' },
  };
}

async function drain(
  gen: AsyncGenerator<RunEvent, AgentResult>,
): Promise<{ events: RunEvent[]; result: AgentResult }> {
  const events: RunEvent[] = [];
  let step = await gen.next();
  while (!step.done) {
    events.push(step.value);
    step = await gen.next();
  }
  return { events, result: step.value };
}

describe('runSkill', () => {
  const leaf = skill(
    'name: leaf\ndescription: writes\nmodel: glm-4.5-flash\nsystem_prompt: LEAF\ntools: [file_write]\n',
    '/u/leaf.yaml',
    'builtin',
  );
  const top = skill(
    'name: top\ndescription: calls leaf\nsystem_prompt: TOP\ntools: [leaf]\noutput:\n  directory: reports\n',
    '/u/top.yaml',
    'builtin',
  );

  it('a nested run adds its usage and files to the caller, and writes where the caller writes', async () => {
    const llm = new ScriptedLlm([
      call('skill_leaf', {}),
      call('file_write', { path: 'x.md' }),
      text('leaf done'),
      text('top done'),
    ]);
    const usage = new UsageTracker(PLATFORMS.bigmodel);
    const { result, events } = await drain(
      runSkill({ skill: top, values: {}, usage }, runtime(catalogOf(top, leaf), llm)),
    );
    // The nested run's events are in the caller's stream, under their chain, and one `done` ends it.
    const nested = events.flatMap((ev) =>
      ev.type === 'nested' ? [`${ev.chain.join('>')}:${ev.event.type}`] : [],
    );
    expect(events.at(-1)).toEqual({ type: 'done', result });
    expect(nested).toContain('top>leaf:usage');
    expect(result.text).toBe('top done');
    expect(result.filesWritten).toEqual([{ path: '/work/reports/x.md', bytes: 3 }]);
    expect(usage.total().calls).toBe(4);
    expect(
      usage
        .models()
        .map(([m]) => m)
        .sort(),
    ).toEqual(['glm-4-flash', 'glm-4.5-flash']);
    expect(llm.requests.map((r) => r.model)).toEqual([
      'glm-4-flash',
      'glm-4.5-flash',
      'glm-4.5-flash',
      'glm-4-flash',
    ]);
    expect(llm.requests.every((r) => r.thinking === false)).toBe(true);
    expect(events[0]).toEqual({ type: 'skill_start', skill: 'top', model: 'glm-4-flash', depth: 1 });
    expect(nested).toContain('top>leaf:skill_start');
    expect(nested).toContain('top>leaf:tool_end');
  });

  it('--output-dir beats the skill output directory', async () => {
    const llm = new ScriptedLlm([
      call('skill_leaf', {}),
      call('file_write', { path: 'x.md' }),
      text('leaf'),
      text('top'),
    ]);
    const { result } = await drain(
      runSkill(
        { skill: top, values: {}, usage: new UsageTracker(PLATFORMS.bigmodel) },
        runtime(catalogOf(top, leaf), llm, {
          outputFolder: (skillDir) =>
            outputFolder({ cwd: '/work', flag: 'zhi-output', configured: 'zhi-output', skillDir }),
        }),
      ),
    );
    expect(result.filesWritten[0]!.path).toBe('/work/zhi-output/x.md');
  });

  it('refuses a cycle and a chain deeper than 3 at the start of a run', async () => {
    const llm = new ScriptedLlm([]);
    const rt = runtime(catalogOf(top, leaf), llm);
    await expect(
      drain(
        runSkill({ skill: top, values: {}, usage: new UsageTracker(PLATFORMS.bigmodel), chain: ['top'] }, rt),
      ),
    ).rejects.toThrow('"top" is already running in this chain (top → top); a skill cannot call itself.');
    await expect(
      drain(
        runSkill(
          { skill: leaf, values: {}, usage: new UsageTracker(PLATFORMS.bigmodel), chain: ['a', 'b', 'c'] },
          rt,
        ),
      ),
    ).rejects.toThrow('nested at most 3 levels');
    expect(llm.requests).toHaveLength(0);
  });

  it('asks for thinking only when the skill wants it and the model can', async () => {
    const thinker = skill(
      'name: t\ndescription: d\nmodel: glm-4.7-flash\nthinking: true\nsystem_prompt: p\ntools: []\n',
    );
    const plain = skill(
      'name: t\ndescription: d\nmodel: glm-4-flash\nthinking: true\nsystem_prompt: p\ntools: []\n',
    );
    const llm = new ScriptedLlm([text('a'), text('b')]);
    await drain(
      runSkill(
        { skill: thinker, values: {}, usage: new UsageTracker(PLATFORMS.bigmodel) },
        runtime(catalogOf(thinker), llm),
      ),
    );
    await drain(
      runSkill(
        { skill: plain, values: {}, usage: new UsageTracker(PLATFORMS.bigmodel) },
        runtime(catalogOf(plain), llm),
      ),
    );
    expect(llm.requests.map((r) => r.thinking)).toEqual([true, false]);
  });

  it('names the file, line and field of an unknown tool; an unknown skill model falls back with a warning', async () => {
    const bad = skill(
      'name: bad\ndescription: d\nsystem_prompt: p\ntools:\n  - file_read\n  - telepathy\n',
      '/u/bad.yaml',
    );
    const rt = runtime(catalogOf(bad), new ScriptedLlm([]));
    const err = await drain(
      runSkill({ skill: bad, values: {}, usage: new UsageTracker(PLATFORMS.bigmodel) }, rt),
    ).catch((e) => e as ZhiError);
    expect(err).toBeInstanceOf(ZhiError);
    expect((err as ZhiError).whyText()).toContain(
      '/u/bad.yaml, line 6, tools[1]: there is no tool or skill called "telepathy"',
    );
    const model = skill('name: m\ndescription: d\nmodel: gpt-9\nsystem_prompt: p\ntools: []\n', '/u/m.yaml');
    const llm = new ScriptedLlm([text('done')]);
    const ran = await drain(
      runSkill(
        { skill: model, values: {}, usage: new UsageTracker(PLATFORMS.bigmodel) },
        runtime(catalogOf(model), llm),
      ),
    );
    expect(ran.events).toContainEqual({
      type: 'warning',
      message:
        'the skill m asks for the model "gpt-9", which zhi does not know; it runs on glm-4-flash instead',
    });
    expect(llm.requests[0]!.model).toBe('glm-4-flash');
    expect(ran.result.text).toBe('done');
    // --model is the person's own choice: an unknown one is still an error, not a silent fallback.
    const err3 = await drain(
      runSkill(
        { skill: model, values: {}, model: 'claude-sonnet-4-5', usage: new UsageTracker(PLATFORMS.bigmodel) },
        runtime(catalogOf(model), new ScriptedLlm([])),
      ),
    ).catch((e) => e as ZhiError);
    expect(err3).toBeInstanceOf(ZhiError);
    expect((err3 as ZhiError).whatText()).toContain('unknown model "claude-sonnet-4-5"');
  });

  it('runs an untrusted user skill only after the user trusts it', async () => {
    const dir = tempDir();
    try {
      const writer = skill(
        'name: writer\ndescription: d\nsystem_prompt: p\ntools: [file_write]\n',
        '/u/writer.yaml',
        'user',
      );
      const store = await TrustStore.open(join(dir, 'trust.json'));
      const untrusted = (skills: Skill[]) => untrustedOf(store, skills);
      const asked: string[] = [];
      const rt = (answer: boolean) =>
        runtime(catalogOf(writer), new ScriptedLlm([text('ok')]), {
          untrusted,
          confirmTrust: async (pending) => {
            asked.push(pending.map((s) => s.name).join());
            if (answer) await store.trust(pending);
            return answer;
          },
        });
      const refused = await drain(
        runSkill({ skill: writer, values: {}, usage: new UsageTracker(PLATFORMS.bigmodel) }, rt(false)),
      ).catch((e) => e as ZhiError);
      expect((refused as ZhiError).exitCode).toBe(3);
      await drain(
        runSkill({ skill: writer, values: {}, usage: new UsageTracker(PLATFORMS.bigmodel) }, rt(true)),
      );
      await drain(
        runSkill({ skill: writer, values: {}, usage: new UsageTracker(PLATFORMS.bigmodel) }, rt(true)),
      );
      expect(asked).toEqual(['writer', 'writer']);
      const reopened = await TrustStore.open(join(dir, 'trust.json'));
      expect(await reopened.isTrusted(writer)).toBe(true);
      expect(await reopened.isTrusted({ ...writer, hash: 'changed' })).toBe(false);
    } finally {
      cleanup(dir);
    }
  });

  it('an Agent Skills folder: reference files are listed, read on demand with read_reference, and nothing else is readable', async () => {
    const dir = tempDir();
    try {
      const folder = join(dir, 'user', 'style-guide');
      mkdirSync(join(folder, 'reference'), { recursive: true });
      writeFileSync(
        join(folder, 'SKILL.md'),
        '---\nname: style-guide\ndescription: Apply the house style\nallowed-tools: Read\n---\nFollow the house style.\n',
      );
      writeFileSync(join(folder, 'reference', 'style.md'), 'Use British spelling.');
      // Deeper than the old 3-level cut, and bigger than one page.
      mkdirSync(join(folder, 'ooxml', 'schemas', 'iso', 'strict', 'main'), { recursive: true });
      const big = `${'a'.repeat(120 * 1024)}TAIL`;
      writeFileSync(join(folder, 'ooxml', 'schemas', 'iso', 'strict', 'main', 'wml.xsd'), big);
      writeFileSync(join(dir, 'secret.txt'), 'no');
      const catalog = await discoverSkills({ builtinDir: join(dir, 'none'), userDir: join(dir, 'user') });
      const sk = catalog.skills.get('style-guide')!;
      const llm = new ScriptedLlm([
        call('read_reference', { path: 'reference/style.md' }),
        call('read_reference', { path: '../../secret.txt' }),
        call('read_reference', { path: 'OOXML/Schemas/iso/strict/main/WML.xsd' }),
        call('read_reference', { path: 'ooxml/schemas/iso/strict/main/wml.xsd', offset: 100 * 1024 }),
        text('done'),
      ]);
      const { readDocument } = await import('../../src/tools/files/readers/index.js');
      await drain(
        runSkill(
          { skill: sk, values: {}, usage: new UsageTracker(PLATFORMS.bigmodel) },
          runtime(catalog, llm, { readDocument }),
        ),
      );
      const [first, second, third, fourth, fifth] = llm.requests;
      expect(first!.messages[0]!.content).toContain(
        'Its bundled files (read-only; read one with read_reference by its path relative to the folder): ooxml/schemas/iso/strict/main/wml.xsd, reference/style.md.',
      );
      expect(first!.messages[0]!.content).toContain(`This skill's folder is ${JSON.stringify(folder)}`);
      const page = fourth!.messages.at(-1)!.content as string;
      expect(page).toContain('[truncated: showing the first 100 KB of 120 KB of text.');
      expect(page).toContain('offset=102400');
      expect(page).not.toContain('TAIL');
      expect(fifth!.messages.at(-1)!.content).toMatch(/a+TAIL$/);
      expect(first!.messages[0]!.content).not.toContain('British');
      expect(first!.tools!.map((t) => t.function.name).sort()).toEqual(['read_reference']);
      expect(second!.messages.at(-1)!.content).toBe('Use British spelling.');
      expect(third!.messages.at(-1)!.content).toContain("is not one of this skill's files");
    } finally {
      cleanup(dir);
    }
  });
});

describe('inputs typed in the REPL', () => {
  it('splits words with quotes and backslash-escaped spaces, and separates --name value', async () => {
    const { splitCommandLine, splitWords } = await import('../../src/cli/skills/create.js');
    expect(splitWords(`summarize "my report.docx" my\\ notes.txt 'a b'`)).toEqual([
      'summarize',
      'my report.docx',
      'my notes.txt',
      'a b',
    ]);
    expect(splitWords('a  $HOME *.pdf')).toEqual(['a', '$HOME', '*.pdf']);
    expect(splitCommandLine('translate a.md --to english --keep --x=1')).toEqual({
      positionals: ['translate', 'a.md'],
      named: { to: 'english', keep: true, x: '1' },
    });
  });
});
