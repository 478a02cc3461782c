/**
 * The REPL staples of peers, in a real terminal against the fake Zhipu server, English and
 * Chinese: the status line under the prompt (and /statusline off), !command (run by the shell
 * tool, output shown folded and added to the conversation), /copy (OSC 52 to the terminal and
 * the platform tool), Ctrl+X Ctrl+E and /editor ($EDITOR, else nano — never a bare vi), and the
 * Chinese input method's slash (、help, ／status).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { KEY, type PtySession, promptFor, screen } from '../helpers/pty.js';

const e = useE2E();
const { fake } = e;
let home: string;
/** The current folder: not zhi's home, which the shell sandbox hides. */
let work: string;
beforeEach(() => {
  ({ home, cwd: work } = e);
});

function open(
  o: { cols?: number; lang?: 'en' | 'zh'; env?: Record<string, string | undefined> } = {},
): PtySession {
  const s = e.pty({
    cols: o.cols ?? 100,
    rows: 30,
    env: { ZHI_LANGUAGE: o.lang ?? 'en', ZHI_STATUS_LINE: 'on', ...(o.env ?? {}) },
  });
  return s;
}

/** A script that stands in for a program on PATH, recording how it was called. */
function fakeProgram(dir: string, name: string, body: string): void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
}

const lastUser = () => fake.chatBodies().at(-1)?.messages.at(-1);

describe.each(['en', 'zh'] as const)('REPL staples (%s)', (lang) => {
  it('shows a status line under the prompt (model · mode · context · cost); /statusline off hides it', async () => {
    const s = open({ lang, cols: 60 });
    await s.waitFor(promptFor(lang));
    // The welcome line and the prompt name the mode in the person's language, as the status line does.
    if (lang === 'zh') {
      expect(s.text()).toMatch(/glm-5 · 确认模式 — /);
      expect(s.text()).not.toContain('approve');
    }
    const status =
      lang === 'zh' ? /glm-5 · 确认模式 · 上下文 \d+% · ¥0\.00/ : /glm-5 · approve · context \d+% · ¥0\.00/;
    await s.waitFor(status);
    expect(screen(s, 60).split('\n').at(-1)).toMatch(status);
    s.write('/statusline off');
    s.write(KEY.enter);
    await s.waitFor(lang === 'zh' ? '已关闭状态行' : 'Status line off');
    const m = s.mark();
    s.write('/help');
    s.write(KEY.enter);
    await s.waitFor('/statusline', 10_000, m);
    // The prompt comes back as the last line: no status line under it.
    await s.waitFor(lang === 'zh' ? /\n\s*zhi \[确认\]> $/ : /\n\s*zhi \[approve\]> $/, 10_000, m);
  });

  it('、help and ／status run the commands (a Chinese input method types 、 for /), nothing is sent', async () => {
    const s = open({ lang });
    await s.waitFor(promptFor(lang));
    s.write('、help');
    s.write(KEY.enter);
    await s.waitFor('/statusline');
    const m = s.mark();
    s.write('／status');
    s.write(KEY.enter);
    await s.waitFor(lang === 'zh' ? '模型' : 'Model', 10_000, m);
    await s.waitFor(promptFor(lang), 10_000, m);
    expect(fake.chatBodies()).toHaveLength(0);
  });

  it('!command runs without the model; output is shown folded and joins the conversation', async () => {
    writeFileSync(join(work, 'lines.txt'), Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n'));
    fake.script({ kind: 'text', text: 'Thirty lines.' });
    const s = open({ lang });
    await s.waitFor(promptFor(lang));
    s.write('!cat lines.txt');
    s.write(KEY.enter);
    await s.waitFor(lang === 'zh' ? '还有 18 行' : '18 more lines');
    const view = screen(s);
    expect(view).toContain('line 12');
    expect(view).not.toContain('line 13\n');
    expect(fake.chatBodies()).toHaveLength(0);
    const m = s.mark();
    s.write(lang === 'zh' ? '有几行？' : 'how many lines?');
    s.write(KEY.enter);
    await s.waitFor('Thirty lines.', 10_000, m);
    const messages = fake.chatBodies()[0].messages;
    const note = messages.at(-2);
    expect(note.role).toBe('user');
    expect(note.content).toContain('$ cat lines.txt');
    expect(note.content).toContain('line 30');
  });

  it('/copy sends the last answer to the terminal (OSC 52) and to the clipboard tool', async () => {
    const bin = join(home, 'bin');
    const clip = join(home, 'clipboard.txt');
    fakeProgram(bin, 'xclip', `cat > "${clip}"`);
    fake.script({ kind: 'text', text: '答案：**四十二**' });
    const s = open({
      lang,
      env: { DISPLAY: ':0', PATH: `${bin}:/usr/bin:/bin`, WAYLAND_DISPLAY: undefined },
    });
    await s.waitFor(promptFor(lang));
    s.write('/copy');
    s.write(KEY.enter);
    await s.waitFor(lang === 'zh' ? '还没有可以复制的回答' : 'no answer to copy yet');
    s.write('问题');
    s.write(KEY.enter);
    await s.waitFor('四十二');
    const m = s.mark();
    s.write('/copy');
    s.write(KEY.enter);
    await s.waitFor(lang === 'zh' ? '复制到剪贴板' : 'to the clipboard', 10_000, m);
    expect(readFileSync(clip, 'utf8')).toBe('答案：**四十二**');
    expect(s.raw()).toContain(`\x1b]52;c;${Buffer.from('答案：**四十二**').toString('base64')}\x07`);
  });

  it('Ctrl+X Ctrl+E edits the message in $EDITOR; Enter sends the edited text', async () => {
    const editor = join(home, 'bin', 'my-editor');
    fakeProgram(join(home, 'bin'), 'my-editor', 'printf "%s\\n第二行" "$(cat "$1") 改过" > "$1"');
    fake.script({ kind: 'text', text: 'OK' });
    const s = open({ lang, env: { EDITOR: editor, VISUAL: undefined } });
    await s.waitFor(promptFor(lang));
    s.write('草稿');
    s.write('\x18\x05');
    await s.waitFor(/草稿 改过\s*\n… 第二行/);
    s.write(KEY.enter);
    await s.waitFor('OK');
    expect(lastUser()).toEqual({ role: 'user', content: '草稿 改过\n第二行' });
  });
});

describe('an editor for someone who never chose one', () => {
  it('/editor opens nano when $EDITOR is not set, never vi', async () => {
    const bin = join(home, 'bin');
    const calls = join(home, 'calls.txt');
    fakeProgram(bin, 'vi', `echo vi >> "${calls}"`);
    fakeProgram(bin, 'nano', `echo nano >> "${calls}"; printf "写好的消息" > "$1"`);
    const s = open({
      lang: 'zh',
      env: { EDITOR: undefined, VISUAL: undefined, PATH: `${bin}:/usr/bin:/bin` },
    });
    await s.waitFor(promptFor('zh'));
    s.write('/editor');
    s.write(KEY.enter);
    await s.waitFor('你的文字已放回输入行');
    await s.waitFor(`${promptFor('zh')}写好的消息`);
    expect(readFileSync(calls, 'utf8')).toBe('nano\n');
  });

  it('zhi skill edit with no $EDITOR uses nano; quitting without changes copies nothing', async () => {
    const bin = join(home, 'bin');
    const calls = join(home, 'calls.txt');
    fakeProgram(bin, 'vi', `echo vi >> "${calls}"`);
    fakeProgram(bin, 'nano', `echo nano >> "${calls}"`);
    const s = e.pty({
      args: ['skill', 'edit', 'summarize'],
      env: { EDITOR: undefined, VISUAL: undefined, PATH: `${bin}:/usr/bin:/bin`, ZHI_LANGUAGE: 'en' },
    });
    await s.exited();
    expect(readFileSync(calls, 'utf8')).toBe('nano\n');
    expect(s.text()).not.toContain('Copied the built-in');
    expect(existsSync(join(home, 'skills', 'summarize.yaml'))).toBe(false);
  });
});

describe('the model runs a command', () => {
  it.each([
    'en',
    'zh',
  ] as const)('its output is shown to the person: the first lines, the rest folded (%s)', async (lang) => {
    fake.script(
      {
        kind: 'tools',
        calls: [{ name: 'shell', arguments: { command: 'seq 1 30' } }],
      },
      { kind: 'text', text: 'Thirty numbers.' },
    );
    const s = open({ lang });
    await s.waitFor(promptFor(lang));
    s.write('count to thirty');
    s.write(KEY.enter);
    await s.waitFor('[y/N]');
    s.write('y\r');
    await s.waitFor('Thirty numbers.');
    const view = screen(s);
    expect(view).toMatch(/^ +12$/m);
    expect(view).not.toMatch(/^ +13$/m);
    expect(view).toContain(lang === 'zh' ? '还有 18 行' : '18 more lines');
  });
});

describe('@path mentions', () => {
  it.each(['en', 'zh'] as const)('Tab completes after @ and the file is attached (%s)', async (lang) => {
    writeFileSync(join(work, 'Budget.txt'), 'total 42');
    fake.script({ kind: 'text', text: 'DONE' });
    const s = open({ lang });
    await s.waitFor(promptFor(lang));
    s.write('总结 @bud');
    s.write(KEY.tab);
    await s.waitFor('@Budget.txt');
    s.write(KEY.enter);
    await s.waitFor('DONE');
    expect(JSON.stringify(lastUser())).toContain('total 42');
  });
});
