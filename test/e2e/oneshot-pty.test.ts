import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';

const e = useE2E();
const { fake } = e;

describe('one-shot chat in a terminal', () => {
  it('renders the answer as Markdown in a terminal (tables drawn, no ** or | :--- |)', async () => {
    fake.script({
      kind: 'text',
      text: '## 结果\n\n| 文件 | 页数 |\n| :--- | ---: |\n| 报告 | 12 |\n\n**完成**',
    });
    const s = e.pty({ args: ['-c', '问题'] });
    try {
      expect((await s.exited()).exitCode).toBe(0);
      const text = s.text();
      expect(text).toMatch(/│ 报告 +│ +12 │/);
      expect(text).toContain('完成');
      expect(text).not.toContain('**');
      expect(text).not.toContain('| :--- |');
    } finally {
      s.kill();
    }
  });

  it('shows reasoning dimmed and the answer streamed', async () => {
    fake.script({ kind: 'text', text: '答案在这里。', reasoning: '先想一想。', delayMs: 5 });
    const s = e.pty({ args: ['-c', '问题'] });
    try {
      expect((await s.exited()).exitCode).toBe(0);
      expect(s.text()).toContain('先想一想。');
      expect(s.text()).toContain('答案在这里。');
      expect(s.raw()).toContain('\x1b[2m'); // dim
      expect(s.text()).toMatch(/Done: .* tokens/);
    } finally {
      s.kill();
    }
  });

  it('NO_COLOR and --no-color give plain text with prefixes and no escape codes', async () => {
    for (const env of [{ NO_COLOR: '1' }, {}]) {
      fake.script({ kind: 'text', text: 'plain', reasoning: 'hmm' });
      const args = 'NO_COLOR' in env ? ['-c', 'q'] : ['-c', 'q', '--no-color'];
      const s = e.pty({ args, env });
      try {
        expect((await s.exited()).exitCode).toBe(0);
        expect(s.text()).toContain('[DONE]');
        // Spinner frames may use \r and erase-line; no colour or style codes (SGR) at all.
        expect(s.raw()).not.toMatch(/\x1b\[[0-9;]*m/);
      } finally {
        s.kill();
      }
    }
  });
});
