import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LearnedCapabilities } from '../../src/llm/capabilities.js';
import { ZhipuClient } from '../../src/llm/client.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

// What a client learned about a model is the client's (made at start from the cache file), not a
// module global: another client in the same process knows nothing of it.
let dir: string;
beforeEach(() => {
  dir = tempDir('zhi-caps-');
});
afterEach(() => cleanup(dir));

const req = { model: 'glm-9-preview', messages: [{ role: 'user' as const, content: 'hi' }], thinking: false };

describe('learned capabilities', () => {
  it('are kept per client and applied to its request bodies', async () => {
    const caps = new LearnedCapabilities();
    const taught = new ZhipuClient({ baseUrl: 'http://x', apiKey: 'k', capabilities: caps });
    const other = new ZhipuClient({ baseUrl: 'http://x', apiKey: 'k' });
    await caps.learn('GLM-9-Preview', { thinkingForced: true });
    expect(taught.modelInfo('glm-9-preview').thinkingForced).toBe(true);
    expect(taught.body(req, true).thinking).toEqual({ type: 'enabled' });
    expect(other.modelInfo('glm-9-preview').thinkingForced).toBeUndefined();
    expect(other.body(req, true).thinking).toEqual({ type: 'disabled' });
  });

  it('are saved to their file and loaded from it by the next run', async () => {
    const file = join(dir, 'model-capabilities.json');
    await LearnedCapabilities.load(file).learn('glm-9-preview', { thinkingForced: true });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ 'glm-9-preview': { thinkingForced: true } });
    expect(LearnedCapabilities.load(file).of('GLM-9-PREVIEW')).toEqual({ thinkingForced: true });
  });

  it('an unreadable cache is an empty one', () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{not json');
    expect(LearnedCapabilities.load(file).of('glm-9-preview')).toBeUndefined();
    expect(LearnedCapabilities.load(join(dir, 'missing.json')).of('glm-9-preview')).toBeUndefined();
  });
});
