import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { KEY } from '../helpers/pty.js';

const t = useE2E();
const fake = t.fake;

describe('the REPL killed mid-answer', () => {
  it('keeps every finished exchange and the question; /resume and --continue pick it up', async () => {
    fake.script(
      { kind: 'text', text: '第一个回答。' },
      { kind: 'text', text: '很长的第二个回答，'.repeat(300), delayMs: 25, chunk: 3 },
    );
    const repl = t.pty();
    try {
      await repl.waitFor('>');
      repl.write(`第一个问题${KEY.enter}`);
      await repl.waitFor('第一个回答。');
      const mark = repl.mark();
      repl.write(`第二个问题${KEY.enter}`);
      await repl.waitFor('很长的第二个回答，很长的', 10_000, mark); // streaming has begun
      repl.pty.kill('SIGKILL');
      await repl.exited();
    } finally {
      repl.kill();
    }

    // Picked up in a new REPL: /sessions lists it, /resume 1 loads it.
    fake.script({ kind: 'text', text: '第三个回答。' });
    const again = t.pty();
    try {
      await again.waitFor('>');
      again.write(`/sessions${KEY.enter}`);
      await again.waitFor('第一个问题');
      again.write(`/resume 1${KEY.enter}`);
      await again.waitFor('Continuing session');
      await again.waitFor('The last answer was not finished');
      const mark = again.mark();
      again.write(`第三个问题${KEY.enter}`);
      await again.waitFor('第三个回答。', 10_000, mark);
      again.write(`/usage${KEY.enter}`);
      await again.waitFor('With the earlier runs of this session', 10_000, mark);
      again.write(KEY.ctrlD);
      await again.exited();
    } finally {
      again.kill();
    }
    const sent = fake.chatBodies()[2].messages;
    expect(sent.slice(1)).toEqual([
      { role: 'user', content: '第一个问题' },
      { role: 'assistant', content: '第一个回答。' },
      { role: 'user', content: '第二个问题' },
      { role: 'user', content: '第三个问题' },
    ]);

    // And from the command line.
    fake.script({ kind: 'text', text: 'ok' });
    const r = await t.zhi(['--continue', '-c', '第四个问题']);
    expect(r.code).toBe(0);
    expect(fake.chatBodies()[3].messages.slice(-3)).toEqual([
      { role: 'user', content: '第三个问题' },
      { role: 'assistant', content: '第三个回答。' },
      { role: 'user', content: '第四个问题' },
    ]);
  });
});
