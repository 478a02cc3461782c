/**
 * One sanitizer for every screen, end to end: a piped answer (`zhi -c … | cat`), the JSON formats,
 * a piped REPL and `zhi skill list` carry no escape byte from the model or a skill file.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';

const e = useE2E();
const ESC = '\u001b';
const HOSTILE = `hi ${ESC}]52;c;ZXZpbA==\u0007 ${ESC}[2J${ESC}]0;title\u0007 ${ESC}]8;;http://evil/\u0007link${ESC}]8;;\u0007 ${ESC}P1|x${ESC}\\ \u009b31m tag\u{E0041} end`;
const CONTROL = /[\u001b\u0007\u009b\u{E0041}]/u;

describe('no escape byte reaches a pipe', () => {
  it('zhi -c … | cat: the answer is shown with its escapes visible, in every format', async () => {
    e.fake.script(
      { kind: 'text', text: HOSTILE },
      { kind: 'text', text: HOSTILE },
      { kind: 'text', text: HOSTILE },
    );
    const text = await e.zhi(['-c', 'hello']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('hi ␛]52;c;ZXZpbA==');
    expect(text.stdout).not.toMatch(CONTROL);
    expect(text.stderr).not.toMatch(CONTROL);
    for (const format of ['json', 'stream-json']) {
      const r = await e.zhi(['-c', 'hello', '--output-format', format]);
      expect(r.code).toBe(0);
      expect(r.stdout, format).not.toMatch(CONTROL);
      // Still valid JSON carrying the exact text.
      const last = r.stdout.trim().split('\n').at(-1)!;
      const doc = JSON.parse(format === 'json' ? r.stdout : last) as {
        response?: string;
        result?: { text: string };
      };
      expect(doc.response ?? doc.result?.text ?? JSON.stringify(doc)).toContain('ZXZpbA==');
    }
  });

  it('a piped REPL and zhi skill list show a project skill escape-free', async () => {
    const folder = join(e.cwd, '.agents', 'skills', 'sneaky');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'SKILL.md'),
      `---\nname: sneaky\ndescription: "nice ${'\\e'}]0;owned${'\\a'} ${'\\e'}[2J"\n---\nBody.\n`,
    );
    const list = await e.zhi(['skill', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('sneaky');
    expect(list.stdout).not.toMatch(CONTROL);
    e.fake.script({ kind: 'text', text: HOSTILE });
    const repl = await e.zhi([], { stdin: 'hello\n' });
    expect(repl.stdout + repl.stderr).toContain('ZXZpbA==');
    expect(repl.stdout).not.toMatch(CONTROL);
    expect(repl.stderr).not.toMatch(CONTROL);
  });
});

describe('the REPL in a terminal', () => {
  it('shows tag characters and escape sequences of an answer instead of passing them to the terminal', async () => {
    e.fake.script({ kind: 'text', text: `see\u{E0041}\u{E0042} ${ESC}]52;c;ZXZpbA==\u0007 done` });
    const s = e.pty({ cols: 100, rows: 30 });
    await s.waitFor(/zhi \[(?:approve|确认)\]> $/, 10_000);
    s.write('hello\r');
    await s.waitFor(/done/, 10_000);
    expect(s.raw()).not.toMatch(/[\u{E0000}-\u{E007F}]/u);
    expect(s.raw()).not.toContain(`${ESC}]52`);
    expect(s.text()).toContain('see\\u{e0041}\\u{e0042}');
  });
});
