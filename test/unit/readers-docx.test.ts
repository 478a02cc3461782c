import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDocument } from '../../src/tools/files/readers/index.js';
import { buildDocx, li, p, tbl, tc, tr } from '../helpers/docx-build.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

/** Real documents from mammoth's and python-docx's test suites (test/fixtures/real/docx, see the LICENSE files there). */
const REAL = join(import.meta.dirname, '../fixtures/real/docx');

let dir: string;
beforeAll(() => {
  dir = tempDir('zhi-docx-');
});
afterAll(() => cleanup(dir));

async function docx(name: string, spec: Parameters<typeof buildDocx>[0]): Promise<string> {
  const path = join(dir, name);
  writeFileSync(path, await buildDocx(spec));
  return path;
}

describe('Word structure', () => {
  it('merged cells stay in their columns: gridSpan, vMerge and gridBefore', async () => {
    const body = tbl(
      tr(tc(p('地区')) + tc(p('一季度')) + tc(p('二季度')) + tc(p('合计'))) +
        tr(
          tc(p('华东'), '<w:vMerge w:val="restart"/>') +
            tc(p('100 (两季)'), '<w:gridSpan w:val="2"/>') +
            tc(p('200')),
        ) +
        tr(tc(p(''), '<w:vMerge/>') + tc(p('30')) + tc(p('40')) + tc(p('70'))) +
        tr(tc(p('只有合计')) + '', '<w:gridBefore w:val="3"/>'),
    );
    const doc = await readDocument(await docx('merged.docx', { body }));
    expect(doc.text).toContain(
      '| 地区 | 一季度 | 二季度 | 合计 |\n| --- | --- | --- | --- |\n| 华东 | 100 (两季) |  | 200 |\n|  | 30 | 40 | 70 |\n|  |  |  | 只有合计 |',
    );
  });

  it('paragraphs in a cell stay apart; a table in a cell is kept and named', async () => {
    const inner = tbl(tr(tc(p('a1')) + tc(p('b1'))) + tr(tc(p('a2')) + tc(p('b2'))));
    const body = tbl(
      tr(tc(p('标题')) + tc(p('内容'))) + tr(tc(p('第一段') + p('第二段')) + tc(p('见内表') + inner)),
    );
    const doc = await readDocument(await docx('nested.docx', { body }));
    expect(doc.text).toContain('| 第一段<br>第二段 | 见内表<br>[nested table 1.1, below] |');
    expect(doc.text).toContain('Nested table 1.1:\n\n| a1 | b1 |\n| --- | --- |\n| a2 | b2 |');
  });

  it('comments, header and footer in marked sections; a comment marker where it is anchored', async () => {
    const body =
      p('前言', '<w:pPr><w:pStyle w:val="1"/></w:pPr>') +
      `<w:p><w:r><w:t>合同金额为一百万元</w:t></w:r><w:r><w:commentReference w:id="7"/></w:r></w:p>`;
    const doc = await readDocument(
      await docx('review.docx', {
        body,
        header: '机密 · 内部使用',
        footer: '第 1 页',
        comments: [{ id: 7, author: '李律师', text: '金额需与附件一致' }],
      }),
    );
    expect(doc.text).toMatch(/^--- header ---\n机密 · 内部使用\n\n# 前言\n\n合同金额为一百万元\[comment 1\]/);
    expect(doc.text).toContain('--- comments ---\n[comment 1] 李律师: 金额需与附件一致');
    expect(doc.text).toMatch(/--- footer ---\n第 1 页$/);
  });

  it('equations as linear text, and nested list levels kept', async () => {
    const omml =
      '<m:oMath><m:sSup><m:e><m:r><m:t>a</m:t></m:r></m:e><m:sup><m:r><m:t>2</m:t></m:r></m:sup></m:sSup><m:r><m:t>+</m:t></m:r><m:f><m:num><m:r><m:t>x+1</m:t></m:r></m:num><m:den><m:r><m:t>2</m:t></m:r></m:den></m:f></m:oMath>';
    const body =
      `<w:p><w:r><w:t xml:space="preserve">The angle is </w:t></w:r>${omml}<w:r><w:t>.</w:t></w:r></w:p>` +
      li('水果', 0) +
      li('苹果', 1) +
      li('红富士', 2) +
      li('第一步', 0, 2) +
      li('第二步', 0, 2);
    const doc = await readDocument(await docx('math.docx', { body }));
    expect(doc.text).toContain('The angle is a^2+(x+1)/2.');
    expect(doc.text).toContain('- 水果\n\n  - 苹果\n\n    - 红富士');
    expect(doc.text).toContain('1. 第一步\n\n2. 第二步');
  });

  it('a number that comes from the paragraph style is kept; two lists are numbered apart', async () => {
    const body =
      p('准备材料', '<w:pPr><w:pStyle w:val="ListNumber"/></w:pPr>') +
      p('提交申请', '<w:pPr><w:pStyle w:val="ListNumber"/></w:pPr>') +
      li('甲方', 0, 3) +
      li('乙方', 0, 3);
    const doc = await readDocument(await docx('lists.docx', { body }));
    expect(doc.text).toContain('1. 准备材料\n\n2. 提交申请\n\na) 甲方\n\nb) 乙方');
  });
});

describe('real documents (mammoth and python-docx test suites)', () => {
  it('mammoth tables.docx: a table with its cells', async () => {
    const doc = await readDocument(join(REAL, 'mammoth-tables.docx'));
    expect(doc.text).toMatch(
      /\| Top left \| Top right \|\n\| --- \| --- \|\n\| Bottom left \| Bottom right \|/,
    );
  });

  it('mammoth comments.docx: the comment text and its author', async () => {
    const doc = await readDocument(join(REAL, 'mammoth-comments.docx'));
    expect(doc.text).toContain('[comment 1]');
    expect(doc.text).toContain('Ouch[comment 1].[comment 2]');
    expect(doc.text).toContain(
      '--- comments ---\n[comment 1] Michael Williamson: A tachyon walks into a bar.\n[comment 2] Michael Williamson: Fin.',
    );
  });

  it('mammoth footnotes.docx and endnotes.docx: notes in their section', async () => {
    expect((await readDocument(join(REAL, 'mammoth-footnotes.docx'))).text).toMatch(
      /--- notes ---\n\[\^1\]: .+/,
    );
    expect((await readDocument(join(REAL, 'mammoth-endnotes.docx'))).text).toMatch(
      /--- notes ---\n\[\^1\]: .+/,
    );
  });

  it('mammoth text-box.docx: text inside a text box is read', async () => {
    const doc = await readDocument(join(REAL, 'mammoth-text-box.docx'));
    expect(doc.text).toContain('Datum plane');
    expect(doc.text).not.toContain('Datum planeDatum plane'); // the legacy fallback copy is not read twice
  });

  it('python-docx hdr-header-footer.docx: header and footer sections', async () => {
    const doc = await readDocument(join(REAL, 'pydocx-hdr-header-footer.docx'));
    expect(doc.text).toMatch(/^--- header ---\nHeader for section-1\n\nsection with header/);
    expect(doc.text).toMatch(/--- footer ---\nFooter for section 1$/);
  });

  it('python-docx tbl-cell-access.docx: merged cells leave their columns in place', async () => {
    const doc = await readDocument(join(REAL, 'pydocx-tbl-cell-access.docx'));
    expect(doc.text).toContain('| 1 | 2 | 3 |\n| --- | --- | --- |\n| 4 |  | 6 |\n|  |  | 9 |');
  });

  it('mammoth simple-list.docx and python-docx doc-odd-even-hdrs.docx: a list; odd and even headers each once', async () => {
    expect((await readDocument(join(REAL, 'mammoth-simple-list.docx'))).text).toBe('- Apple\n\n- Banana');
    const doc = await readDocument(join(REAL, 'pydocx-doc-odd-even-hdrs.docx'));
    expect(doc.text).toContain('--- header ---\nOdd page header.');
    expect(doc.text).toContain('--- header ---\nEven page header.');
    expect(doc.text).toContain('First Page.');
  });

  it('python-docx par-hyperlinks.docx: links keep their targets', async () => {
    const doc = await readDocument(join(REAL, 'pydocx-par-hyperlinks.docx'));
    expect(doc.text).toContain('the [second one](http://python.org/)');
  });
});
