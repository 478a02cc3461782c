/**
 * Issue 30, the REPL's rendering in English and Chinese at 60 and 100 columns: no word is cut in
 * two by the terminal (the banner, /help, /model, /sessions), /resume previews plain words, an MCP
 * tool is named once and readably (its approval and its tool line), /editor offers an editor that
 * is installed, /undo after `!rm notes.txt` shows that command and /status says the mode in words.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textWidth } from '../../src/support/width.js';
import { useE2E } from '../helpers/e2e.js';
import { FS_SERVER } from '../helpers/mcp.js';
import { KEY, type PtySession, promptFor, screen, submit, waitScreen } from '../helpers/pty.js';

const e = useE2E();
const { fake } = e;

/** Send a command and wait until the prompt is back after it. */
function command(s: PtySession, lang: 'en' | 'zh', text: string): Promise<string> {
  return submit(s, text, promptFor(lang));
}

/**
 * The screen lines that the terminal itself broke: a line that fills every column and whose
 * next line goes on with a letter or digit — a word cut in two. zhi wraps one column short.
 */
function cutWords(view: string, cols: number): string[] {
  const lines = view.split('\n');
  return lines.filter(
    (l, i) => textWidth(l) >= cols && /[\w¥.+]$/.test(l) && /^[\w¥.+/]/.test(lines[i + 1] ?? ''),
  );
}

describe.each([
  [60, 'en'],
  [100, 'en'],
  [60, 'zh'],
  [100, 'zh'],
] as const)('at %i columns (%s)', (cols, lang) => {
  const open = (env: Record<string, string> = {}) =>
    e.pty({ cols, rows: 50, env: { ZHI_LANGUAGE: lang, ...env } });

  it('the banner, /help, /model and /sessions never cut a word', async () => {
    // Two saved conversations for /sessions, their titles longer than the window.
    for (const n of [1, 2]) {
      const s = open();
      await s.waitFor(promptFor(lang));
      await command(
        s,
        lang,
        `${lang === 'zh' ? '请用一个表格介绍几种常见的文件格式，越详细越好' : 'Please compare a few common file formats in a table'} ${n}`,
      );
      s.write('/exit\r');
      await s.exited(15_000);
    }
    const s = open();
    await s.waitFor(promptFor(lang));
    await command(s, lang, '/help');
    await command(s, lang, '/model');
    await command(s, lang, '/sessions');
    const view = screen(s, cols);
    expect(cutWords(view, cols)).toEqual([]);
    expect(view).toContain('Ctrl+D');
    // Every model id and price is whole on a line.
    expect(view).toMatch(/glm-4-air-250414 +≈¥0\.50\/¥0\.50/);
    expect(view).toMatch(/glm-4\.5-x +≈¥15\.84\/¥64\.08/);
    // The session table's header and costs are whole.
    expect(view).toMatch(lang === 'zh' ? /ID +.*费用/ : /ID +.*COST/);
    expect(view).toMatch(/^1\. +20\d{6}-\d{6}-\w{4} .*¥0\.\d{4}/m);
    // /help: a long synopsis wraps at its words; the keys are a two-column list.
    expect(view).toMatch(/\/skill list \| show <name>/);
    expect(view).toMatch(/^ {2}Ctrl\+R +(search the history|搜索历史记录)$/m);
  });

  it('/resume previews the last answer as one line of plain words', async () => {
    fake.script({
      kind: 'text',
      text: '## Three file formats\n\n| Format | Good for |\n|:--|--:|\n| Word | **long** text |\n\nUse `docx` to edit.',
    });
    const first = open();
    await first.waitFor(promptFor(lang));
    await command(first, lang, lang === 'zh' ? '请用表格比较文件格式' : 'Compare file formats in a table');
    first.write('/exit\r');
    await first.exited(15_000);
    const s = open();
    await s.waitFor(promptFor(lang));
    await command(s, lang, '/resume 1');
    const view = screen(s, cols);
    const preview = view.split('\n').find((l) => l.startsWith('  zhi: '));
    expect(preview, view).toBeDefined();
    expect(textWidth(preview!)).toBeLessThanOrEqual(cols);
    expect(preview).not.toMatch(/##|\*\*|\|:?-{3}|\| /);
    expect(preview).toContain('zhi: Three file formats Format · Good for');
  });

  it('an MCP tool is named once, readably, in its approval and its tool line', async () => {
    writeFileSync(join(e.cwd, 'a.txt'), 'a');
    writeFileSync(
      join(e.home, 'config.yaml'),
      [
        'mcp_servers:',
        '  files:',
        '    command: node',
        `    args: [${JSON.stringify(FS_SERVER)}, ${JSON.stringify(e.cwd)}]`,
      ].join('\n'),
      { mode: 0o600 },
    );
    fake.script(
      { kind: 'tools', calls: [{ name: 'files__list_directory', arguments: { path: e.cwd } }] },
      { kind: 'text', text: 'Listed.' },
    );
    const s = open();
    await s.waitFor(promptFor(lang), 15_000);
    s.write('list this folder');
    s.write(KEY.enter);
    await s.waitFor(lang === 'zh' ? '允许吗' : 'Allow?', 20_000);
    s.write('y');
    s.write(KEY.enter);
    await s.waitFor('Listed.', 20_000);
    // The tool line and the closing line with its cost (drawn after the answer's last words).
    const view = await waitScreen(
      s,
      cols,
      (v) => /list_directory.*[✓✗]/.test(v) && /¥0\.\d{4}/.test(v),
      'the tool line and the closing line',
    );
    expect(view).not.toContain('files__list_directory');
    const line = view.split('\n').find((l) => /list_directory.*[✓✗]/.test(l))!;
    expect(line).toMatch(/\[1\/1\] files: list_directory \S.* … ✓/);
    expect(line.match(/list_directory/g)).toHaveLength(1);
    // The closing line wraps at its words too: its cost is whole on one line.
    expect(cutWords(view, cols)).toEqual([]);
    expect(view).toMatch(/¥0\.\d{4}/);
  });

  it("/editor without nano offers the editor that is installed, in the person's words", async () => {
    const bin = join(e.home, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'emacs'), '#!/bin/sh\nexit 1\n');
    chmodSync(join(bin, 'emacs'), 0o755);
    const s = open({ PATH: bin });
    await s.waitFor(promptFor(lang));
    await command(s, lang, '/editor');
    const view = screen(s, cols).replace(/\n\s*/g, ' ');
    expect(view).toContain('export EDITOR=emacs');
    expect(view).not.toContain('nano');
    expect(view).toContain(lang === 'zh' ? '已安装的编辑器' : 'editor installed here');
  });

  it('/undo after !rm notes.txt shows that command; /status says the mode in words', async () => {
    writeFileSync(join(e.cwd, 'notes.txt'), 'x');
    const s = open();
    await s.waitFor(promptFor(lang));
    s.write('!rm notes.txt');
    s.write(KEY.enter);
    await s.waitFor('[y/N]');
    s.write('y');
    s.write(KEY.enter);
    // In the sandbox the removal fails and zhi offers to run it again: say no.
    const again =
      lang === 'zh' ? '允许它写入当前文件夹并再运行一次吗' : 'Run it again, allowed to write in this folder?';
    await s.until(
      () => s.text().includes(again) || s.text().split(promptFor(lang)).length > 2,
      'the command to finish',
      20_000,
    );
    if (s.text().includes(again)) {
      s.write('n');
      s.write(KEY.enter);
      await s.until(() => s.text().split(promptFor(lang)).length > 2, 'the prompt', 20_000);
    }
    const undo = await command(s, lang, '/undo');
    expect(undo).toContain('!rm notes.txt');
    expect(undo).not.toContain('I ran this command');
    expect(undo).not.toContain('我自己在 shell');
    const status = await command(s, lang, '/status');
    expect(status).toMatch(lang === 'zh' ? /权限：\s+确认/ : /Permissions:\s+approve/);
    expect(lang === 'zh' ? status : '').not.toMatch(/权限：\s+approve/);
  });
});

describe.each([
  [60, 'en'],
  [100, 'zh'],
] as const)('zhi run at %i columns (%s)', (cols, lang) => {
  const MD =
    '## Three file formats\n\n| Format | Good for |\n|:--|--:|\n| Word | **long** text |\n| PDF | printing |\n\nKeep the original.';

  it('renders the answer as chat does in a terminal, and keeps the Markdown when piped', async () => {
    writeFileSync(join(e.cwd, 'notes.md'), '# Notes\nSome text about formats.\n');
    fake.fallback = () => ({ kind: 'text', text: MD });
    const s = e.pty({
      cols,
      rows: 40,
      args: ['run', 'analyze', 'notes.md', '--auto'],
      env: { ZHI_LANGUAGE: lang },
    });
    await s.exited(30_000);
    const view = screen(s, cols);
    expect(view).toMatch(/│ Word +│ long text +│/);
    expect(view).toContain('Three file formats');
    expect(view).not.toMatch(/##|\*\*|\|:--/);
    const piped = await e.zhi(['run', 'analyze', 'notes.md', '--auto'], { env: { ZHI_LANGUAGE: lang } });
    expect(piped.stdout).toContain('| Word | **long** text |');
    expect(piped.stdout).toContain('## Three file formats');
  });
});
