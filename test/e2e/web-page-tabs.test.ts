/**
 * The web page in two tabs and after a change of settings, in a real browser: both tabs of one
 * conversation draw the same answer, an approval answered in one tab leaves the other, and
 * choosing Chinese in the settings redraws the page in Chinese.
 */
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, useBrowser } from '../helpers/browser.js';
import { useE2E } from '../helpers/e2e.js';
import { useServe } from '../helpers/web.js';

const e = useE2E();
const serve = useServe(e);
const browser = useBrowser();

describe.skipIf(!HAVE_CHROMIUM)('the web page in two tabs, and its settings', () => {
  it('two tabs draw the same run; an approval answered in one leaves the other', async () => {
    e.fake.script(
      { kind: 'tools', calls: [{ name: 'shell', arguments: { command: 'touch zhi-output/a.txt' } }] },
      { kind: 'text', text: 'Both tabs see **this**.' },
    );
    const s = await serve();
    const one = await browser.open(s.url);
    await one.page.fill('textarea', 'make a.txt');
    await one.page.keyboard.press('Enter');
    await one.page.waitForSelector('dialog[open] [data-testid=approval]');
    // The second tab opens the same conversation late: the run is replayed, the approval too.
    const two = await browser.open(`${s.url}${new URL(one.page.url()).hash}`);
    await two.page.waitForSelector('dialog[open] [data-testid=approval]');
    await two.page.click('dialog button:text-is("No")');
    await one.page.waitForSelector('dialog[open]', { state: 'detached' });
    for (const tab of [one, two]) {
      await tab.page.waitForSelector('.cost');
      expect(await tab.page.textContent('.msg.assistant strong')).toBe('this');
      expect(await tab.page.locator('.msg.user').count()).toBe(1);
      expect(tab.errors).toEqual([]);
    }
  });

  it('choosing Chinese in the settings redraws the page in Chinese', async () => {
    const s = await serve();
    const { page, errors } = await browser.open(`${s.url}#/settings`);
    await page.waitForSelector('form.form');
    await page.selectOption('form.form select >> nth=0', 'zh');
    await page.click('form.form button[type=submit]');
    await page.waitForSelector('nav.side >> text=设置');
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
    expect(errors).toEqual([]);
  });
});
