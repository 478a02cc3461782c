/**
 * Skills and outputs in the web page, in a real browser: files dropped on a skill, the estimate
 * first, a run with live per-file progress where one file fails with its reason, Resume doing only
 * that file again, and the outputs listed and previewed.
 */
import { describe, expect, it } from 'vitest';
import type { RecordedRequest, Reply } from '../fake-zhipu/server.js';
import { dropFiles, HAVE_CHROMIUM, useBrowser } from '../helpers/browser.js';
import { useE2E } from '../helpers/e2e.js';
import { markerOf } from '../helpers/requests.js';
import { useServe } from '../helpers/web.js';

const e = useE2E();
const serve = useServe(e);
const browser = useBrowser();

/** Each file is summarised into `<id>-summary.md`, except those in `failing`, never written. */
function responder(failing: Set<string>) {
  return (req: RecordedRequest): Reply => {
    const id = markerOf(req.body);
    const last = req.body.messages.at(-1);
    if (id && failing.has(id)) return { kind: 'text', text: 'I will not write it.' };
    if (last.role === 'user')
      return {
        kind: 'tools',
        calls: [
          { name: 'file_write', arguments: { path: `${id}-summary.md`, content: `Summary of ${id}\n` } },
        ],
      };
    return { kind: 'text', text: `Summary of ${id}` };
  };
}

const firstCalls = () =>
  e.fake.requests
    .filter((r) => r.path.endsWith('/chat/completions') && r.body.messages.at(-1).role === 'user')
    .map((r) => markerOf(r.body));

describe.skipIf(!HAVE_CHROMIUM)('skills and outputs in the web page', () => {
  it('dropped files: estimate, a run with a failure and its reason, resume, the outputs previewed', async () => {
    const failing = new Set(['f002']);
    e.fake.fallback = responder(failing);
    const s = await serve(['serve', '--auto']);
    const { page, errors } = await browser.open(`${s.url.split('?')[0]}?token=${s.secret}#/skills`);
    await page.click('a.skill-card:has(strong:text-is("summarize"))');
    await dropFiles(
      page,
      '[data-testid=skill-drop]',
      ['f001', 'f002', 'f003'].map((id) => ({ name: `${id}.txt`, text: `Document MARKER-${id}\n` })),
    );
    await page.waitForSelector('.chip:has-text("f003.txt")');
    await page.click('button:text-is("Estimate the cost")');
    await page.waitForSelector('.estimate pre');
    expect(await page.textContent('.estimate pre')).toMatch(/3/);
    expect(firstCalls()).toEqual([]);

    await page.click('button:text-is("Run now")');
    await page.waitForSelector('.end-summary');
    expect(await page.textContent('tr.file-failed')).toMatch(/f002/);
    expect(await page.textContent('tr.file-failed .reason')).toBeTruthy();
    expect(await page.locator('tr.file-done').count()).toBe(2);
    expect(await page.textContent('.failures')).toMatch(/f002/);

    failing.clear();
    const before = firstCalls().length;
    await page.click('button:text-is("Resume")');
    await page.waitForSelector('.end-summary');
    await expect.poll(() => page.locator('tr.file-done').count()).toBe(1);
    expect(firstCalls().slice(before)).toEqual(['f002']);

    await page.click('nav a:text-is("Outputs")');
    await page.waitForSelector('td.path:has-text("f002-summary.md")');
    await page.click('tr:has-text("f001-summary.md") button:text-is("Preview")');
    await page.waitForSelector('dialog[open] .preview-text');
    expect(await page.textContent('dialog[open] .preview-text')).toContain('Summary of f001');
    expect(errors).toEqual([]);
  });

  it('a batch job: the estimate offers it, the run says the job and its state, the runs page lists it', async () => {
    e.fake.fallback = responder(new Set());
    const s = await serve(['serve', '--auto'], { ZHI_BATCH_POLL_MS: '20' });
    const { page, errors } = await browser.open(`${s.url}#/skills`);
    await page.click('a.skill-card:has(strong:text-is("summarize"))');
    await dropFiles(
      page,
      '[data-testid=skill-drop]',
      ['b1', 'b2'].map((id) => ({ name: `${id}.txt`, text: `Document MARKER-${id}\n` })),
    );
    await page.waitForSelector('.chip:has-text("b2.txt")');
    await page.click('button:text-is("Estimate the cost")');
    await page.click('button:text-is("Run as a batch job")');
    await page.waitForSelector('.end-summary');
    expect(await page.textContent('.batch-line')).toMatch(/Batch job batch_/);
    expect(await page.locator('tr.file-done').count()).toBe(2);
    expect(e.fake.requests.some((r) => r.method === 'POST' && r.path.endsWith('/batches'))).toBe(true);
    await page.click('a.back');
    await page.waitForSelector('table .tag');
    expect(await page.textContent('table')).toMatch(/summarize/);
    expect(errors).toEqual([]);
  });
});
