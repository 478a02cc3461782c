/**
 * Custom slash commands at the zhi prompt: Tab completes their names, /help lists them with
 * their descriptions (and says when a file is left out for a built-in's name), and a project
 * command asks once before its prompt is sent.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { KEY } from '../helpers/pty.js';

const e = useE2E();
const { fake } = e;
const PROMPT = /zhi \[(?:approve|确认)\]> $/;

function commandFile(name: string, text: string): void {
  const dir = join(e.cwd, '.zhi', 'commands');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.md`), text);
}

describe('custom commands in the REPL', () => {
  it('Tab completes the name, /help lists it, the first use asks, yes sends the expanded prompt', async () => {
    commandFile(
      'summarize-notes',
      '---\ndescription: Sum up a notes file\n---\nSummarize $ARGUMENTS briefly.',
    );
    commandFile('model', 'I try to replace /model');
    const s = e.pty({ cols: 120, rows: 40 });
    await s.waitFor(PROMPT, 10_000);
    s.write('/summ');
    s.write(KEY.tab);
    await s.waitFor('/summarize-notes ', 10_000);
    s.write('notes.txt');
    s.write(KEY.enter);
    await s.waitFor('First use of the project command /summarize-notes', 10_000);
    expect(s.text()).toContain('Summarize $ARGUMENTS briefly.');
    fake.script({ kind: 'text', text: 'Short summary.' });
    s.write('y\r');
    await s.waitFor('Short summary.', 10_000);
    const messages = fake.chatBodies()[0].messages as { role: string; content: string }[];
    expect(messages.filter((m) => m.role === 'user').at(-1)!.content).toContain(
      'Summarize notes.txt briefly.',
    );
    let mark = s.text().length;
    s.write('/help\r');
    await s.waitFor('Commands from files:', 10_000, mark);
    await s.waitFor(PROMPT, 10_000, mark);
    const help = s.text().slice(mark);
    expect(help).toMatch(/\/summarize-notes \[…\]\s+Sum up a notes file/);
    expect(help).toMatch(
      /model\.md is not used: \/model is a built-in command, and built-in commands always\s+win/,
    );
    // Trusted now: the second use sends at once.
    mark = s.text().length;
    fake.script({ kind: 'text', text: 'Second summary.' });
    s.write('/summarize-notes other.txt\r');
    await s.waitFor('Second summary.', 10_000, mark);
    expect(s.text().slice(mark)).not.toContain('First use');
    s.write(KEY.ctrlD);
    expect((await s.exited()).exitCode).toBe(0);
  });
});
