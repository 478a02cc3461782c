/**
 * Issue 30, a newcomer's first hour in the REPL, in English and Chinese at 60 and 100 columns:
 * a failed command is never shown with ✓, `!rm` kept from writing by the sandbox says so and
 * offers what the model's approval offers (w), and `!echo` leaves no empty output folder.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxState } from '../../src/tools/shell/sandbox.js';
import { useE2E } from '../helpers/e2e.js';
import { KEY, promptFor, screen, waitScreen } from '../helpers/pty.js';

const e = useE2E();
const { fake } = e;

const sandboxed = process.platform === 'linux' && sandboxState().kind === 'bwrap';
if (process.platform === 'linux' && !sandboxed)
  console.warn('[skip] sandbox parts of first-hour-pty: bubblewrap missing or unusable here');
/** The system's own messages in Chinese (coreutils' and the C library's): a locale and its translations. */
const chineseSystem =
  sandboxed &&
  /^zh_CN\.utf-?8$/im.test(spawnSync('locale', ['-a'], { encoding: 'utf8' }).stdout ?? '') &&
  existsSync('/usr/share/locale/zh_CN/LC_MESSAGES/libc.mo');
if (sandboxed && !chineseSystem)
  console.warn(
    '[skip] !rm with Chinese system messages: locale zh_CN.UTF-8 or its translations (libc-l10n) missing',
  );

describe('the system speaking Chinese', () => {
  it.runIf(chineseSystem)(
    '!rm blocked by the sandbox is explained and offered again, whatever language rm speaks',
    async () => {
      writeFileSync(join(e.cwd, 'notes.txt'), 'x');
      const s = e.pty({
        cols: 100,
        rows: 40,
        env: { ZHI_LANGUAGE: 'zh', LANG: 'zh_CN.UTF-8', LANGUAGE: 'zh_CN', LC_ALL: 'zh_CN.UTF-8' },
      });
      await s.waitFor(promptFor('zh'));
      s.write('!rm notes.txt');
      s.write(KEY.enter);
      await s.waitFor('[y/N]');
      s.write('y');
      s.write(KEY.enter);
      const offer = '允许它写入当前文件夹并再运行一次吗';
      const view = await waitScreen(s, 100, (v) => v.replace(/\n/g, '').includes(offer), 'the offer');
      // rm said it in Chinese; zhi recognised the cause, not the words.
      expect(view).toContain('只读文件系统');
      expect(view.replace(/\n/g, '')).toContain('命令在沙盒中运行');
      s.write('y');
      s.write(KEY.enter);
      await s.until(() => !existsSync(join(e.cwd, 'notes.txt')), 'notes.txt removed');
    },
  );
});

describe.each([
  [60, 'en'],
  [100, 'en'],
  [60, 'zh'],
  [100, 'zh'],
] as const)('at %i columns (%s)', (cols, lang) => {
  const open = () => e.pty({ cols, rows: 40, env: { ZHI_LANGUAGE: lang } });
  const allow = lang === 'zh' ? '允许吗' : 'Allow?';

  it('a command that fails is shown with ✗ and its exit code, never ✓', async () => {
    fake.script(
      { kind: 'tools', calls: [{ name: 'shell', arguments: { command: 'ls nosuch-file' } }] },
      { kind: 'text', text: 'It is not there.' },
    );
    const s = open();
    await s.waitFor(promptFor(lang));
    s.write('list nosuch-file');
    s.write(KEY.enter);
    await s.waitFor(allow);
    s.write('y');
    s.write(KEY.enter);
    await s.waitFor('It is not there.');
    const view = await waitScreen(
      s,
      cols,
      (v) => /(Run|运行) .*[✓✗]/.test(v.replace(/\n/g, '')),
      'the tool line',
    );
    const line = view.split('\n').find((l) => /(Run|运行) .*…/.test(l)) ?? '';
    expect(line).toContain('✗');
    expect(view).not.toMatch(/ls nosuch-file … ✓/);
    expect(view.replace(/\n/g, '')).toMatch(lang === 'zh' ? /命令以退出码 2 结束/ : /Exit code: 2/);
    // What the command printed is still shown.
    expect(view).toMatch(/No such file or directory|cannot access/);
  });

  it.runIf(sandboxed)('!rm in the sandbox says why it failed and offers to allow this folder', async () => {
    writeFileSync(join(e.cwd, 'notes.txt'), 'x');
    const s = open();
    await s.waitFor(promptFor(lang));
    s.write('!rm notes.txt');
    s.write(KEY.enter);
    await s.waitFor('[y/N]');
    s.write('y');
    s.write(KEY.enter);
    const offer =
      lang === 'zh' ? '允许它写入当前文件夹并再运行一次吗' : 'Run it again, allowed to write in this folder?';
    const view = await waitScreen(s, cols, (v) => v.replace(/\n/g, '').includes(offer), 'the offer');
    expect(view.replace(/\n/g, '')).toContain(
      lang === 'zh' ? '命令在沙盒中运行' : 'The command ran in the sandbox',
    );
    expect(existsSync(join(e.cwd, 'notes.txt'))).toBe(true);
    s.write('y');
    s.write(KEY.enter);
    await s.until(() => !existsSync(join(e.cwd, 'notes.txt')), 'notes.txt removed');
  });

  it("an approval names a built-in tool by what it does, in the person's language", async () => {
    fake.script(
      { kind: 'tools', calls: [{ name: 'shell', arguments: { command: 'echo hi' } }] },
      { kind: 'text', text: 'Done here.' },
    );
    const s = open();
    await s.waitFor(promptFor(lang));
    s.write('say hi');
    s.write(KEY.enter);
    await s.waitFor(allow);
    const view = screen(s, cols).replace(/\n/g, '');
    expect(view).toContain(
      lang === 'zh' ? 'zhi 想要运行命令 (shell)：' : 'zhi wants to run a command (shell):',
    );
    s.write('n');
    s.write(KEY.enter);
    await s.waitFor('Done here.');
  });

  it('!echo leaves no empty output folder behind', async () => {
    const s = open();
    await s.waitFor(promptFor(lang));
    s.write('!echo hi-there');
    s.write(KEY.enter);
    await waitScreen(s, cols, (v) => /^hi-there/m.test(v), 'the output');
    await s.waitFor(lang === 'zh' ? '输出已加入对话' : 'The output was added');
    expect(existsSync(join(e.cwd, 'zhi-output'))).toBe(false);
  });
});
