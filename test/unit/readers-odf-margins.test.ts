/**
 * Issue 45 point 5: OpenDocument text as a person sees it — the master pages' headers and footers
 * (page numbers left out), and numbered headings that continue (LibreOffice writes each numbered
 * heading of a converted Word file as a list of its own), not "1." every time.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDocument } from '../../src/tools/files/readers/index.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:xml="http://www.w3.org/XML/1998/namespace"';

const heading = (id: string, title: string, first: boolean) =>
  `<text:list xml:id="${id}" ${first ? '' : 'text:continue-numbering="true" '}text:style-name="WWNum1"><text:list-item><text:h text:outline-level="1">${title}</text:h></text:list-item></text:list>`;

async function odt(): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('mimetype', 'application/vnd.oasis.opendocument.text', { compression: 'STORE' });
  zip.file(
    'content.xml',
    `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NS}><office:automatic-styles><text:list-style style:name="WWNum1"><text:list-level-style-number text:level="1" style:num-format="1"/></text:list-style></office:automatic-styles><office:body><office:text>${heading('l1', '概述', true)}<text:p>正文一。</text:p>${heading('l2', '数据', false)}<text:p>正文二。</text:p>${heading('l3', '结论', false)}</office:text></office:body></office:document-content>`,
  );
  zip.file(
    'styles.xml',
    `<?xml version="1.0" encoding="UTF-8"?><office:document-styles ${NS}><office:master-styles><style:master-page style:name="Standard"><style:header><text:p>华东公司 季度报告</text:p></style:header><style:footer><text:p>机密 · 第 <text:page-number>3</text:page-number> 页</text:p></style:footer></style:master-page></office:master-styles></office:document-styles>`,
  );
  zip.file(
    'META-INF/manifest.xml',
    '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/></manifest:manifest>',
  );
  return zip.generateAsync({ type: 'nodebuffer' });
}

let dir: string;
beforeAll(() => {
  dir = tempDir('zhi-odt-');
});
afterAll(() => cleanup(dir));

describe('OpenDocument text', () => {
  it('gives the page header and footer (without the page number) and numbers headings 1, 2, 3', async () => {
    const path = join(dir, 'report.odt');
    writeFileSync(path, await odt());
    const doc = await readDocument(path);
    expect(doc.text).toContain('--- header ---\n华东公司 季度报告');
    expect(doc.text).toContain('--- footer ---\n机密 · 第  页');
    expect(doc.text).not.toContain('第 3 页');
    expect(doc.text).toMatch(/^# 1\. 概述$[\s\S]*^# 2\. 数据$[\s\S]*^# 3\. 结论$/m);
  });
});
