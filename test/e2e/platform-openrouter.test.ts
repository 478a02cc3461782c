/**
 * A second OpenAI-compatible platform, end to end: OpenRouter serves GLM models under its own
 * names (`z-ai/glm-4.6`). zhi chats and runs skills through it with the registry's ids everywhere
 * but on the wire, and bills in USD.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';

const e = useE2E();
const { fake } = e;

/** The fake's address shaped like OpenRouter's (`…/api/v1`). */
const openRouterUrl = () => fake.baseUrl.replace(/\/api\/paas\/v4$/, '/api/v1');

describe('platform: openrouter', () => {
  it('chats with z-ai/<model> on the wire, the registry id everywhere else, in USD', async () => {
    fake.extraModels.set('z-ai/glm-4.6', {});
    writeFileSync(join(e.home, 'config.yaml'), 'platform: openrouter\ndefault_model: glm-4.6\n');
    fake.script({ kind: 'text', text: 'hello through openrouter' });
    const r = await e.zhi(['-c', 'hi'], { baseUrl: openRouterUrl() });
    expect(r.stderr).not.toContain("not in zhi's model list");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('hello through openrouter');
    expect(r.stderr).toMatch(/\$0\.\d+/);
    expect(fake.chatBodies().map((b) => b.model)).toEqual(['z-ai/glm-4.6']);
    const paths = fake.requests.map((q) => q.path);
    expect(paths).toContain('/api/v1/chat/completions');
  });

  it('runs a skill on its default skill model, z-ai/glm-4.5-air', async () => {
    fake.extraModels.set('z-ai/glm-4.5-air', {});
    writeFileSync(join(e.home, 'config.yaml'), 'platform: openrouter\n');
    writeFileSync(join(e.cwd, 'notes.txt'), 'Budget: 1.2 million. Deadline: March.');
    fake.script({ kind: 'text', text: 'Budget 1.2M, due March.' });
    const r = await e.zhi(['run', 'summarize', 'notes.txt'], { baseUrl: openRouterUrl() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Budget 1.2M');
    expect(fake.chatBodies().map((b) => b.model)).toEqual(['z-ai/glm-4.5-air']);
  });
});
