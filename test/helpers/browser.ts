/**
 * A real browser for the web page's end-to-end tests: the installed headless Chromium driven by
 * playwright-core (which downloads nothing). One browser per test file, a fresh context (cookies,
 * storage) per page; every page error, console error and JavaScript dialog is collected so a test
 * can say none happened. Where Chromium is missing the tests are skipped, saying so once.
 */
import { existsSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { stretched } from './slowdown.js';

export const CHROMIUM = process.env.ZHI_CHROMIUM ?? '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM)
  console.warn(
    `web page tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set ZHI_CHROMIUM to one)`,
  );

export interface Opened {
  page: Page;
  /** Uncaught errors of the page's script. */
  errors: string[];
  /** alert/confirm/prompt dialogs the page opened (each dismissed). */
  dialogs: string[];
}

export interface OpenOptions {
  width?: number;
  height?: number;
  /** The browser's language (navigator.language, Accept-Language). */
  locale?: string;
}

export function useBrowser(): { open(url: string, o?: OpenOptions): Promise<Opened> } {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    if (!HAVE_CHROMIUM) return;
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    async open(url, o = {}) {
      if (!browser) throw new Error('no browser');
      const context = await browser.newContext({
        viewport: { width: o.width ?? 1280, height: o.height ?? 800 },
        locale: o.locale ?? 'en-US',
      });
      contexts.push(context);
      // Playwright's 30 s waits are ceilings too: stretched on a loaded machine (helpers/slowdown.ts).
      context.setDefaultTimeout(stretched(30_000));
      const page = await context.newPage();
      const errors: string[] = [];
      const dialogs: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await page.goto(url);
      await page.waitForSelector('.app, .setup, .fatal');
      return { page, errors, dialogs };
    },
  };
}

/** Drop files on an element as a person drags them from their file manager. */
export async function dropFiles(
  page: Page,
  selector: string,
  files: { name: string; text: string }[],
): Promise<void> {
  // Made in the page (its DataTransfer and File), from the files' names and texts.
  const transfer = await page.evaluateHandle(
    `(() => { const dt = new DataTransfer(); for (const f of ${JSON.stringify(files)}) dt.items.add(new File([f.text], f.name, { type: 'text/plain' })); return dt; })()`,
  );
  await page.dispatchEvent(selector, 'dragover', { dataTransfer: transfer });
  await page.dispatchEvent(selector, 'drop', { dataTransfer: transfer });
}
