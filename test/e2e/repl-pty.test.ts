/**
 * The REPL in a real pseudo-terminal against the fake Zhipu server: start-up, a streamed Markdown
 * answer, Ctrl+C in the middle of an answer, Ctrl+D, history across runs, Chinese input, and
 * the permission prompt answered y and n.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { makePdf, makePng } from '../helpers/media.js';
import { KEY, type PtySession, screen } from '../helpers/pty.js';

const e = useE2E();
const { fake } = e;

const PROMPT = /zhi \[(?:approve|确认)\]> $/;

function open(env: Record<string, string> = {}, cols = 100): PtySession {
  const s = e.pty({ cols, rows: 40, env });
  return s;
}

/** Type like a person: one key at a time (a CJK input method commits a word at once). */
async function type(s: PtySession, text: string): Promise<void> {
  s.write(text);
  await new Promise((r) => setTimeout(r, 30));
}

async function waitPrompt(s: PtySession, from = 0): Promise<void> {
  await s.waitFor(PROMPT, 10_000, from);
}

describe('zhi REPL in a terminal', () => {
  it('starts with a welcome line and the mode prompt', async () => {
    const s = open();
    await waitPrompt(s);
    expect(s.text()).toMatch(/zhi 0\.\d+\.\d+ · glm-5 · approve mode — \/help for commands, Ctrl\+D to exit/);
    expect(s.raw()).toContain('\x1b[?2004h'); // bracketed paste on
    await type(s, KEY.ctrlD);
    expect((await s.exited()).exitCode).toBe(0);
  });

  it('streams a Chinese answer with a table as Markdown; the Chinese question reaches the server intact', async () => {
    fake.script({
      kind: 'text',
      reasoning: '用户想要一个表格。',
      text: '## 对比\n\n| 格式 | 用途 |\n|:--|:--|\n| Word | 合同、报告 |\n| Excel | 表格、统计 |\n\n用 **PDF** 发送定稿。',
      chunk: 4,
      delayMs: 5,
      usage: { prompt_tokens: 1000, completion_tokens: 200 },
    });
    const s = open();
    await waitPrompt(s);
    const mark = s.mark();
    await type(s, '常见文件格式有什么区别？');
    await type(s, KEY.enter);
    await s.waitFor(/Done: 1\.2k tokens · ≈¥0\.\d+ · \d+\.\ds/, 10_000, mark);
    await waitPrompt(s, mark);
    const view = screen(s);
    expect(view).toContain('zhi [approve]> 常见文件格式有什么区别？');
    expect(view).toContain('✻ Thought for');
    expect(view).toContain('│ Word  │ 合同、报告 │');
    expect(view).toContain('│ Excel │ 表格、统计 │');
    expect(view).toContain('用 PDF 发送定稿。');
    expect(view).not.toContain('|:--|');
    expect(fake.chatBodies()[0].messages.at(-1)).toEqual({
      role: 'user',
      content: '常见文件格式有什么区别？',
    });
    await type(s, KEY.ctrlD);
    await s.waitFor('Session: 1.2k tokens (1.0k in, 200 out)');
    expect((await s.exited()).exitCode).toBe(0);
  });

  it('Ctrl+C mid-answer stops at once, keeps the partial answer, and the conversation goes on', async () => {
    fake.script({ kind: 'text', text: '第一段很长的回答，'.repeat(40), chunk: 4, delayMs: 40 });
    fake.script({ kind: 'text', text: '好的，继续。' });
    const s = open();
    await waitPrompt(s);
    await type(s, '讲一个长故事');
    await type(s, KEY.enter);
    await s.waitFor('第一段很长的回答');
    const mark = s.mark();
    await type(s, KEY.ctrlC);
    await s.waitFor('Interrupted.', 5_000, mark);
    await waitPrompt(s, mark);
    await type(s, '继续');
    await type(s, KEY.enter);
    await s.waitFor('好的，继续。', 10_000, mark);
    const second = fake.chatBodies()[1];
    const tail = second.messages.slice(-3);
    expect(tail[0]).toEqual({ role: 'user', content: '讲一个长故事' });
    expect(tail[1].role).toBe('assistant');
    expect(tail[1].content).toMatch(/^第一段很长的回答/);
    expect(tail[1].content.length).toBeLessThan('第一段很长的回答，'.length * 40);
    expect(tail[2]).toEqual({ role: 'user', content: '继续' });
    await type(s, KEY.ctrlD);
    expect((await s.exited()).exitCode).toBe(0);
  });

  it('Ctrl+C in a long streaming table closes it under the rows printed so far, and the whole part that arrived stays in the conversation', async () => {
    let table = '| 序号 | 客户 |\n|--:|---|\n';
    for (let i = 0; i < 3000; i++) table += `| ${i} | 客户${i}有限公司 |\n`;
    fake.script({ kind: 'text', text: table, chunk: 200, delayMs: 20 });
    fake.script({ kind: 'text', text: '好的。' });
    const s = open();
    await waitPrompt(s);
    await type(s, '列出客户');
    await type(s, KEY.enter);
    // Some row from 300 on (under load a frame can skip rows that scrolled past between two).
    await s.waitFor(/客户(?:[3-9]\d\d|\d{4})有限公司/, 30_000);
    const mark = s.mark();
    await type(s, KEY.ctrlC);
    await s.waitFor('Interrupted.', 5_000, mark);
    await waitPrompt(s, mark);
    const after = s.text().slice(mark);
    // The rows were printed as they came: only those since the last frame follow, then the border.
    expect(after.split('有限公司').length - 1).toBeLessThan(40);
    expect(after).toMatch(/└─+┴─+┘/);
    await type(s, '继续');
    await type(s, KEY.enter);
    await s.waitFor('好的。', 10_000, mark);
    const kept = fake.chatBodies()[1].messages.at(-2);
    expect(kept.role).toBe('assistant');
    expect(kept.content).toContain('| 0 | 客户0有限公司 |');
    expect(kept.content).toContain('| 300 | 客户300有限公司 |');
    await type(s, KEY.ctrlD);
    expect((await s.exited()).exitCode).toBe(0);
  });

  it('Ctrl+C on an empty prompt shows a hint; a second one exits with the usage line', async () => {
    const s = open();
    await waitPrompt(s);
    await type(s, KEY.ctrlC);
    await s.waitFor('Press Ctrl+C again to exit');
    await type(s, KEY.ctrlC);
    await s.waitFor('Session: no tokens used.');
    expect((await s.exited()).exitCode).toBe(0);
  });

  it('keeps history across runs (Up recalls it), without secrets', async () => {
    const first = open();
    await waitPrompt(first);
    await type(first, '/status');
    const afterStatus = first.mark();
    await type(first, KEY.enter);
    await waitPrompt(first, afterStatus);
    await type(first, 'password=hunter2 记住');
    await type(first, KEY.enter);
    await first.waitFor('Done:');
    await type(first, KEY.ctrlD);
    await first.exited();
    expect(readFileSync(join(e.home, 'history'), 'utf8')).toBe('/status\n');

    fake.reset();
    const second = open();
    await waitPrompt(second);
    await type(second, KEY.up);
    await second.waitFor('zhi [approve]> /status');
    const mark = second.mark();
    await type(second, KEY.enter);
    await second.waitFor('Model:', 5_000, mark);
    await type(second, KEY.ctrlD);
    expect((await second.exited()).exitCode).toBe(0);
  });

  it('asks before file_write with the full call; y writes the file, n does not', async () => {
    fake.script(
      { kind: 'tools', calls: [{ name: 'file_write', arguments: { path: 'yes.txt', content: '同意写入' } }] },
      { kind: 'text', text: '已写入。' },
      { kind: 'tools', calls: [{ name: 'file_write', arguments: { path: 'no.txt', content: '不要写' } }] },
      { kind: 'text', text: '好的，没有写。' },
    );
    const s = open();
    await waitPrompt(s);
    await type(s, '写一个文件');
    await type(s, KEY.enter);
    await s.waitFor('Allow? [y/N]');
    expect(s.text()).toContain('file_write');
    expect(s.text()).toContain('yes.txt');
    let mark = s.mark();
    await type(s, 'y');
    await type(s, KEY.enter);
    await s.waitFor('已写入。', 10_000, mark);
    await waitPrompt(s, mark);
    expect(readFileSync(join(e.cwd, 'zhi-output', 'yes.txt'), 'utf8').trim()).toBe('同意写入');
    expect(screen(s)).toMatch(/\[1\/1\] Write .*yes\.txt … ✓/);

    mark = s.mark();
    await type(s, '再写一个');
    await type(s, KEY.enter);
    await s.waitFor('Allow? [y/N]', 10_000, mark);
    await type(s, 'n');
    await type(s, KEY.enter);
    await s.waitFor('好的，没有写。', 10_000, mark);
    expect(existsSync(join(e.cwd, 'zhi-output', 'no.txt'))).toBe(false);
    expect(s.text().slice(mark)).toContain('Not run (write a file): you said no.');
    const toolResult = fake.chatBodies()[3].messages.at(-1);
    expect(toolResult.role).toBe('tool');
    expect(toolResult.content).toMatch(/^Error: /);
    await type(s, KEY.ctrlD);
    expect((await s.exited()).exitCode).toBe(0);
  });

  it('attaches a file named in the message', async () => {
    writeFileSync(join(e.cwd, '会议纪要.md'), '# 纪要\n下周五交付。');
    fake.script({ kind: 'text', text: '下周五交付。' });
    const s = open();
    await waitPrompt(s);
    await type(s, '会议纪要.md 里说了什么？');
    await type(s, KEY.enter);
    await s.waitFor('下周五交付。');
    expect(s.text()).toMatch(/Attached 会议纪要\.md \(text, \d+ B\)/);
    const content = fake.chatBodies()[0].messages.at(-1).content as string;
    expect(content).toContain('<document name="会议纪要.md"');
    expect(content).toContain('下周五交付。');
    await type(s, KEY.ctrlD);
    await s.exited();
  });

  it('offers OCR for a scanned PDF and attaches the text on yes', async () => {
    writeFileSync(join(e.cwd, 'scan.pdf'), makePdf(['']));
    fake.scriptOcr({ md: '# 发票\n金额：1,280 元' });
    fake.script({ kind: 'text', text: '金额是 1,280 元。' });
    const s = open();
    await waitPrompt(s);
    await type(s, 'scan.pdf 的金额是多少？');
    await type(s, KEY.enter);
    // GLM-OCR is paid: the pages and the price are said and asked once (cli/price-consent.ts).
    await s.waitFor(/scan\.pdf: 1 page\(s\) to read with GLM-OCR[\s\S]*\[Y\/n\]/);
    await type(s, KEY.enter); // default: yes
    await s.waitFor('金额是 1,280 元。');
    expect(s.text()).toMatch(/Attached scan\.pdf \(OCR/);
    expect(fake.requests.some((r) => r.path.endsWith('/layout_parsing'))).toBe(true);
    const content = fake.chatBodies()[0].messages.at(-1).content as string;
    expect(content).toContain('金额：1,280 元');
    await type(s, KEY.ctrlD);
    await s.exited();
  });

  it('sends a dragged-in image to a vision model with the question', async () => {
    writeFileSync(join(e.cwd, 'photo one.png'), makePng(4, 4));
    fake.script({ kind: 'text', text: '一个红色方块。' });
    const s = open();
    await waitPrompt(s);
    await type(s, `'${join(e.cwd, 'photo one.png')}' 这是什么？`);
    await type(s, KEY.enter);
    await s.waitFor('一个红色方块。');
    expect(s.text()).toContain('Attached image photo one.png');
    const body = fake.chatBodies()[0];
    expect(body.model).toBe('glm-4.6v-flash');
    const parts = body.messages.at(-1).content;
    expect(parts[0]).toEqual({ type: 'text', text: `'${join(e.cwd, 'photo one.png')}' 这是什么？` });
    expect(parts[1].image_url.url).toMatch(/^data:image\/png;base64,/);
    await type(s, KEY.ctrlD);
    await s.exited();
  });

  it('NO_COLOR: plain prompt and answer, [DONE] prefix, no colour codes', async () => {
    fake.script({ kind: 'text', text: '**粗体**回答' });
    const s = open({ NO_COLOR: '1' });
    await waitPrompt(s);
    await type(s, '你好');
    await type(s, KEY.enter);
    await s.waitFor('[DONE] Done:');
    expect(s.text()).toContain('**粗体**回答');
    expect(s.raw()).not.toMatch(/\x1b\[[0-9;]*m/);
    await type(s, KEY.ctrlD);
    await s.exited();
  });
});
