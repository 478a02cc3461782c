import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as CFB from 'cfb';
import { zipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readDocument } from '../../src/tools/files/readers/index.js';
import { readRtf } from '../../src/tools/files/readers/rtf.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

/** Files generated for these tests with LibreOffice and pptxgenjs (test/fixtures/office/README.md). */
const OFFICE = join(import.meta.dirname, '../fixtures/office');
const at = (name: string) => join(OFFICE, name);

const SLIDES = [
  '## Slide 1\n\n项目启动会\n\n2024年3月\n\nNotes:\n欢迎大家参加启动会。',
  '## Slide 2\n\n目标\n\n- 按时交付第一版\n- Keep costs under budget\n\nNotes:\n强调交付日期。',
  '## Slide 3\n\n分工\n\n| 姓名 | 职责 |\n| --- | --- |\n| 张三 | 开发 |\n| 李四 | 测试 |',
].join('\n\n');
const TABLE =
  '| 地区 | 销售额（万元） | 增长 |\n| --- | --- | --- |\n| 上海 | 1,250 | 15% |\n| 杭州 | 980 | 9% |';
const SHEET =
  '## sales\n\n| 产品 | 单价 | 数量 | 日期 |\n| --- | --- | --- | --- |\n| 笔记本 | 12.5 | 40 | 2024-03-16 |\n| 钢笔 | 8 | 100 | 2024-03-17 |';

let dir: string;
beforeAll(() => {
  dir = tempDir('zhi-office-');
});
afterAll(() => cleanup(dir));
const saved = process.env.ZHI_SOFFICE;
afterEach(() => {
  if (saved === undefined) delete process.env.ZHI_SOFFICE;
  else process.env.ZHI_SOFFICE = saved;
});

describe('presentations and OpenDocument, natively', () => {
  it('a .pptx: numbered slides, bullets, a table and speaker notes', async () => {
    const doc = await readDocument(at('slides.pptx'));
    expect(doc.kind).toBe('pptx');
    expect(doc.text).toBe(SLIDES);
    expect(doc.pages).toBe(3);
  });

  it('an .odp gives the same shape as the .pptx it was made from', async () => {
    const doc = await readDocument(at('slides.odp'));
    expect(doc.text).toBe(SLIDES);
  });

  it('an .odt: headings by outline level and the table as a table', async () => {
    const doc = await readDocument(at('report.odt'));
    expect(doc.text).toContain('## 一、主要数据');
    expect(doc.text).toContain(TABLE);
    expect(doc.text).toContain('加强渠道建设，提升客户满意度。');
  });

  it('an .ods: each sheet as a section with its table, values as shown', async () => {
    const doc = await readDocument(at('sales.ods'));
    expect(doc.text).toBe(SHEET);
    expect(doc.sheets).toEqual(['sales']);
  });

  it('an encrypted OpenDocument file is refused plainly', async () => {
    const manifest =
      '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="content.xml"><manifest:encryption-data manifest:checksum-type="SHA1"/></manifest:file-entry></manifest:manifest>';
    const path = join(dir, 'secret.odt');
    writeFileSync(
      path,
      zipSync({
        'META-INF/manifest.xml': new TextEncoder().encode(manifest),
        'content.xml': new Uint8Array([1, 2, 3]),
      }),
    );
    await expect(readDocument(path)).rejects.toMatchObject({
      code: 'encrypted',
      message: expect.stringContaining('password-protected'),
    });
  });
});

describe('old and WPS formats without LibreOffice', () => {
  it('a .doc and the same file named .wps are read by word-extractor, Chinese intact', async () => {
    process.env.ZHI_SOFFICE = 'off';
    const wps = join(dir, 'report.wps');
    copyFileSync(at('report.doc'), wps);
    for (const path of [at('report.doc'), wps]) {
      const doc = await readDocument(path);
      expect(doc.kind).toBe('doc');
      expect(doc.text).toContain(
        '本报告总结了华东地区第三季度的销售情况。Sales grew by 12% over the quarter.',
      );
      expect(doc.text).toContain('上海\t1,250\t15%');
      expect(doc.notes.join()).toContain('without LibreOffice');
    }
  });

  it('an .rtf is read by the tokenizer: Unicode escapes and the table', async () => {
    process.env.ZHI_SOFFICE = 'off';
    const doc = await readDocument(at('report.rtf'));
    expect(doc.text).toContain('本报告总结了华东地区第三季度的销售情况。');
    expect(doc.text).toContain(TABLE);
    expect(doc.text).not.toMatch(/Times New Roman|Liberation/);
  });

  it('RTF bytes in the GBK code page, skipped destinations, \\uN with its fallback', () => {
    const rtf = String.raw`{\rtf1\ansi\ansicpg936{\fonttbl{\f0\fnil\fcharset134 SimSun;}}{\*\generator X;}{\info{\title T}}\f0 \'d6\'d0\'ce\'c4\par \u21512?\u21516? A\tab B\par}`;
    expect(readRtf(Buffer.from(rtf, 'latin1')).text).toBe('中文\n\n合同 A\tB');
  });

  it('.xls and .ppt without LibreOffice say what to do', async () => {
    process.env.ZHI_SOFFICE = 'off';
    await expect(readDocument(at('sales.xls'))).rejects.toMatchObject({
      code: 'unsupported',
      message: expect.stringContaining('LibreOffice'),
    });
    await expect(readDocument(at('slides.ppt'))).rejects.toMatchObject({
      code: 'unsupported',
      message: expect.stringContaining('.pptx'),
    });
  });

  it('encrypted compound files are refused: EncryptionInfo, a FIB with fEncrypted, FILEPASS', async () => {
    const cases: [string, string, Uint8Array][] = [];
    const fib = new Uint8Array(64);
    fib[0x0b] = 0x01;
    cases.push(['fib.doc', 'WordDocument', fib]);
    cases.push([
      'filepass.xls',
      'Workbook',
      new Uint8Array([0x09, 0x08, 0x02, 0x00, 0, 6, 0x2f, 0x00, 0x00, 0x00]),
    ]);
    cases.push(['agile.ppt', 'EncryptionInfo', new Uint8Array(16)]);
    for (const [name, stream, content] of cases) {
      const cfb = CFB.utils.cfb_new();
      CFB.utils.cfb_add(cfb, `/${stream}`, Buffer.from(content));
      const path = join(dir, name);
      writeFileSync(path, CFB.write(cfb, { type: 'buffer' }) as Buffer);
      await expect(readDocument(path), name).rejects.toMatchObject({ code: 'encrypted' });
    }
  });
});
