/**
 * The REPL's prompt does nothing while nobody types: no request, no connection. While the person
 * types, what the first message needs is made ahead (lazy.ts TypingWork): the session file in
 * `sessions/.pending/`, and a connection to the API kept ready (keep-warm.ts), on which the message
 * then goes out. The preconnect is an OPTIONS of the API's address that carries no key.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { KEY } from '../helpers/pty.js';
import { stretched } from '../helpers/slowdown.js';

const e = useE2E();
const { fake } = e;
const PROMPT = /zhi \[approve\]> $/;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The session files made ahead, waiting for their first message. */
function pending(): string[] {
  const folder = join(e.home, 'sessions', '.pending');
  return existsSync(folder) ? readdirSync(folder) : [];
}

describe('the idle prompt, and what typing makes ready', () => {
  it(
    'sends nothing while nobody types; typing makes the session file and a connection the message uses',
    async () => {
      fake.script({ kind: 'text', text: 'Hello there.' });
      const s = e.pty({ cols: 100, rows: 30 });
      await s.waitFor(PROMPT, 10_000);
      await sleep(1500);
      // Nobody typed: no connection opened, no session file made.
      expect(fake.requests).toEqual([]);
      expect(pending()).toEqual([]);
      const mark = s.mark();
      for (const ch of 'hello') {
        s.write(ch);
        await sleep(600);
      }
      expect(pending()).toHaveLength(1);
      s.write(KEY.enter);
      await s.waitFor(/Hello there\./, 10_000, mark);
      await s.waitFor(PROMPT, 10_000, mark);
      // The first message moved it into place.
      expect(pending()).toEqual([]);
      const chat = fake.requests.find((r) => r.path.endsWith('/chat/completions'))!;
      const heads = fake.requests.filter((r) => r.method === 'OPTIONS');
      expect(heads.length).toBeGreaterThanOrEqual(1);
      expect(heads.every((h) => h.path === '/api/paas/v4/' && !h.headers.authorization)).toBe(true);
      const before = fake.requests
        .slice(0, fake.requests.indexOf(chat))
        .filter((r) => r.method === 'OPTIONS');
      expect(chat.connection).toBe(before.at(-1)!.connection);
      s.write(KEY.ctrlD);
      expect((await s.exited()).exitCode).toBe(0);
    },
    stretched(30_000),
  );
});
