/**
 * The screenshots in docs/screenshots/ (README shows them), made in the real page against the fake
 * API: a chat with a table, an approval, a skill run with a failure, the outputs with a preview,
 * in English and in Chinese. Only with ZHI_SCREENSHOTS=1 (they are pictures to look at, not checks):
 *   ZHI_SCREENSHOTS=1 npx vitest run test/e2e/web-page-screens.test.ts
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import type { RecordedRequest, Reply } from '../fake-zhipu/server.js';
import { dropFiles, HAVE_CHROMIUM, useBrowser } from '../helpers/browser.js';
import { useE2E } from '../helpers/e2e.js';
import { markerOf } from '../helpers/requests.js';
import { useServe } from '../helpers/web.js';

const e = useE2E();
const serve = useServe(e);
const browser = useBrowser();
const OUT = resolve(import.meta.dirname, '../../docs/screenshots');

const WORDS = {
  en: {
    ask: 'Compare the rainfall of these cities in a table',
    answer:
      'Here is the yearly rainfall, from the driest to the wettest:\n\n| City | Rainfall (mm) | Rainy days | Wettest month |\n|---|--:|--:|---|\n| Beijing | 571 | 68 | July |\n| Shanghai | 1,164 | 127 | June |\n| Guangzhou | 1,736 | 150 | May |\n| Chengdu | 870 | 142 | August |\n\n**Guangzhou** gets about three times the rain of **Beijing**, most of it between April and September.',
    thinking: 'The person wants a comparison table; sort by rainfall and add rainy days.',
    write: 'Turn rainfall.md into a Word document',
    done: 'The Word document is in zhi-output/rainfall.docx.',
    files: ['invoice-march', 'invoice-april', 'contract-draft', 'minutes-0312'],
    summary: '- Amount: 12,400.00\n- Due: 2026-04-30\n- Paid: not yet\n',
  },
  zh: {
    ask: '用表格比较一下这几个城市的降雨量',
    answer:
      '以下是各城市的年降雨量，按从少到多排列：\n\n| 城市 | 年降雨量（毫米） | 降雨天数 | 雨量最多的月份 |\n|---|--:|--:|---|\n| 北京 | 571 | 68 | 七月 |\n| 成都 | 870 | 142 | 八月 |\n| 上海 | 1,164 | 127 | 六月 |\n| 广州 | 1,736 | 150 | 五月 |\n\n**广州**的降雨量约为**北京**的三倍，主要集中在四月到九月。',
    thinking: '用户想要一张对比表：按降雨量排序，并加上降雨天数。',
    write: '把 rainfall.md 转成 Word 文档',
    done: 'Word 文档已保存到 zhi-output/rainfall.docx。',
    files: ['三月发票', '四月发票', '合同草稿', '会议纪要-0312'],
    summary: '- 金额：12,400.00 元\n- 付款期限：2026-04-30\n- 是否已付：未付\n',
  },
};

/** A summary for every file (`MARKER-f<i>` names file i) but the third, never written (a failure to show). */
function responder(names: string[], body: string): (req: RecordedRequest) => Reply {
  return (req) => {
    const marker = markerOf(req.body);
    const id = names[Number(marker.slice(1))] ?? marker;
    const last = req.body.messages.at(-1);
    if (marker === 'f2') return { kind: 'text', text: 'I will not write it.' };
    if (last.role === 'user')
      return {
        kind: 'tools',
        calls: [
          {
            name: 'file_write',
            arguments: {
              path: `${id}-summary.md`,
              content: `# ${id}\n\n${body}`,
            },
          },
        ],
      };
    return { kind: 'text', text: `Summary of ${id}` };
  };
}

async function shot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(250);
  await page.screenshot({ path: join(OUT, `${name}.png`) });
}

describe.skipIf(!HAVE_CHROMIUM || process.env.ZHI_SCREENSHOTS !== '1')('screenshots of the web page', () => {
  for (const lang of ['en', 'zh'] as const) {
    it(`in ${lang === 'en' ? 'English' : 'Chinese'}`, async () => {
      mkdirSync(OUT, { recursive: true });
      const w = WORDS[lang];
      e.fake.script(
        { kind: 'text', text: w.answer, reasoning: w.thinking, chunk: 12 },
        {
          kind: 'tools',
          calls: [
            { name: 'shell', arguments: { command: 'pandoc rainfall.md -o zhi-output/rainfall.docx' } },
          ],
        },
        { kind: 'text', text: w.done },
      );
      // --auto: the skill run writes its summaries unasked; a command is still asked.
      const s = await serve(['serve', '--auto'], { ZHI_LANGUAGE: lang });
      const { page } = await browser.open(s.url, {
        width: 1200,
        height: 760,
        locale: lang === 'zh' ? 'zh-CN' : 'en-US',
      });
      await page.fill('textarea', w.ask);
      await page.keyboard.press('Enter');
      await page.waitForSelector('.cost');
      await shot(page, `${lang}-chat-table`);
      await page.fill('textarea', w.write);
      await page.keyboard.press('Enter');
      await page.waitForSelector('dialog[open] [data-testid=approval]');
      await shot(page, `${lang}-approval`);
      await page.click('dialog button.primary');
      await page.locator('.cost').nth(1).waitFor();

      const ids = w.files;
      e.fake.fallback = responder(ids, w.summary);
      await page.goto(`${s.base}/#/skills`);
      await page.click('a.skill-card:has(strong:text-is("summarize"))');
      await dropFiles(
        page,
        '[data-testid=skill-drop]',
        ids.map((id, i) => ({ name: `${id}.txt`, text: `Document MARKER-f${i}\n` })),
      );
      await page.waitForSelector(`.chip:has-text("${ids[3]}")`);
      await page.click('.skill-run button.primary');
      await page.waitForSelector('.estimate pre');
      await page.click('.estimate button.primary');
      await page.waitForSelector('.end-summary');
      await shot(page, `${lang}-skill-run`);
      await page.goto(`${s.base}/#/outputs`);
      await page.waitForSelector('td.path');
      await page.click(`tr:has-text("${ids[0]}-summary.md") .actions button >> nth=0`);
      await page.waitForSelector('dialog[open] .preview-text');
      await shot(page, `${lang}-outputs`);
    });
  }
});
