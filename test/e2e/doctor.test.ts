/**
 * `zhi doctor` (issue 30 #8): the key is tried for real against the (fake) platform, a missing
 * key or an unreachable base URL is a problem (exit 1), and the answer is in the person's language.
 */
import { describe, expect, it } from 'vitest';
import { sandboxState } from '../../src/tools/shell/sandbox.js';
import { useE2E } from '../helpers/e2e.js';

const e = useE2E();
const { fake } = e;
const sandboxOk = sandboxState().kind !== 'none';

describe('zhi doctor', () => {
  it('without a key says so and exits 1 (en, zh)', async () => {
    const en = await e.zhi(['doctor'], { env: { ZHI_API_KEY: undefined } });
    expect(en.code).toBe(1);
    expect(en.stdout).toContain('API key: none is set');
    expect(en.stdout).not.toContain('looks fine');
    const zh = await e.zhi(['doctor'], { env: { ZHI_API_KEY: undefined, ZHI_LANGUAGE: 'zh' } });
    expect(zh.code).toBe(1);
    expect(zh.stdout).toContain('API 密钥：尚未设置');
  });

  it('tries the key live: one request reaches the platform', async () => {
    fake.script({ kind: 'text', text: 'p' });
    const r = await e.zhi(['doctor']);
    expect(r.stdout).toMatch(/API key \(\$ZHI_API_KEY\) works/);
    expect(fake.chatBodies()).toHaveLength(1);
    expect(fake.chatBodies()[0].max_tokens).toBe(1);
    if (sandboxOk) expect(r.code).toBe(0);
  });

  it('an unreachable base URL is a network problem, exit 1', async () => {
    const r = await e.zhi(['doctor'], { baseUrl: 'http://127.0.0.1:1/api/paas/v4' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Network: http://127.0.0.1:1/api/paas/v4 could not be reached');
  });
});
