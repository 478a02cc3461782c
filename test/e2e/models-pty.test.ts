/** /model, /fast and /think in the REPL reach the request body (a real pty, the fake API). */
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { KEY, type PtySession } from '../helpers/pty.js';

const e = useE2E();
const { fake } = e;

const PROMPT = /zhi \[(?:approve|确认)\]> $/;

async function command(s: PtySession, line: string, expect?: string | RegExp): Promise<void> {
  const mark = s.mark();
  s.write(`${line}${KEY.enter}`);
  if (expect) await s.waitFor(expect, 10_000, mark);
  await s.waitFor(PROMPT, 10_000, mark);
}

describe('thinking switches in the REPL', () => {
  it('/fast on glm-4.7 sends thinking disabled; /think max on glm-5.3 sends reasoning_effort', async () => {
    fake.script({ kind: 'text', text: 'quick' }, { kind: 'text', text: 'deep' });
    const s = e.pty({ cols: 100, rows: 30 });
    await s.waitFor(PROMPT);
    await command(s, '/model glm-4.7', 'Model: glm-4.7');
    await command(s, '/fast', 'Thinking off');
    await command(s, 'hi', 'quick');
    await command(s, '/model glm-5.3', 'Model: glm-5.3');
    await command(s, '/think max', 'effort max');
    await command(s, '你好', 'deep');
    const [first, second] = fake.chatBodies();
    expect(first).toMatchObject({ model: 'glm-4.7', thinking: { type: 'disabled' } });
    expect(first.reasoning_effort).toBeUndefined();
    expect(second).toMatchObject({
      model: 'glm-5.3',
      thinking: { type: 'enabled' },
      reasoning_effort: 'max',
    });
    s.write(KEY.ctrlD);
    expect((await s.exited()).exitCode).toBe(0);
  });
});
