/**
 * Skills in a real terminal: /run and /skill in the REPL (permission prompt, skill creation on
 * GLM-5 and the return to the previous model), the trust question of a user skill, `zhi skill
 * edit` with $EDITOR, and the `zhi skill new` conversation.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { KEY, type PtySession, screen } from '../helpers/pty.js';

const e = useE2E();
const { fake } = e;
let home: string;
let work: string;
beforeEach(() => {
  ({ home, cwd: work } = e);
});

function open(args: string[] = [], env: Record<string, string> = {}): PtySession {
  const s = e.pty({ args, cols: 120, rows: 40, env });
  return s;
}

const PROMPT = /zhi \[(approve|auto|确认|自动)\]> $/;
/** Type a line, and press Enter once the editor shows it, as a person would. */
async function line(s: PtySession, text: string): Promise<number> {
  const from = s.mark();
  s.write(text);
  await s.waitFor(text, 10_000, from);
  s.write('\r');
  return from;
}

const CREATE = {
  name: 'formal',
  description: 'Rewrite a note in a formal tone',
  system_prompt:
    'You rewrite the note in the user message in a formal tone. Final answer: the rewritten note only.',
  tools: ['file_read'],
  inputs: [{ name: 'file', type: 'file', required: true }],
};

describe('skills in the REPL', () => {
  it('/run draws the answer as Markdown like chat, and a follow-up message sees the result', async () => {
    writeFileSync(join(work, 'notes.txt'), 'We cut travel costs by 10%. Hotels are next.');
    fake.script(
      { kind: 'text', text: '## Summary\n\n- **Travel** costs cut by 10%\n- Hotels next' },
      { kind: 'text', text: 'Travel down 10%.' },
    );
    const s = open(['--auto']);
    await s.waitFor(PROMPT);
    let from = await line(s, '/run summarize notes.txt');
    await s.waitFor('Hotels next', 10_000, from);
    await s.waitFor(PROMPT, 10_000, from);
    const shown = s.text().slice(from);
    // Rendered, not raw: no Markdown markers on the screen, the bold drawn with an escape code.
    expect(shown).toContain('Summary');
    expect(shown).not.toContain('## Summary');
    expect(shown).not.toContain('**Travel**');
    expect(s.raw()).toMatch(/\x1b\[1m[^\x1b]*Travel/);
    from = await line(s, 'make that shorter');
    await s.waitFor('Travel down 10%.', 10_000, from);
    const followUp = fake.chatBodies()[1];
    const texts = followUp.messages.map((m: { content: string }) => String(m.content));
    expect(texts.some((c: string) => c.includes('/run summarize notes.txt'))).toBe(true);
    expect(texts.some((c: string) => c.includes('**Travel** costs cut by 10%'))).toBe(true);
    expect(followUp.messages.at(-1)).toEqual({ role: 'user', content: 'make that shorter' });
  });

  it('/run asks before file_write in approve mode, prints the answer, and /skill list shows the skills', async () => {
    writeFileSync(join(work, 'notes.txt'), 'We cut travel costs by 10%.');
    // The written file is summarize's answer: shown as the answer, no second call.
    fake.script(
      {
        kind: 'tools',
        calls: [
          {
            name: 'file_write',
            arguments: { path: 'notes-summary.md', content: 'Travel costs are cut by 10%.' },
          },
        ],
      },
      { kind: 'text', text: 'Nous réduisons les frais de voyage de 10 %.' },
    );
    const s = open();
    await s.waitFor(PROMPT);
    let from = await line(s, '/run summarize notes.txt');
    await s.waitFor('Allow?', 10_000, from);
    expect(s.text().slice(from)).toContain('file_write');
    s.write('y\r');
    await s.waitFor('Travel costs are cut by 10%.', 10_000, from);
    await s.waitFor(PROMPT, 10_000, from);
    expect(readFileSync(join(work, 'zhi-output', 'notes-summary.md'), 'utf8')).toBe(
      'Travel costs are cut by 10%.\n',
    );
    expect(fake.chatBodies()).toHaveLength(1);
    expect(fake.chatBodies()[0].model).toBe('glm-4-flash');

    // Tab completes skill names after /run, then file names.
    from = s.mark();
    s.write('/run transl');
    await s.waitFor('/run transl', 10_000, from);
    s.write(KEY.tab);
    await s.waitFor('/run translate', 10_000, from);
    s.write(' no');
    await s.waitFor(/translate\s*no/, 10_000, from);
    s.write(KEY.tab);
    await s.waitFor('notes.txt', 10_000, from);
    s.write('\r');
    await s.waitFor('Running translate', 10_000, from);
    await s.waitFor(PROMPT, 10_000, from);
    expect(s.text().slice(from)).toContain('/run translate notes.txt');

    from = await line(s, '/skill list');
    await s.waitFor('invoice-to-excel', 10_000, from);
    expect(s.text().slice(from)).toMatch(/summarize\s+Summarize a document/);
    s.write(KEY.ctrlD);
    expect((await s.exited()).exitCode).toBe(0);
  });

  it('/skill new talks to the start model (--model, else default_model) with the template, saves the skill, returns to the previous model; the skill runs at once', async () => {
    writeFileSync(join(work, 'note.txt'), 'hey, meeting moved to 3pm');
    // The same choice as `zhi skill new`: --model beats default_model (GLM-5).
    const s = open(['--model', 'glm-4.7']);
    await s.waitFor(PROMPT);
    let from = await line(s, '/model glm-4.7-flash');
    await s.waitFor(PROMPT, 10_000, from);

    fake.script(
      { kind: 'tools', calls: [{ name: 'skill_create', arguments: CREATE }] },
      { kind: 'text', text: 'Saved. Run it with /run formal note.txt' },
    );
    from = await line(s, '/skill new file-process rewrite notes formally');
    await s.waitFor('Allow?', 10_000, from);
    expect(s.text().slice(from)).toContain('New skill formal:');
    expect(s.text().slice(from)).toContain('system_prompt: |');
    s.write('y\r');
    await s.waitFor('Saved formal. Back to glm-4.7-flash.', 10_000, from);
    await s.waitFor(PROMPT, 10_000, from);
    const [seed] = fake.chatBodies();
    expect(seed.model).toBe('glm-4.7');
    expect(seed.thinking).toEqual({ type: 'enabled' });
    expect(seed.messages.at(-1).content).toContain('Start from the "file-process" template');
    expect(seed.messages.at(-1).content).toContain('What it should do: rewrite notes formally');
    expect(existsSync(join(home, 'skills', 'formal.yaml'))).toBe(true);

    fake.script({ kind: 'text', text: 'The meeting has been moved to 3 p.m.' });
    from = await line(s, '/run formal note.txt');
    await s.waitFor('The meeting has been moved to 3 p.m.', 10_000, from);
    await s.waitFor(PROMPT, 10_000, from);
    expect(fake.chatBodies().at(-1).messages[0].content).toMatch(/^You rewrite the note/);

    fake.script({ kind: 'text', text: 'hello back' });
    from = await line(s, 'hello');
    await s.waitFor('hello back', 10_000, from);
    expect(fake.chatBodies().at(-1).model).toBe('glm-4.7-flash');
    s.write(KEY.ctrlD);
    await s.exited();
  });
});

describe('skills from the command line in a terminal', () => {
  it('asks to trust a user skill that writes files, once per version of the file', async () => {
    mkdirSync(join(home, 'skills'));
    writeFileSync(
      join(home, 'skills', 'writer.yaml'),
      'name: writer\ndescription: Writes notes\nsystem_prompt: You write a note.\ntools: [file_write]\n',
    );
    fake.script({ kind: 'text', text: 'nothing to write' });
    const s = open(['run', 'writer']);
    await s.waitFor('Trust this skill and run it?');
    expect(s.text()).toContain('First run of your skill writer');
    expect(s.text()).toContain('You write a note.');
    s.write('y\r');
    await s.waitFor('nothing to write');
    expect((await s.exited()).exitCode).toBe(0);
    const trusted = JSON.parse(readFileSync(join(home, 'trusted-skills.json'), 'utf8'));
    expect(Object.keys(trusted.skills)).toEqual(['writer']);

    fake.script({ kind: 'text', text: 'again' });
    const again = open(['run', 'writer']);
    await again.waitFor('again');
    expect(again.text()).not.toContain('Trust this skill');
    expect((await again.exited()).exitCode).toBe(0);
  });

  it('Ctrl+C stops a skill run (exit 130) and keeps nothing half-written', async () => {
    writeFileSync(join(work, 'a.txt'), 'text');
    fake.script({ kind: 'hang', text: 'partial' });
    const s = open(['run', 'summarize', 'a.txt']);
    await s.waitFor('Running summarize');
    // Ctrl+C while the answer is on its way: the request has reached the API.
    await vi.waitFor(() => expect(fake.chatBodies()).toHaveLength(1), { timeout: 10_000 });
    s.write(KEY.ctrlC);
    expect((await s.exited()).exitCode).toBe(130);
    expect(existsSync(join(work, 'zhi-output'))).toBe(false);
  });

  it('zhi skill edit copies a built-in to the user folder and opens $EDITOR', async () => {
    const editor = join(work, 'fake-editor.sh');
    writeFileSync(editor, '#!/bin/sh\nsed -i "s/^max_turns: 6$/max_turns: 9/" "$1"\n');
    chmodSync(editor, 0o755);
    const s = open(['skill', 'edit', 'summarize'], { EDITOR: editor });
    await s.waitFor('Saved summarize');
    expect((await s.exited()).exitCode).toBe(0);
    expect(s.text()).toContain('Copied the built-in summarize');
    const copy = join(home, 'skills', 'summarize.yaml');
    expect(readFileSync(copy, 'utf8')).toContain('max_turns: 9');
    const trusted = JSON.parse(readFileSync(join(home, 'trusted-skills.json'), 'utf8'));
    expect(Object.keys(trusted.skills)).toEqual(['summarize']);
  });

  it('zhi skill new: pick a template, describe the skill, GLM-5 saves it, and it runs at once', async () => {
    writeFileSync(join(work, 'note.txt'), 'meeting moved');
    fake.script(
      { kind: 'tools', calls: [{ name: 'skill_create', arguments: CREATE }] },
      { kind: 'text', text: 'Saved the skill formal.' },
      { kind: 'text', text: 'The meeting has been rescheduled.' },
    );
    const s = open(['skill', 'new', '--auto']);
    await s.waitFor('Start from which template?');
    const listed = s.mark();
    s.write('\x1b[B'); // file-process
    await s.until(() => s.mark() > listed, 'the list to move to file-process');
    s.write('\r');
    await s.waitFor('What should the skill do?');
    s.write('rewrite notes formally\r');
    await s.waitFor('Saved the skill formal (');
    await s.waitFor('Run formal now?');
    s.write('note.txt\r');
    await s.waitFor('The meeting has been rescheduled.');
    expect((await s.exited()).exitCode).toBe(0);
    const [seed, , run] = fake.chatBodies();
    expect(seed.model).toBe('glm-5');
    expect(seed.messages.at(-1).content).toContain('Start from the "file-process" template');
    expect(seed.messages.at(-1).content).toContain('What it should do: rewrite notes formally');
    expect((seed.tools as { function: { name: string } }[]).map((t) => t.function.name).sort()).toEqual([
      'file_list',
      'file_read',
      'skill_create',
    ]);
    expect(run.model).toBe('glm-4-flash');
    expect(run.messages[1].content).toContain('<document name="note.txt">');
  });
});

describe('zhi run --dry-run in a terminal', () => {
  it.each([
    ['en', 'Would process 2 of 2 files', 'Nothing was sent'],
    ['zh', '将用 summarize', '未发送任何请求'],
  ])('shows the estimate on the screen, with no closing "Done" line (%s)', async (lang, head, tail) => {
    mkdirSync(join(work, 'docs'));
    writeFileSync(join(work, 'docs', 'a.txt'), 'First document.');
    writeFileSync(join(work, 'docs', 'b.txt'), 'Second document.');
    const s = open(['run', 'summarize', 'docs', '--dry-run'], { ZHI_LANGUAGE: lang });
    expect((await s.exited()).exitCode).toBe(0);
    const shown = screen(s, 120);
    expect(shown).toContain(head);
    expect(shown).toContain('docs/a.txt');
    expect(shown).toContain(tail);
    expect(shown).not.toMatch(/Done:|完成：/);
    expect(fake.chatBodies()).toHaveLength(0);
  });
});
