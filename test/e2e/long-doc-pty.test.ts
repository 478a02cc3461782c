/**
 * A long document whose estimate is more than max_cost_per_run leaves, in a terminal: zhi shows
 * the parts and the estimate and asks; "no" sends nothing, "yes" processes every part.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest, Reply } from '../fake-zhipu/server.js';
import { useE2E } from '../helpers/e2e.js';

const e = useE2E();
const { fake } = e;
beforeEach(() => {
  writeFileSync(join(e.home, 'config.yaml'), 'max_cost_per_run: 0.01\n');
  const pages = Array.from(
    { length: 400 },
    (_, i) =>
      `--- page ${i + 1} ---\nPAGEMARK-${i + 1} ${'The contract clause text goes on here. '.repeat(16)}`,
  );
  writeFileSync(join(e.cwd, 'contract.txt'), pages.join('\n'));
  fake.fallback = (req: RecordedRequest): Reply => ({
    kind: 'text',
    text: `part ${req.body.messages.length}`,
  });
});

const isMap = (r: RecordedRequest) =>
  /This run handles part \d+ of \d+/.test(String(r.body.messages[0].content));
const run = () => e.pty({ args: ['run', 'summarize', 'contract.txt', '--model', 'glm-4-plus', '--auto'] });

describe('a long document over max_cost_per_run, in a terminal', () => {
  it('asks first; "no" sends nothing', async () => {
    const s = run();
    try {
      await s.waitFor('Process it anyway', 20_000);
      expect(s.text()).toMatch(/Long document contract\.txt: \d+ parts/);
      expect(s.text()).toMatch(/Estimated cost ¥[\d.]+: more than max_cost_per_run \(¥0\.01\)/);
      s.write('n\r');
      expect((await s.exited()).exitCode).toBe(1);
      expect(s.text()).toContain('You answered no; nothing was sent.');
      expect(fake.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(0);
    } finally {
      s.kill();
    }
  });

  it('"yes" processes every part', async () => {
    const s = run();
    try {
      await s.waitFor('Process it anyway', 20_000);
      s.write('y\r');
      expect((await s.exited()).exitCode).toBe(0);
      expect(fake.requests.filter(isMap).length).toBeGreaterThanOrEqual(4);
    } finally {
      s.kill();
    }
  });
});
