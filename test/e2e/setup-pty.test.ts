import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_KEY } from '../fake-zhipu/server.js';
import { useE2E } from '../helpers/e2e.js';
import { KEY } from '../helpers/pty.js';

const e = useE2E();
const { fake } = e;

describe('setup wizard in a terminal', () => {
  it('hides the key, reports a bad key, accepts a good one, and saves 0600', async () => {
    const s = e.pty({ args: ['--setup'], env: { ZHI_API_KEY: undefined } });
    try {
      await s.waitFor('Language');
      s.write(KEY.enter); // English
      await s.waitFor('Which platform is your key from');
      s.write(KEY.enter); // BigModel
      await s.waitFor('? API key');
      s.write('wrong.key');
      s.write(KEY.enter);
      await s.waitFor('The key was rejected');
      expect(s.text()).not.toContain('wrong.key');
      s.write(KEY.enter); // Enter the key again
      let m = s.mark();
      await s.waitFor('? API key', 10_000, m);
      s.write(TEST_KEY);
      s.write(KEY.enter);
      await s.waitFor('The key works.');
      m = s.mark();
      s.write(KEY.enter); // chat model glm-5
      await s.waitFor('Model for skills', 10_000, m);
      s.write(KEY.enter);
      await s.waitFor('Folder for files');
      s.write(KEY.enter);
      await s.waitFor('quick demo');
      s.write('n');
      s.write(KEY.enter);
      await s.waitFor('All set.');
      expect((await s.exited()).exitCode).toBe(0);
      expect(s.text()).not.toContain(TEST_KEY);

      const file = join(e.home, 'config.yaml');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const yaml = readFileSync(file, 'utf8');
      expect(yaml).toContain(`api_key: ${TEST_KEY}`);
      expect(yaml).toContain('default_model: glm-5');
      // The key check is one cheap call: free model, one token, no thinking.
      const probes = fake.chatBodies();
      expect(probes.at(-1)).toMatchObject({
        model: 'glm-4-flash',
        max_tokens: 1,
        stream: false,
        thinking: { type: 'disabled' },
      });
    } finally {
      s.kill();
    }
  });

  it('starts on first run in a terminal with no key, and explains a network failure and a missing balance', async () => {
    fake.script({ kind: 'error', status: 429, code: '1113', message: '余额不足或无可用资源包,请充值。' });
    const s = e.pty({ args: [], env: { ZHI_API_KEY: undefined } });
    try {
      await s.waitFor('Welcome to zhi');
      s.write(KEY.enter);
      await s.waitFor('Which platform is your key from');
      s.write(KEY.enter);
      await s.waitFor('? API key');
      s.write(TEST_KEY + KEY.enter);
      await s.waitFor('the account has no balance');
      s.write(KEY.down + KEY.down + KEY.enter); // Quit setup
      expect((await s.exited()).exitCode).toBe(3);
    } finally {
      s.kill();
    }
    const s2 = e.pty({
      args: ['--setup'],
      baseUrl: 'http://127.0.0.1:9/api/paas/v4',
      env: { ZHI_API_KEY: undefined },
    });
    try {
      await s2.waitFor('Language');
      s2.write(KEY.enter);
      await s2.waitFor('Which platform is your key from');
      s2.write(KEY.enter);
      await s2.waitFor('? API key');
      s2.write(TEST_KEY + KEY.enter);
      await s2.waitFor('Could not reach the API');
      // Ctrl+C once the question is up (before it, the terminal is not in raw mode yet).
      await s2.waitFor('Enter the key again');
      s2.write(KEY.ctrlC);
      expect((await s2.exited()).exitCode).toBe(130);
      expect(s2.text()).toContain('nothing was saved');
    } finally {
      s2.kill();
    }
  });

  it.each([
    60, 100,
  ])('with LANG=zh_CN starts on 中文; the demo answer is rendered Markdown in the chat, which stays open (%i columns)', async (cols) => {
    fake.script(
      { kind: 'text', text: 'OK' },
      { kind: 'text', text: '我是 **zhi**。\n\n| 能做 | 例子 |\n| :--- | :--- |\n| 总结 | 报告 |' },
    );
    const s = e.pty({ args: [], cols, env: { ZHI_API_KEY: undefined, LANG: 'zh_CN.UTF-8' } });
    try {
      await s.waitFor('❯ 中文');
      s.write(KEY.enter);
      await s.waitFor('智谱');
      s.write(KEY.enter);
      await s.waitFor('? API');
      s.write(TEST_KEY + KEY.enter);
      await s.waitFor('✓');
      for (const step of ['对话', '技能', '文件夹']) {
        await s.waitFor(step);
        s.write(KEY.enter);
      }
      await s.waitFor('演示');
      s.write(KEY.enter); // yes
      await s.waitFor('报告');
      await s.waitFor(/zhi \[(?:approve|确认)\]> $/);
      const text = s.text();
      expect(text).toContain('zhi');
      expect(text).not.toContain('| :--- |');
      expect(text).not.toContain('**zhi**');
      expect(text).toMatch(/│ 总结 +│ 报告 +│/);
      s.write(KEY.ctrlD);
      expect((await s.exited()).exitCode).toBe(0);
    } finally {
      s.kill();
    }
  });
});
