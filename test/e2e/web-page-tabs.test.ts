/**
 * The web page in two tabs, and its other views, in a real browser: both tabs of one conversation
 * draw the same answer, an approval answered in one tab leaves the other; choosing Chinese in the
 * settings redraws the page in Chinese; conversations searched, exported and deleted; usage as a
 * chart; the doctor's checks; a CSV output previewed as a table.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

  it('settings: another connected folder, and Chinese, which redraws the page in Chinese', async () => {
    const s = await serve();
    const { page, errors } = await browser.open(`${s.url}#/settings`);
    await page.waitForSelector('form.form');
    const sub = join(e.cwd, 'reports');
    mkdirSync(sub);
    await page.fill('form.form input[type=text]', sub);
    await page.selectOption('form.form select >> nth=0', 'zh');
    await page.click('form.form button[type=submit]');
    await page.waitForSelector('nav.side >> text=设置');
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
    expect(await page.textContent('.folder-path')).toBe(sub);
    expect(errors).toEqual([]);
  });

  it('conversations searched, exported, deleted; usage drawn as a chart; the checks; a CSV previewed as a table', async () => {
    e.fake.script({ kind: 'text', text: 'About apples.' }, { kind: 'text', text: 'About pears.' });
    const s = await serve();
    const { page, errors } = await browser.open(s.url);
    for (const text of ['tell me about apples', 'tell me about pears']) {
      await page.goto(`${s.base}/#/chat`);
      await page.fill('textarea', text);
      await page.keyboard.press('Enter');
      await page.waitForSelector('.cost');
    }
    await page.goto(`${s.base}/#/sessions`);
    await page.waitForSelector('tbody tr');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
    await page.fill('input[type=search]', 'pears');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    const exported = await page.request.get(
      `${s.base}${await page.getAttribute('tbody tr a:text-is("Export")', 'href')}`,
    );
    expect(await exported.text()).toContain('About pears.');
    await page.click('tbody tr:has-text("pears") button:text-is("Delete")');
    await page.click('dialog[open] button.danger-button');
    await page.waitForSelector('.empty:text-is("No conversation matches.")');
    await page.fill('input[type=search]', '');
    await page.waitForSelector('tbody tr:has-text("apples")');
    expect(await page.locator('tbody tr').count()).toBe(1);

    await page.goto(`${s.base}/#/usage`);
    await page.waitForSelector('figure.chart svg rect');
    expect(await page.textContent('.usage-total')).toMatch(/tokens/);

    await page.goto(`${s.base}/#/system`);
    await page.waitForSelector('ul.checks li');

    mkdirSync(join(e.cwd, 'zhi-output'), { recursive: true });
    writeFileSync(join(e.cwd, 'zhi-output', 'fruit.csv'), 'fruit,kg\napples,3\n<b>pears</b>,5\n');
    await page.goto(`${s.base}/#/outputs`);
    await page.click('tr:has-text("fruit.csv") button:text-is("Preview")');
    await page.waitForSelector('dialog[open] table.sheet');
    expect(
      await page.$$eval('dialog[open] table.sheet td', (tds) => tds.map((td) => td.textContent)),
    ).toEqual(['apples', '3', '<b>pears</b>', '5']);
    expect(errors).toEqual([]);
  });
});
