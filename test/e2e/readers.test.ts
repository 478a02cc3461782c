/**
 * Real documents read end to end (issue 18 "Done when"): the built zhi, the fake API asking for
 * each file with file_read, and the text the model got back in the next request; then the same
 * files as inputs of a skill run. Legacy encodings and the GBK-CMap PDF are real files from
 * other projects' test suites (test/fixtures/real); the rest are made with the structure needed.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDocx, p, tbl, tc, tr } from '../helpers/docx-build.js';
import { useE2E } from '../helpers/e2e.js';
import { makeFormPdf } from '../helpers/pdf-build.js';
import { buildXlsx } from '../helpers/xlsx-build.js';

const e2e = useE2E();
const REAL = join(import.meta.dirname, '../fixtures/real');

/** What each file must read as: a phrase only a correct extraction contains. */
const EXPECTED: Record<string, string> = {
  'big5.txt': '政府資訊科技總監辦公室',
  'sjis.txt': 'コンピューターは、本質的には数字しか扱うことができません。',
  'euckr.txt': '기본적으로 컴퓨터는 숫자만 처리합니다.',
  'utf32.txt': 'Greek: Μπορώ να φάω σπασμένα γυαλιά',
  'gbk-cmap.pdf': '我们都是黑体字',
  'dates.xlsx': '| 2020年1月1日 | 下午 2时24分 | 2020年1月 | 1月1日 |',
  'merged.docx': '| 华东 | 100 (两季) |  | 200 |',
  'review.docx': '--- comments ---\n[comment 1] 李律师: 金额需与附件一致',
  'form.pdf': '- 申请人姓名: 王小明\n- agree: [x]\n- city: Shanghai',
};

async function makeFiles(cwd: string): Promise<void> {
  copyFileSync(join(REAL, 'charset/big5'), join(cwd, 'big5.txt'));
  copyFileSync(join(REAL, 'charset/shiftjis'), join(cwd, 'sjis.txt'));
  copyFileSync(join(REAL, 'charset/euc_kr'), join(cwd, 'euckr.txt'));
  copyFileSync(join(REAL, 'charset/utf32le'), join(cwd, 'utf32.txt'));
  copyFileSync(join(REAL, 'pdf/issue3521.pdf'), join(cwd, 'gbk-cmap.pdf'));
  copyFileSync(join(REAL, 'pdf/arial_unicode_ab_cidfont.pdf'), join(cwd, 'undecodable.pdf'));
  const serial = 43831.6;
  writeFileSync(
    join(cwd, 'dates.xlsx'),
    await buildXlsx({
      numFmtIds: [31, 55, 57, 58],
      sheets: [
        { name: '日期', rows: [['31', '55', '57', '58'], [1, 2, 3, 4].map((s) => ({ v: serial, s }))] },
      ],
    }),
  );
  const merged = tbl(
    tr(tc(p('地区')) + tc(p('一季度')) + tc(p('二季度')) + tc(p('合计'))) +
      tr(
        tc(p('华东'), '<w:vMerge w:val="restart"/>') +
          tc(p('100 (两季)'), '<w:gridSpan w:val="2"/>') +
          tc(p('200')),
      ),
  );
  writeFileSync(join(cwd, 'merged.docx'), await buildDocx({ body: merged }));
  writeFileSync(
    join(cwd, 'review.docx'),
    await buildDocx({
      body: '<w:p><w:r><w:t>合同金额为一百万元</w:t></w:r><w:r><w:commentReference w:id="7"/></w:r></w:p>',
      header: '机密 · 内部使用',
      comments: [{ id: 7, author: '李律师', text: '金额需与附件一致' }],
    }),
  );
  writeFileSync(join(cwd, 'form.pdf'), makeFormPdf({ name: '王小明', agree: true, city: 'Shanghai' }));
}

describe('file_read of real documents reaches the model as the right text', () => {
  it('Big5, Shift-JIS, EUC-KR, UTF-32, a GBK-CMap PDF, Chinese dates, merged cells, comments and a PDF form', async () => {
    await makeFiles(e2e.cwd);
    const names = [...Object.keys(EXPECTED), 'undecodable.pdf'];
    e2e.fake.script(
      {
        kind: 'tools',
        calls: names.map((n, i) => ({ id: `c${i}`, name: 'file_read', arguments: { path: n } })),
      },
      { kind: 'text', text: '读完了。' },
    );
    const r = await e2e.zhi(['-c', 'read these files']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('读完了。\n');
    const results: Record<string, string> = {};
    for (const m of e2e.fake.chatBodies()[1].messages)
      if (m.role === 'tool') results[m.tool_call_id] = m.content;
    names.forEach((n, i) => {
      if (n in EXPECTED) expect(results[`c${i}`], n).toContain(EXPECTED[n]);
    });
    expect(results[`c${names.indexOf('review.docx')}`]).toContain('--- header ---\n机密 · 内部使用');
    // A file that cannot be read says why, and what to do.
    expect(results[`c${names.indexOf('undecodable.pdf')}`]).toMatch(/cannot be decoded here.*ocr tool/);
  });
});

describe('a skill run reads the same documents', () => {
  it('summarize gets the decoded text of each input in its first message', async () => {
    await makeFiles(e2e.cwd);
    e2e.fake.fallback = () => ({ kind: 'text', text: '摘要完成' });
    for (const name of ['big5.txt', 'gbk-cmap.pdf', 'dates.xlsx', 'review.docx', 'form.pdf']) {
      e2e.fake.reset();
      e2e.fake.fallback = () => ({ kind: 'text', text: '摘要完成' });
      const r = await e2e.zhi(['run', 'summarize', name, '--auto']);
      expect(r.code, `${name}: ${r.stderr}`).toBe(0);
      const first = e2e.fake.chatBodies()[0].messages[1].content as string;
      expect(first, name).toContain(EXPECTED[name]);
    }
  });

  it('a skill input that cannot be read says why, and nothing is sent to the model', async () => {
    writeFileSync(
      join(e2e.cwd, 'broken.docx'),
      Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(64, 7)]),
    );
    const r = await e2e.zhi(['run', 'summarize', 'broken.docx', '--auto']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Cannot read the input file broken.docx.');
    expect(r.stderr).toContain('The file is damaged, or not really the kind of file its extension says.');
    expect(e2e.fake.chatBodies()).toHaveLength(0);
    const zh = await e2e.zhi(['run', 'summarize', 'broken.docx', '--auto', '--language', 'zh']);
    expect(zh.stderr).toContain('无法读取输入文件 broken.docx。');
    expect(zh.stderr).toContain('文件已损坏，或者并不是其扩展名所示的格式。');
    expect(zh.stderr).not.toMatch(/cannot be read as a Word document/);
  });
});
