/**
 * The web page in a real browser (headless Chromium) against the built `zhi serve` and the fake
 * API: set-up, a chat with a table, an approval refused then allowed (Enter answers nothing), a
 * hostile answer that runs nothing, attachments, and the page in Chinese.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_KEY } from '../fake-zhipu/server.js';
import { dropFiles, HAVE_CHROMIUM, useBrowser } from '../helpers/browser.js';
import { useE2E } from '../helpers/e2e.js';
import { useServe } from '../helpers/web.js';

const e = useE2E();
const serve = useServe(e);
const browser = useBrowser();

const TABLE =
  '| City | Rain (mm) |\n|---|--:|\n| Beijing | 571 |\n| Shanghai | 1,164 |\n| Guangzhou | 1,736 |';

async function send(page: import('playwright-core').Page, text: string): Promise<void> {
  await page.fill('textarea', text);
  await page.keyboard.press('Enter');
}

describe.skipIf(!HAVE_CHROMIUM)('the web page in a browser', () => {
  it('set-up: without a key the page asks for one, checks it live, then opens the chat', async () => {
    const s = await serve(['serve'], { ZHI_API_KEY: '' });
    const { page, errors } = await browser.open(s.url);
    await page.waitForSelector('form.setup-card');
    await page.fill('input[type=password]', 'not-a-key');
    await page.click('button[type=submit]');
    await page.waitForSelector('.setup-card .error');
    expect(await page.isVisible('.app')).toBe(false);
    await page.fill('input[type=password]', TEST_KEY);
    await page.click('button[type=submit]');
    await page.waitForSelector('.app textarea');
    expect(readFileSync(join(e.home, 'config.yaml'), 'utf8')).toContain(TEST_KEY);
    // The key never reaches the page again.
    expect(await page.content()).not.toContain(TEST_KEY);
    expect(errors).toEqual([]);
  });

  it('chat: a streamed answer with a table drawn as a real table, thinking folded, the cost line', async () => {
    e.fake.script({
      kind: 'text',
      text: `Here are the figures:\n\n${TABLE}\n\nDone.`,
      reasoning: 'Let me look.',
      chunk: 6,
    });
    const s = await serve();
    const { page, errors } = await browser.open(s.url);
    await send(page, 'rain per city please');
    await page.waitForSelector('.cost');
    const cells = await page.$$eval('.msg.assistant table tbody tr', (rows) =>
      rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)),
    );
    expect(cells).toEqual([
      ['Beijing', '571'],
      ['Shanghai', '1,164'],
      ['Guangzhou', '1,736'],
    ]);
    expect(await page.textContent('.msg.user')).toBe('rain per city please');
    expect(await page.getAttribute('details.thinking', 'open')).toBeNull();
    expect(await page.textContent('.cost')).toMatch(/tokens/);
    // The conversation is listed, and reloading the page draws it once, from the session file.
    await page.reload();
    await page.waitForSelector('.msg.assistant table');
    expect(await page.$$eval('.msg.assistant table', (t) => t.length)).toBe(1);
    expect(await page.textContent('.recent')).toMatch(/rain per city/);
    expect(errors).toEqual([]);
  });

  it('an approval is a dialog that waits: Enter answers nothing, No refuses, Yes allows', async () => {
    const write = (path: string) => ({
      kind: 'tools' as const,
      calls: [{ name: 'file_write', arguments: { path, content: 'hi\n' } }],
    });
    e.fake.script(write('no.md'), { kind: 'text', text: 'Not written.' });
    e.fake.script(write('yes.md'), { kind: 'text', text: 'Written.' });
    const s = await serve();
    const { page, errors } = await browser.open(s.url);
    await send(page, 'write no.md');
    const dialog = await page.waitForSelector('dialog[open] [data-testid=approval]');
    expect(await dialog.textContent()).toMatch(/no\.md/);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
    expect(await page.isVisible('dialog[open]')).toBe(true);
    await page.click('dialog button:text-is("No")');
    await page.waitForSelector('.cost');
    expect(existsSync(join(e.cwd, 'zhi-output', 'no.md'))).toBe(false);
    // Said in the person's words, not the model's.
    expect(await page.textContent('.notice')).toMatch(/Not run \(file_write\)/);

    await send(page, 'write yes.md');
    await page.waitForSelector('dialog[open] [data-testid=approval]');
    await page.click('dialog button:text-is("Yes, this once")');
    await expect.poll(() => page.locator('.cost').count(), { timeout: 20_000 }).toBe(2);
    expect(readFileSync(join(e.cwd, 'zhi-output', 'yes.md'), 'utf8')).toBe('hi\n');
    expect(errors).toEqual([]);
  });

  it('a hostile answer runs nothing: <script>, <img onerror>, a javascript: link', async () => {
    const hostile = [
      'Look: <script>window.__owned = 1; alert(1)</script>',
      '<img src=x onerror="window.__owned = 2; alert(2)">',
      '[click me](javascript:window.__owned=3;alert(3))',
      '![pic](https://example.com/track.png) <a href="javascript:alert(4)" onclick="alert(5)">raw</a>',
    ].join('\n\n');
    e.fake.script({ kind: 'text', text: hostile });
    const s = await serve();
    const { page, errors, dialogs } = await browser.open(s.url);
    await send(page, 'hello');
    await page.waitForSelector('.cost');
    const md = page.locator('.msg.assistant .md');
    expect(await md.locator('script, img, [onerror], [onclick]').count()).toBe(0);
    expect(await md.locator('a[href^="javascript"]').count()).toBe(0);
    // Raw HTML is shown as the text it is.
    expect(await md.textContent()).toContain('<script>window.__owned = 1; alert(1)</script>');
    await md.getByText('click me').click();
    await page.waitForTimeout(200);
    expect(await page.evaluate('window.__owned')).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('attachments: a picked and a dropped file are uploaded and sent with the message; a pasted image is uploaded', async () => {
    e.fake.script({ kind: 'text', text: 'Read both.' });
    const s = await serve();
    const { page, errors } = await browser.open(s.url);
    await page.setInputFiles('[data-testid=file-picker]', {
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('picked words\n'),
    });
    await page.waitForSelector('.chip:has-text("notes.txt")');
    // Dropped anywhere on the chat, a file is attached too.
    await dropFiles(page, 'section.chat', [{ name: 'dropped.txt', text: 'dropped words\n' }]);
    await page.waitForSelector('.chip:has-text("dropped.txt")');
    // A pasted image is uploaded too, under a name made from the time.
    await page.focus('textarea');
    await page.evaluate(
      `(() => { const dt = new DataTransfer(); dt.items.add(new File([new Uint8Array([137, 80, 78, 71])], '', { type: 'image/png' })); document.querySelector('textarea').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true })); })()`,
    );
    await page.waitForSelector('.chip:has-text("pasted-")');
    await page.click('.chip:has-text("pasted-") .chip-x');
    expect(await page.locator('.chip').count()).toBe(2);
    await send(page, 'summarise the notes');
    await page.waitForSelector('.cost');
    const asked = JSON.stringify(e.fake.chatBodies().at(-1) ?? {});
    expect(asked).toContain('picked words');
    expect(asked).toContain('dropped words');
    expect(errors).toEqual([]);
  });

  it('Esc stops an answer; a retry is said; an error comes with what to try', async () => {
    e.fake.script({ kind: 'endless', text: 'and so on, ', delayMs: 20 });
    e.fake.script(
      { kind: 'error', status: 429, code: '1302', message: 'High concurrency' },
      { kind: 'text', text: 'Answered after a retry.' },
    );
    e.fake.script({ kind: 'error', status: 429, code: '1113', message: '余额不足或无可用资源包,请充值。' });
    const s = await serve();
    const { page, errors } = await browser.open(s.url);
    await send(page, 'talk forever');
    await page.waitForSelector('.msg.assistant.streaming .md');
    await page.keyboard.press('Escape');
    await page.waitForSelector('.notice.info');
    expect(await page.textContent('.notice.info')).toBe('Stopped.');
    await page.waitForSelector('button[type=submit]');

    await send(page, 'once more');
    await page.waitForSelector('.msg.assistant:has-text("Answered after a retry.")');
    expect(await page.textContent('.notice.retry')).toMatch(/Trying again \(1\/\d+\)/);

    await send(page, 'and again');
    await page.waitForSelector('.notice.error');
    expect(await page.textContent('.notice.error')).toMatch(/balance|余额/i);
    expect(await page.locator('.notice.error .error-try li').count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });

  it('the page in Chinese: its words come from the catalogue in the person’s language', async () => {
    e.fake.script({ kind: 'text', text: `结果如下：\n\n| 城市 | 降雨 |\n|---|--:|\n| 北京 | 571 |` });
    const s = await serve(['serve'], { ZHI_LANGUAGE: 'zh' });
    const { page, errors } = await browser.open(s.url, { locale: 'zh-CN' });
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
    expect(await page.textContent('nav.side')).toContain('技能');
    expect(await page.textContent('button[type=submit]')).toBe('发送');
    await send(page, '各城市降雨量');
    await page.waitForSelector('.cost');
    expect(await page.textContent('.msg.assistant td')).toBe('北京');
    expect(errors).toEqual([]);
  });
});
