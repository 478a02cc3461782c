/**
 * Issue 30, a newcomer's first hour, the set-up wizard: its last line names the command that
 * starts this zhi (the tests run `node …/dist/zhi.js`, with no `zhi` on the PATH), and the Custom
 * platform sends nobody to BigModel's key page.
 */
import { describe, expect, it } from 'vitest';
import { TEST_KEY } from '../fake-zhipu/server.js';
import { useE2E } from '../helpers/e2e.js';
import { KEY } from '../helpers/pty.js';

const e = useE2E();

describe.each(['en', 'zh'] as const)('the wizard (%s)', (lang) => {
  const env = { ZHI_API_KEY: undefined, LANG: lang === 'zh' ? 'zh_CN.UTF-8' : 'en_US.UTF-8' };

  it('ends with the command that starts this zhi, not a bare `zhi` that is not on the PATH', async () => {
    const s = e.pty({ args: ['--setup'], env: { ...env, npm_lifecycle_event: 'start' } });
    await s.waitFor(lang === 'zh' ? '❯ 中文' : '❯ English');
    s.write(KEY.enter);
    await s.waitFor(lang === 'zh' ? '哪个平台' : 'Which platform');
    s.write(KEY.enter);
    await s.waitFor('? API'); // the prompt itself, not the "Get an API key" line before it
    s.write(TEST_KEY + KEY.enter);
    await s.waitFor('✓');
    for (const step of lang === 'zh' ? ['对话', '技能', '文件夹'] : ['chat', 'skills', 'Folder']) {
      await s.waitFor(step);
      s.write(KEY.enter);
    }
    await s.waitFor(lang === 'zh' ? '演示' : 'demo');
    s.write(`n${KEY.enter}`);
    expect((await s.exited()).exitCode).toBe(0);
    expect(s.text()).toContain('`npm start`');
    expect(s.text()).not.toContain('`zhi`');
  });

  it('the Custom platform does not point to open.bigmodel.cn for its key', async () => {
    const s = e.pty({ args: ['--setup'], env });
    await s.waitFor(lang === 'zh' ? '❯ 中文' : '❯ English');
    s.write(KEY.enter);
    await s.waitFor(lang === 'zh' ? '哪个平台' : 'Which platform');
    s.write(KEY.up + KEY.enter); // the last one: Custom (the list wraps around)
    await s.waitFor(lang === 'zh' ? '接口地址' : 'Base URL');
    s.write(`${e.fake.baseUrl}${KEY.enter}`);
    const m = s.mark();
    await s.waitFor(lang === 'zh' ? '服务商' : 'provider', 10_000, m);
    expect(s.text().slice(m)).not.toContain('bigmodel.cn');
    s.write(KEY.ctrlC);
    await s.exited();
  });
});
