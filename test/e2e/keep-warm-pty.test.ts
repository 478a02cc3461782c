/**
 * The REPL keeps a connection to the API ready while the person types (keep-warm.ts): a message
 * typed after the last connection went idle goes out on one opened while it was typed, not after
 * Enter. The preconnect is an OPTIONS of the API's address that carries no key.
 */
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { KEY } from '../helpers/pty.js';

const e = useE2E();
const { fake } = e;
const PROMPT = /zhi \[approve\]> $/;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a connection kept ready while the person types', () => {
  it('the message goes out on the connection opened while it was typed; the preconnect carries no key', async () => {
    fake.script({ kind: 'text', text: 'Hello there.' });
    const s = e.pty({ cols: 100, rows: 30 });
    await s.waitFor(PROMPT, 10_000);
    // Longer than Node's fetch keeps an idle connection (the fake server says 5 s, less 1–2 s).
    await sleep(5500);
    const mark = s.mark();
    for (const ch of 'hello') {
      s.write(ch);
      await sleep(600);
    }
    s.write(KEY.enter);
    await s.waitFor(/Hello there\./, 10_000, mark);
    await s.waitFor(PROMPT, 10_000, mark);
    const chat = fake.requests.find((r) => r.path.endsWith('/chat/completions'))!;
    const heads = fake.requests.filter((r) => r.method === 'OPTIONS');
    expect(heads.length).toBeGreaterThanOrEqual(2); // at the prompt, and while typing
    expect(heads.every((h) => h.path === '/api/paas/v4/' && !h.headers.authorization)).toBe(true);
    const before = fake.requests.slice(0, fake.requests.indexOf(chat)).filter((r) => r.method === 'OPTIONS');
    expect(chat.connection).toBe(before.at(-1)!.connection);
    // The one made at the prompt had gone idle and closed: typing opened another.
    expect(new Set(heads.map((h) => h.connection)).size).toBeGreaterThanOrEqual(2);
    s.write(KEY.ctrlD);
    expect((await s.exited()).exitCode).toBe(0);
  }, 30_000);
});
