/**
 * Skills budgets (design §5), measured in-process by scripts/bench.mjs:
 * - discovery of the built-ins plus 50 user skills (first call in the process, and warm median);
 * - the request a skill run sends: its system prompt plus its tool schemas (estimated tokens,
 *   bytes), for summarize and for the largest built-in, and a check that every built-in's request
 *   carries only the skill's own tools.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSkill } from '../../src/agent/skills/run.js';
import { estimateMessagesTokens, estimateToolsTokens } from '../../src/agent/tokens.js';
import { ZhipuClient } from '../../src/llm/client.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import type { ChatRequest, LlmClient, StreamEvent } from '../../src/llm/types.js';
import { UsageTracker } from '../../src/llm/usage.js';
import { discoverSkills } from '../../src/skills/discovery.js';
import { resolveTools } from '../../src/skills/resolve.js';
import { readDocument } from '../../src/tools/files/readers/index.js';
import { BUILTIN_TOOL_NAMES, loadTools } from '../../src/tools/index.js';

import { bareNode } from './lib/floors.js';
import type { BenchOptions, Row } from './lib/row.js';

const builtinDir = join(process.cwd(), 'skills');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Run in a fresh process: one discovery, timed (imports included in nothing: they are loaded lazily). */
export async function timeDiscovery(builtin: string, userDir: string, cacheFile: string): Promise<number> {
  const t = performance.now();
  const c = await discoverSkills({ builtinDir: builtin, userDir }, { cacheFile });
  const ms = performance.now() - t;
  if (c.broken.length) throw new Error('discovery bench: broken skills');
  return ms;
}

function inFreshProcess(builtin: string, userDir: string, cacheFile: string): number {
  const self = import.meta.url;
  const code = `import(${JSON.stringify(self)}).then(async (m) => console.log(await m.timeDiscovery(${JSON.stringify(builtin)}, ${JSON.stringify(userDir)}, ${JSON.stringify(cacheFile)})))`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], {
    encoding: 'utf8',
    cwd: process.cwd(),
  });
  return Number(out.trim().split('\n').at(-1));
}

/**
 * Discovery of 15 built-ins + 50 user skills, the way `zhi run` does it: once, in a fresh
 * process. The first run ever parses every file and fills the cache; later runs read the cache
 * and check each file's size and time.
 */
export async function measureDiscovery(userSkills = 50, quick = false): Promise<Row> {
  const home = mkdtempSync(join(tmpdir(), 'zhi-bench-skills-'));
  try {
    const userDir = join(home, 'skills');
    mkdirSync(userDir);
    const template = readFileSync(join(builtinDir, 'summarize.yaml'), 'utf8');
    for (let i = 0; i < userSkills; i++) {
      const name = `user-skill-${String(i).padStart(2, '0')}`;
      if (i % 5 === 4) {
        mkdirSync(join(userDir, name));
        writeFileSync(
          join(userDir, name, 'SKILL.md'),
          `---\nname: ${name}\ndescription: Agent Skills format ${i}\n---\n\n${template}`,
        );
      } else
        writeFileSync(join(userDir, `${name}.yaml`), template.replace(/^name: summarize$/m, `name: ${name}`));
    }
    const cacheFile = join(home, 'cache', 'skills.json');
    const first = inFreshProcess(builtinDir, userDir, cacheFile);
    const runs = Array.from({ length: quick ? 1 : 5 }, () => inFreshProcess(builtinDir, userDir, cacheFile));
    const node = bareNode(quick ? 3 : 9);
    const noCache = Array.from({ length: quick ? 1 : 3 }, () =>
      inFreshProcess(builtinDir, userDir, join(home, 'nocache', `${Math.random()}.json`)),
    );
    return {
      name: `skill discovery, ${userSkills} user skills`,
      value: median(runs),
      unit: 'ms',
      floor: { name: 'bare node wall', value: node.wallMs },
      maxRatio: 2,
      note: `in a fresh process, ${15 + userSkills} skills, cache filled; without the cache (first run, or every file changed): ${median([first, ...noCache]).toFixed(0)} ms`,
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Answers at once, keeping the request it was sent. */
class Capture implements LlmClient {
  last: ChatRequest | undefined;
  async *stream(req: ChatRequest): AsyncIterable<StreamEvent> {
    this.last = req;
    const usage = {
      promptTokens: 0,
      completionTokens: 0,
      totalTokens: 0,
      cachedTokens: 0,
      reasoningTokens: 0,
    };
    yield {
      type: 'done',
      message: { role: 'assistant', content: 'ok' },
      finishReason: 'stop',
      usage,
      model: req.model,
    };
  }
}

export interface RequestSize {
  skill: string;
  tokens: number;
  bytes: number;
  tools: string[];
  expectedTools: string[];
}

/** The first request of each built-in skill run with no inputs: its prompt and tool schemas only. */
export async function measureRequestSizes(): Promise<RequestSize[]> {
  const catalog = await discoverSkills({ builtinDir, userDir: join(tmpdir(), 'zhi-bench-no-user-skills') });
  const wire = new ZhipuClient({ baseUrl: 'http://127.0.0.1:9/api/paas/v4', apiKey: 'bench' });
  const out: RequestSize[] = [];
  for (const skill of catalog.skills.values()) {
    const llm = new Capture();
    const run = runSkill(
      { skill, values: {}, usage: new UsageTracker(PLATFORMS.bigmodel) },
      {
        llm,
        platform: PLATFORMS.bigmodel,
        catalog,
        prompter: { interactive: false, confirmTool: async () => false, ask: async () => false },
        mode: 'approve',
        signal: new AbortController().signal,
        cwd: process.cwd(),
        outputFolder: (dir) => join(process.cwd(), dir ?? 'zhi-output'),
        skillModel: 'glm-4-flash',
        builtinTools: BUILTIN_TOOL_NAMES,
        loadTools: (names) => loadTools({ client: wire }, names),
        readDocument,
        today: '2025-01-01',
      },
    );
    for (let step = await run.next(); !step.done; step = await run.next()) {
      // drain
    }
    const req = llm.last!;
    const body = JSON.stringify(wire.body(req, true));
    const resolved = resolveTools(skill, catalog, BUILTIN_TOOL_NAMES);
    out.push({
      skill: skill.name,
      tokens: estimateMessagesTokens(req.messages) + estimateToolsTokens(req.tools ?? []),
      bytes: Buffer.byteLength(body),
      tools: (req.tools ?? []).map((t) => t.function.name).sort(),
      expectedTools: [...resolved.builtin, ...resolved.skills.map((s) => `skill_${s.name}`)].sort(),
    });
  }
  return out;
}

export async function measure(o: BenchOptions): Promise<Row[]> {
  const rows: Row[] = [await measureDiscovery(o.quick ? 10 : 50, o.quick)];
  const sizes = await measureRequestSizes();
  const summarize = sizes.find((s) => s.skill === 'summarize')!;
  const largest = sizes.reduce((a, b) => (b.tokens > a.tokens ? b : a));
  rows.push({
    name: 'skill request size: summarize (prompt + tool schemas)',
    value: summarize.tokens,
    unit: 'tokens',
    // A count, the same on any machine: 875 measured. A quarter more is room for a paragraph of
    // prompt or one small tool (a schema is 100–170 tokens), not for two, a verbose schema or the
    // prompt sent twice.
    budget: 1100,
    note: `${summarize.bytes} bytes on the wire; tools: ${summarize.tools.join(', ')}`,
  });
  rows.push({
    name: 'skill request size: largest built-in',
    value: largest.tokens,
    unit: 'tokens',
    // 1,554 measured (contract-review, which offers three skills as tools): about a quarter more.
    budget: 2000,
    note: `${largest.skill}, ${largest.bytes} bytes; tools: ${largest.tools.join(', ')}`,
  });
  const extra = sizes.filter((s) => s.tools.join() !== s.expectedTools.join());
  rows.push({
    name: 'skill requests with tools not their own',
    value: extra.length,
    unit: 'skills',
    budget: 0,
    note: extra.length
      ? extra.map((s) => `${s.skill}: ${s.tools.join(',')}`).join('; ')
      : `all ${sizes.length} built-ins send only their own tools`,
  });
  return rows;
}
