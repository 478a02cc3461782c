import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDocument } from '../../src/tools/files/readers/index.js';
import { convertWithSoffice, findSoffice } from '../../src/tools/files/readers/soffice.js';
import { encodePptx, markdownSlides } from '../../src/tools/files/writers/pptx.js';
import { fitSlides, titleSize } from '../../src/tools/files/writers/pptx-fit.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

const CHART = readFileSync(join(import.meta.dirname, '../fixtures/office/chart.png'));
const DECK = {
  slides: [
    { title: '第三季度汇报', subtitle: '销售部' },
    { title: '要点', bullets: ['收入增长 12%', ['华东贡献最大'], '成本持平'], notes: '先讲收入。' },
    {
      title: '数据',
      table: { headers: ['地区', '收入'], rows: [['华东', '1,250']] },
      notes: '表格来自财务。',
    },
    { title: '趋势', bullets: ['持续上升'], image: 'chart.png' },
  ],
};

let dir: string;
beforeAll(() => {
  dir = tempDir('zhi-pptx-');
});
afterAll(() => cleanup(dir));

async function write(content: unknown, name: string): Promise<string> {
  const asked: string[] = [];
  const { data, summary } = await encodePptx(content, async (p) => {
    asked.push(p);
    return CHART;
  });
  const path = join(dir, name);
  writeFileSync(path, data);
  expect(summary).toMatch(/slides?/);
  return path;
}

describe('.pptx written by file_write', () => {
  it('has the slides, bullets by level, the table, the image and the speaker notes', async () => {
    const doc = await readDocument(await write(DECK, 'deck.pptx'));
    expect(doc.pages).toBe(4);
    expect(doc.text).toContain(
      // titles are title placeholders, so the reader knows them as titles
      '## Slide 2: 要点\n\n- 收入增长 12%\n  - 华东贡献最大\n- 成本持平\n\nNotes:\n先讲收入。',
    );
    expect(doc.text).toContain('| 地区 | 收入 |\n| --- | --- |\n| 华东 | 1,250 |\n\nNotes:\n表格来自财务。');
    expect(doc.notes).toContain('1 picture(s) not shown');
  });

  it('from Markdown: a slide per heading, bullets, a table, an image and a Notes: line', () => {
    const slides = markdownSlides(
      '# 封面\n\n副标题\n\n## 计划\n- 第一步\n  - 细节\n![](chart.png)\nNotes: 讲慢一点\n第二行\n\n## 分工\n| 人 | 事 |\n|---|---|\n| 张三 | 开发 |',
    );
    expect(slides).toHaveLength(3);
    expect(slides[1]).toMatchObject({
      title: '计划',
      bullets: [
        { text: '第一步', level: 0 },
        { text: '细节', level: 1 },
      ],
      image: 'chart.png',
      notes: '讲慢一点\n第二行',
    });
    expect(slides[2]!.table).toEqual({ headers: ['人', '事'], rows: [['张三', '开发']] });
  });

  it('titles are title placeholders on a plain theme', async () => {
    const { data } = await encodePptx(DECK, async () => CHART);
    const zip = unzipSync(data);
    const slide = (n: number) => new TextDecoder().decode(zip[`ppt/slides/slide${n}.xml`]);
    for (const n of [1, 2, 3, 4]) expect(slide(n)).toMatch(/<p:ph\s[^>]*type="title"/);
    expect(slide(2)).toContain('要点');
  });

  it('15 bullets fit: a smaller size, or a second slide titled "（续）" / "(cont.)"; the summary counts real slides', async () => {
    const bullets = Array.from(
      { length: 15 },
      (_, i) => `第${i + 1}项：本季度重点工作之一，需要跟进负责人和完成时间`,
    );
    const pages = fitSlides([
      { title: '工作清单', bullets: bullets.map((text) => ({ text, level: 0 })), text: [], notes: '' },
    ]);
    expect(pages.map((p) => [p.title, p.continued, p.bullets.length])).toEqual([
      ['工作清单', false, expect.any(Number)],
      ['工作清单', true, expect.any(Number)],
    ]);
    expect(pages[0]!.bullets.length + pages[1]!.bullets.length).toBe(15);
    expect(pages[0]!.fontSize).toBe(14);
    expect(pages.map((p) => p.bullets.length)).toEqual([8, 7]); // even, not 12 + 3
    // eight short bullets stay on one slide at the largest size
    const short = fitSlides([
      {
        title: 'x',
        bullets: bullets.slice(0, 8).map((t) => ({ text: t.slice(0, 6), level: 0 })),
        text: [],
        notes: '',
      },
    ]);
    expect(short).toHaveLength(1);
    expect(short[0]!.fontSize).toBe(18);
    const { summary } = await encodePptx({ slides: [{ title: '工作清单', bullets }] }, async () => CHART);
    const english = await encodePptx(
      {
        slides: [
          {
            title: 'Tasks',
            bullets: bullets.map((_, i) => `Task ${i + 1}: follow up with the owner and the date`),
          },
        ],
      },
      async () => CHART,
    );
    expect(english.summary).toMatch(/^2 slides \(1 in the content; 1 more slide\(s\) titled "… \(cont\.\)"/);
    expect(summary).toBe(
      '2 slides (1 in the content; 1 more slide(s) titled "…（续）" carry the lists and tables that did not fit one slide)',
    );
  });

  it('a long title is set smaller so it stays in its box', () => {
    expect(titleSize('要点', false)).toBe(28);
    expect(titleSize('二〇二四年第三季度华东区域销售业绩与重点客户回款情况汇报', false)).toBe(20);
    expect(titleSize('Quarterly results', true)).toBe(36);
  });

  it('a 28-row table is split with its title and header repeated, and the real count is reported', async () => {
    const rows = Array.from({ length: 28 }, (_, i) => [`门店${i + 1}`, `${1000 + i}`, '2024-03-15']);
    const { data, summary } = await encodePptx(
      { slides: [{ title: '门店数据', table: { headers: ['门店', '销售额', '日期'], rows } }] },
      async () => CHART,
    );
    const path = join(dir, 'table.pptx');
    writeFileSync(path, data);
    const doc = await readDocument(path);
    expect(summary).toMatch(/^3 slides \(1 in the content; 2 more slide\(s\) titled/);
    expect(doc.pages).toBe(3);
    expect(doc.text).toContain('## Slide 1: 门店数据\n\n| 门店 | 销售额 | 日期 |');
    expect(doc.text).toContain('## Slide 2: 门店数据（续）\n\n| 门店 | 销售额 | 日期 |');
    expect(doc.text).toContain('## Slide 3: 门店数据（续）\n\n| 门店 | 销售额 | 日期 |');
    for (const r of rows) expect(doc.text).toContain(`| ${r[0]} | ${r[1]} |`);
  });

  it('a payload without slides is refused with the expected shape', async () => {
    await expect(encodePptx({ pages: [] }, async () => CHART)).rejects.toThrow(/Expected \{"slides"/);
  });

  it.skipIf(!findSoffice())(
    'opens in LibreOffice Impress: converted to PDF, one page per slide',
    async () => {
      const path = await write(DECK, 'deck-pdf.pptx');
      const pdf = await convertWithSoffice(path, '.pptx', 'pdf');
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page\b/g) ?? []).length;
      expect(pages).toBe(4);
    },
    120_000,
  );
});

describe('.docx fonts and language from the content', () => {
  it('Chinese text gets SimSun for East Asian runs and zh-CN; English keeps Word’s defaults', async () => {
    const { buildDocx } = await import('../../src/tools/files/writers/docx.js');
    const { unzipSync } = await import('fflate');
    const styles = async (md: string) =>
      new TextDecoder().decode(unzipSync(await buildDocx(md))['word/styles.xml']);
    const zh = await styles('# 报告\n\n本季度收入增长。');
    expect(zh).toMatch(/<w:rFonts [^>]*w:eastAsia="SimSun"/);
    expect(zh).toMatch(/<w:lang [^>]*w:eastAsia="zh-CN"/);
    const en = await styles('# Report\n\nRevenue grew.');
    expect(en).not.toMatch(/SimSun|zh-CN/);
  });
});
