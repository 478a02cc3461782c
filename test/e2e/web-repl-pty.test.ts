/**
 * `/web` in the REPL: the page of this conversation, served by the REPL's own process, with
 * this session's turns — against the built zhi in a pseudo-terminal and the fake API.
 */
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { promptFor, submit } from '../helpers/pty.js';

const e = useE2E();

describe('/web in the REPL', () => {
  it('serves this conversation on 127.0.0.1 and names it in the address', async () => {
    e.fake.script({ kind: 'text', text: 'Hello from the terminal.' });
    const s = e.pty({ cols: 200, rows: 40, env: { PATH: '/nonexistent' } });
    const prompt = promptFor('en');
    await s.waitFor(prompt, 10_000);
    await submit(s, 'say hello', prompt);
    const from = s.mark();
    s.write('/web\r');
    await s.waitFor(/#\/chat\/[\w-]+/, 10_000, from);
    const m = /http:\/\/127\.0\.0\.1:(\d+)\/\?token=([\w-]+)#\/chat\/([\w-]+)/.exec(s.text().slice(from))!;
    expect(m).not.toBeNull();
    const [, port, secret, id] = m;
    const conv = (await (
      await fetch(`http://127.0.0.1:${port}/api/conversations/${id}`, {
        headers: { Authorization: `Bearer ${secret}` },
      })
    ).json()) as { items: { text: string }[] };
    expect(conv.items.map((i) => i.text)).toEqual(['say hello', 'Hello from the terminal.']);
    // No browser here (PATH has none): said, and the REPL goes on.
    expect(s.text().slice(from)).toMatch(/could not open a browser/);
  });
});
