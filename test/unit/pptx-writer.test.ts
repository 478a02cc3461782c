import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDocument } from '../../src/tools/files/readers/index.js';
import { convertWithSoffice, findSoffice } from '../../src/tools/files/readers/soffice.js';
import { encodePptx, markdownSlides } from '../../src/tools/files/writers/pptx.js';
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
      '## Slide 2\n\n要点\n\n- 收入增长 12%\n  - 华东贡献最大\n- 成本持平\n\nNotes:\n先讲收入。',
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
