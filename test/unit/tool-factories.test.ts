/**
 * Built-in tools are made by factories with their dependencies (the API client for ocr and
 * web_search): the client a tool calls is the one it was built with, never one found on the
 * tool context at run time.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ZhipuClient } from '../../src/llm/client.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import { UsageTracker } from '../../src/llm/usage.js';
import { BUILTIN_TOOL_NAMES, loadTools } from '../../src/tools/index.js';
import type { ToolContext, ToolResult } from '../../src/tools/types.js';
import { FakeZhipu, TEST_KEY } from '../fake-zhipu/server.js';
import { toolContext } from '../helpers/file-fixtures.js';
import { makePng } from '../helpers/media.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let fake: FakeZhipu;
let dir: string;
beforeAll(async () => {
  fake = new FakeZhipu();
  await fake.start();
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.reset();
  dir = tempDir('zhi-factories-');
  return () => cleanup(dir);
});

const context = (usage: UsageTracker): ToolContext =>
  toolContext({
    cwd: dir,
    outputDir: join(dir, 'zhi-output'),
    usage,
    reportUsage: (model, u) => void usage.add(model, u),
    // GLM-OCR is paid: agreed in advance here (the question is tested on its own).
    priceAgreed: true,
  });

describe('loadTools', () => {
  it('builds every built-in tool once, by name', async () => {
    const client = new ZhipuClient({ baseUrl: fake.baseUrl, apiKey: TEST_KEY });
    const registry = await loadTools({ client });
    expect(registry.names()).toEqual(BUILTIN_TOOL_NAMES);
    expect((await loadTools({ client }, ['ocr', 'nope'])).names()).toEqual(['ocr']);
  });

  it('web_search and ocr call the API through the client they were built with', async () => {
    const client = new ZhipuClient({ baseUrl: fake.baseUrl, apiKey: TEST_KEY, retryBaseMs: 1 });
    const registry = await loadTools({ client }, ['web_search', 'ocr']);
    const usage = new UsageTracker(PLATFORMS.bigmodel);
    const found = (await registry
      .get('web_search')!
      .execute({ query: '个税' }, context(usage))) as ToolResult;
    expect(found.content).toContain('[1] About 个税');
    writeFileSync(join(dir, 'scan.png'), makePng(20, 10));
    fake.scriptOcr({ md: '# 发票' });
    expect(await registry.get('ocr')!.execute({ path: 'scan.png' }, context(usage))).toContain('# 发票');
    const paths = fake.requests.map((r) => r.path.replace(/^.*\/v4/, ''));
    expect(paths).toEqual(['/web_search', '/layout_parsing']);
    expect(fake.requests.every((r) => r.headers.authorization === `Bearer ${TEST_KEY}`)).toBe(true);
    expect(
      usage
        .models()
        .map(([m]) => m)
        .sort(),
    ).toEqual(['glm-ocr', 'web-search']);
  });
});
