/**
 * An Agent Skill's script in a real terminal: the skill is trusted once, every command asks, the
 * script runs from the skill's own folder (readable inside the sandbox, though zhi's folders are
 * hidden), and `allowed-tools: Bash(node:*)` refuses any other program before anyone is asked.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fake-zhipu/server.js';
import { useE2E } from '../helpers/e2e.js';

const e = useE2E();
const { fake } = e;
let home: string;
let work: string;
beforeEach(() => {
  ({ home, cwd: work } = e);
});

const lastTool = (req: RecordedRequest): string =>
  [...req.body.messages].reverse().find((m: { role: string }) => m.role === 'tool')?.content ?? '';

describe('a skill script in a terminal', () => {
  it('runs from the skill folder after trust and approval; other programs are refused by allowed-tools', async () => {
    const folder = join(home, 'skills', 'word-count');
    mkdirSync(join(folder, 'scripts'), { recursive: true });
    writeFileSync(
      join(folder, 'SKILL.md'),
      '---\nname: word-count\ndescription: Count the words of a file\nallowed-tools: Bash(node:*) Read\n---\nRun scripts/count.mjs on the file.\n',
    );
    writeFileSync(
      join(folder, 'scripts', 'count.mjs'),
      [
        "import { readFileSync } from 'node:fs';",
        "const text = readFileSync(process.argv[2], 'utf8');",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the script's own template literal
        'console.log(`words: ${text.split(/\\s+/).filter(Boolean).length}`);',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the script's own template literal
        "console.log(`script: ${new URL('.', import.meta.url).pathname}`);",
      ].join('\n'),
    );
    writeFileSync(join(work, 'notes.txt'), 'one two three');
    let command = '';
    fake.script(
      (req) => {
        // The model learns the folder from the prompt, as a real one would.
        const m = /This skill's folder is "([^"]+)"/.exec(req.body.messages[0].content);
        command = `node "${m?.[1]}/scripts/count.mjs" notes.txt`;
        return { kind: 'tools', calls: [{ name: 'shell', arguments: { command: 'ls -la' } }] };
      },
      () => ({ kind: 'tools', calls: [{ name: 'shell', arguments: { command } }] }),
      { kind: 'text', text: 'The file has 3 words.' },
    );
    const s = e.pty({
      args: ['run', 'word-count', 'notes.txt', 'count', 'the', 'words'],
      cols: 160,
      rows: 40,
    });
    await s.waitFor('Trust this skill and run it?', 15_000);
    const trusted = s.mark();
    s.write('y\r');
    // The approval comes after the run starts and shows the script's command.
    await s.waitFor(/Running word-count[\s\S]*count\.mjs[\s\S]*Allow\?/, 15_000, trusted);
    const from = trusted + s.text().slice(trusted).indexOf('Running word-count');
    s.write('y\r');
    await s.waitFor('The file has 3 words.', 15_000, from);
    expect((await s.exited()).exitCode).toBe(0);
    // `ls` was refused without a question: only one approval was asked.
    expect(
      s
        .text()
        .slice(from)
        .match(/Allow\?/g),
    ).toHaveLength(1);

    const chats = fake.requests.filter((r) => r.path.endsWith('/chat/completions'));
    expect(chats[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name).sort()).toEqual([
      'file_read',
      'read_reference',
      'shell',
    ]);
    expect(lastTool(chats[1]!)).toContain('may run only commands that start with node; "ls -la" does not');
    const ran = lastTool(chats[2]!);
    expect(ran).toContain('Exit code: 0');
    expect(ran).toContain('words: 3');
    expect(ran).toContain(`script: ${folder}/scripts/`);
  });

  it("in the chat, a loaded skill's allowed-tools refuse other tools for that message only; the next message is free again", async () => {
    mkdirSync(join(home, 'skills', 'reader'), { recursive: true });
    writeFileSync(
      join(home, 'skills', 'reader', 'SKILL.md'),
      '---\nname: reader\ndescription: Read files aloud\nallowed-tools: Read\n---\nRead the file the person names.\n',
    );
    const write = { name: 'file_write', arguments: { path: 'note.txt', content: 'hi' } };
    fake.script(
      { kind: 'tools', calls: [{ name: 'skill', arguments: { name: 'reader' } }] },
      { kind: 'tools', calls: [write] },
      { kind: 'text', text: 'The skill does not let me write.' },
      { kind: 'tools', calls: [write] },
      { kind: 'text', text: 'Written.' },
    );
    const s = e.pty({ cols: 120, rows: 40 });
    await s.waitFor(/\[(?:approve|确认)\]>/, 15_000);
    s.write('read my notes with the skill\r');
    await s.waitFor('The skill does not let me write.', 15_000);
    expect(s.text()).toContain(
      'The skill reader allows only these tools: file_read. file_write was not run.',
    );
    const next = s.mark();
    s.write('now write note.txt\r');
    // The limit ended with the last message: this write goes to the person, as any write does.
    await s.waitFor('Allow?', 15_000, next);
    s.write('y\r');
    await s.waitFor('Written.', 15_000, next);
    expect(s.text().slice(next)).not.toContain('allows only');
    s.write('\x04');
    await s.exited();
    const chats = fake.requests.filter((r) => r.path.endsWith('/chat/completions'));
    expect(lastTool(chats[2]!)).toContain('the skill "reader" you loaded allows only these tools: file_read');
    expect(lastTool(chats[4]!)).not.toContain('Refused');
  });
});
