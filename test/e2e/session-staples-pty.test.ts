/**
 * Session staples in a real terminal against the fake Zhipu server, English and Chinese:
 * "always allow" a shell command prefix for the session (a second matching call runs unasked,
 * a different one is asked; /status lists the grant).
 */
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { makePng } from '../helpers/media.js';
import { KEY, type PtySession, promptFor } from '../helpers/pty.js';
import { VirtualTerminal } from '../helpers/vt.js';

const e = useE2E();
const { fake } = e;
let work: string;
beforeEach(() => {
  work = e.cwd;
});

function open(lang: 'en' | 'zh', env: Record<string, string | undefined> = {}): PtySession {
  return e.pty({ cols: 140, rows: 40, env: { ZHI_LANGUAGE: lang, ...env } });
}

async function send(s: PtySession, text: string): Promise<number> {
  const from = s.mark();
  s.write(text);
  await s.waitFor(text, 10_000, from);
  s.write(KEY.enter);
  return from;
}

const shellCall = (command: string) => ({
  kind: 'tools' as const,
  calls: [{ name: 'shell', arguments: { command } }],
});
const toolResults = () =>
  (fake.chatBodies().at(-1)?.messages ?? [])
    .filter((m: { role: string }) => m.role === 'tool')
    .map((m: { content: string }) => m.content);

describe.each(['en', 'zh'] as const)('always allow a shell command prefix (%s)', (lang) => {
  it('in a narrow window the question stays one short line, drawn once while the answer is typed', async () => {
    fake.script(shellCall('ls -a'), { kind: 'text', text: 'Listed.' });
    const s = e.pty({ cols: 60, rows: 30, env: { ZHI_LANGUAGE: lang } });
    await s.waitFor(promptFor(lang), 15_000);
    const from = await send(s, 'list the folder');
    const question = lang === 'en' ? 'Allow? [y/N]' : '允许吗？[y/N]';
    await s.waitFor(question, 15_000, from);
    s.write('a');
    await s.until(() => s.raw().endsWith('a') || s.raw().trimEnd().endsWith('a'), 'the typed answer');
    const vt = new VirtualTerminal(60);
    vt.write(s.raw());
    const screen = vt.text();
    // The extra answers are on their own lines above; the question is drawn once, not per key.
    expect(screen.split(question)).toHaveLength(2);
    expect(screen).toContain(lang === 'en' ? 'Other answers:' : '也可以回答：');
    s.write('\r');
    await s.waitFor('Listed.', 20_000, from);
  });

  it('"a" allows `ls` for the session: the next ls runs unasked, ls of another place is asked', async () => {
    writeFileSync(join(work, 'marker-one.txt'), 'x');
    fake.script(shellCall('ls -a'), shellCall('ls -l'), shellCall('ls -l /etc'), {
      kind: 'text',
      text: 'Listed twice.',
    });
    const s = open(lang);
    await s.waitFor(promptFor(lang), 15_000);
    const from = await send(s, 'list the folder');
    const question = lang === 'en' ? 'Allow?' : '允许吗？';
    await s.waitFor(question, 15_000, from);
    // The choices wrap at words to the window: compared without the line breaks and spaces.
    const squeeze = (x: string) => x.replace(/\x1b\[[0-9;]*m/g, '').replace(/\s+/g, '');
    const asked = squeeze(s.text().slice(from));
    expect(asked).toContain(
      squeeze(
        lang === 'en'
          ? 'a = always allow `ls` this session (other options, the same files)'
          : 'a = 本次会话中总是允许 `ls`（选项可以不同，文件必须相同）',
      ),
    );
    s.write('a\r');
    // The second ls runs without a question; ls of another folder is asked (issue 37).
    await s.waitFor(new RegExp(`${question}[\\s\\S]*${question}`), 20_000, from);
    const between = s.text().slice(from).split(question)[1]!;
    expect(between).toContain('ls -l');
    expect(between).toContain('ls -l /etc');
    s.write('n\r');
    await s.waitFor('Listed twice.', 20_000, from);
    await s.waitFor(promptFor(lang), 10_000, from);
    const results = toolResults();
    expect(results.some((r: string) => r.includes('marker-one.txt') && r.includes('Exit code: 0'))).toBe(
      true,
    );
    expect(results.filter((r: string) => r.includes('Exit code: 0'))).toHaveLength(2);

    const at = await send(s, '/status');
    await s.waitFor(lang === 'en' ? 'Allowed this session:' : '本次会话已允许：', 10_000, at);
    await s.waitFor(lang === 'en' ? 'ls [options]' : 'ls [选项]', 10_000, at);
  });

  it('is not offered for a line with `;`, and a granted prefix does not cover `ls; …`', async () => {
    fake.script(shellCall('ls'), shellCall('ls; echo sneaky'), { kind: 'text', text: 'Done.' });
    const s = open(lang);
    await s.waitFor(promptFor(lang), 15_000);
    const from = await send(s, 'list');
    const question = lang === 'en' ? 'Allow?' : '允许吗？';
    await s.waitFor(question, 15_000, from);
    s.write('a\r');
    await s.waitFor(new RegExp(`${question}[\\s\\S]*${question}`), 20_000, from);
    const [, before, second] = s.text().slice(from).split(question);
    expect(before).toContain('ls; echo sneaky');
    expect(second).not.toMatch(/a = /);
    s.write('n\r');
    await s.waitFor('Done.', 20_000, from);
  });
});

describe.each(['en', 'zh'] as const)('Esc stops the answer like Ctrl+C (%s)', (lang) => {
  const interrupted = (l: 'en' | 'zh') => (l === 'en' ? 'Interrupted.' : '已中断。');

  it('while the answer streams and while a tool runs; Esc at the prompt does nothing, arrows still work', async () => {
    fake.script(
      { kind: 'text', text: `Counting: ${'one two three four '.repeat(60)}`, chunk: 4, delayMs: 40 },
      shellCall('sleep 30'),
      { kind: 'text', text: 'Not reached.' },
    );
    const s = open(lang);
    await s.waitFor(promptFor(lang), 15_000);
    let from = await send(s, 'count slowly');
    await s.waitFor('Counting: one two', 15_000, from);
    s.write('\x1b');
    await s.waitFor(interrupted(lang), 10_000, from);
    await s.waitFor(promptFor(lang), 10_000, from);
    // Stopped early: the whole answer never arrived.
    expect(s.text().slice(from).split('four').length).toBeLessThan(50);

    from = await send(s, 'now wait');
    const question = lang === 'en' ? 'Allow?' : '允许吗？';
    await s.waitFor(question, 15_000, from);
    s.write('y\r');
    await s.waitFor('sleep 30', 10_000, from);
    await new Promise((r) => setTimeout(r, 500));
    s.write('\x1b');
    await s.waitFor(interrupted(lang), 10_000, from);
    await s.waitFor(promptFor(lang), 10_000, from);
    expect(s.text().slice(from)).not.toContain('Not reached.');

    // At the prompt: Esc twice leaves zhi running and the draft intact; Up still recalls history.
    from = s.mark();
    s.write('draft');
    await s.waitFor('draft', 5_000, from);
    s.write('\x1b');
    await new Promise((r) => setTimeout(r, 700));
    s.write('\x1b');
    await new Promise((r) => setTimeout(r, 700));
    s.write(' kept');
    await s.waitFor('draft kept', 5_000, from);
    // Clear the line (Ctrl+U), then Up brings back the last message sent.
    s.write('\x15');
    s.write(KEY.up);
    await s.waitFor('now wait', 5_000, from);
  });
});

describe.each(['en', 'zh'] as const)('the exit line says how to resume (%s)', (lang) => {
  it('names `zhi --resume <id>` after a conversation, and that command continues it; nothing after an empty session', async () => {
    fake.script({ kind: 'text', text: 'First answer.' });
    const s = open(lang);
    await s.waitFor(promptFor(lang), 15_000);
    const from = await send(s, 'a first question');
    await s.waitFor('First answer.', 15_000, from);
    await s.waitFor(promptFor(lang), 10_000, from);
    s.write(KEY.ctrlD);
    await s.exited();
    // As this zhi was started (no `zhi` on the test's PATH: `node …/dist/zhi.js`).
    const said = lang === 'en' ? 'To continue this conversation later: ' : '之后要继续这段对话：';
    const line = s
      .text()
      .split('\n')
      .find((l) => l.includes(said));
    expect(line, s.text().slice(-500)).toBeDefined();
    const command = line!.slice(line!.indexOf(said) + said.length).trim();
    expect(command).toMatch(/^node \S*zhi\.js --resume \S+$/);
    const id = command.split(' --resume ')[1]!;

    fake.script({ kind: 'text', text: 'Second answer.' });
    const r = await e.zhi(['--resume', id, '-c', 'and a second one']);
    expect(r.code, r.stderr).toBe(0);
    expect(fake.chatBodies().at(-1).messages.slice(1, 3)).toEqual([
      { role: 'user', content: 'a first question' },
      { role: 'assistant', content: 'First answer.' },
    ]);

    const empty = open(lang);
    await empty.waitFor(promptFor(lang), 15_000);
    empty.write(KEY.ctrlD);
    await empty.exited();
    expect(empty.text()).not.toContain('zhi --resume');
  });
});

/** A stand-in for xclip: prints the PNG at $FAKE_CLIP (when the clipboard "holds" one), records its arguments. */
function fakeXclip(dir: string): string {
  const bin = join(dir, 'fake-bin');
  mkdirSync(bin, { recursive: true });
  const file = join(bin, 'xclip');
  writeFileSync(
    file,
    [
      '#!/bin/sh',
      'echo "$@" >> "$FAKE_CLIP_LOG"',
      'if [ -f "$FAKE_CLIP" ]; then cat "$FAKE_CLIP"; exit 0; fi',
      'echo "Error: target image/png not available" >&2',
      'exit 1',
    ].join('\n'),
  );
  chmodSync(file, 0o755);
  return bin;
}

describe.each(['en', 'zh'] as const)('Ctrl+V and /paste attach the clipboard image (%s)', (lang) => {
  it('reads it with xclip, sends it to the vision model with the next message; says so when there is no image or no tool', async () => {
    const bin = fakeXclip(e.home);
    const png = join(e.home, 'clip.png');
    const log = join(e.home, 'clip.log');
    const tmp = join(e.home, 'tmp');
    mkdirSync(tmp);
    const env = {
      DISPLAY: ':99',
      PATH: `${bin}:${process.env.PATH}`,
      TMPDIR: tmp,
      FAKE_CLIP: png,
      FAKE_CLIP_LOG: log,
    };
    fake.script({ kind: 'text', text: 'A red square.' });
    const s = open(lang, env);
    await s.waitFor(promptFor(lang), 15_000);

    // Nothing on the clipboard yet: a clear line, nothing attached.
    let from = await send(s, '/paste');
    await s.waitFor(lang === 'en' ? 'The clipboard holds no image' : '剪贴板里没有图片', 10_000, from);

    writeFileSync(png, makePng(4, 4));
    from = s.mark();
    s.write('what is th');
    await s.waitFor('what is th', 5_000, from);
    s.write('\x16');
    await s.waitFor(lang === 'en' ? 'Attached image clipboard image' : '已附上图片 剪贴板图片', 10_000, from);
    // The draft is back on the prompt; finish it and send.
    s.write('is?');
    await s.waitFor('what is this?', 5_000, from);
    s.write(KEY.enter);
    await s.waitFor('A red square.', 15_000, from);
    const body = fake.chatBodies().at(-1);
    const parts = body.messages.at(-1).content;
    expect(parts[0]).toEqual({ type: 'text', text: 'what is this?' });
    expect(parts[1].image_url.url).toMatch(/^data:image\/png;base64,/);
    expect(body.model).toMatch(/v/);
    // The temp file is gone once read.
    expect(readFileSync(log, 'utf8')).toContain('-selection clipboard -t image/png -o');
    expect(readdirSync(tmp).filter((f) => f.startsWith('zhi-clipboard-'))).toEqual([]);

    s.write(KEY.ctrlD);
    await s.exited();
    // No clipboard tool at all: says what to install.
    const none = open(lang, { DISPLAY: ':99', PATH: '/nonexistent', WAYLAND_DISPLAY: undefined });
    await none.waitFor(promptFor(lang), 15_000);
    const at = await send(none, '/paste');
    await none.waitFor(
      lang === 'en' ? 'no clipboard tool was found. Install xclip' : '没有找到剪贴板工具。请安装 xclip',
      10_000,
      at,
    );
  });
});
