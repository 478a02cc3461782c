import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDocument } from '../../src/tools/files/readers/index.js';
import { convertWithSoffice, endConversions, findSoffice } from '../../src/tools/files/readers/soffice.js';
import { stretched } from '../helpers/slowdown.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

/** Old and WPS formats through LibreOffice: the same shape as the modern files they came from. */
const OFFICE = join(import.meta.dirname, '../fixtures/office');
const at = (name: string) => join(OFFICE, name);
const soffice = findSoffice();
if (!soffice)
  console.warn('readers-office-libreoffice: LibreOffice (soffice) is not installed; these tests are skipped');

let dir: string;
beforeAll(() => {
  dir = tempDir('zhi-lo-');
});
afterAll(() => {
  // The test worker may be ended without an exit event: the run's LibreOffice profile goes now.
  endConversions();
  cleanup(dir);
});

describe.skipIf(!soffice)('with LibreOffice', () => {
  it(
    'a .doc (and .rtf) reads like the .odt it was made from, and holds every line LibreOffice’s own text export has',
    async () => {
      const [odt, doc, rtf] = await Promise.all([
        readDocument(at('report.odt')),
        readDocument(at('report.doc')),
        readDocument(at('report.rtf')),
      ]);
      expect(doc.notes).toContain('converted with LibreOffice');
      expect(doc.text).toContain('## 一、主要数据');
      expect(doc.text).toContain(odt.text.split('\n\n').slice(1).join('\n\n'));
      expect(rtf.text).toBe(doc.text);
      const own = (await convertWithSoffice(at('report.doc'), '.doc', 'txt:Text (encoded):UTF8')).toString(
        'utf8',
      );
      const ours = doc.text.replace(/ \| /g, '\t').replace(/^\| | \|$/gm, '');
      for (const line of own
        .replace(/^\uFEFF/, '')
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean))
        expect(ours, line).toContain(line);
    },
    stretched(240_000),
  );

  it(
    'an .et (BIFF8 under WPS’s name) reads like the .ods; a .dps like the .pptx',
    async () => {
      copyFileSync(at('sales.xls'), join(dir, 'sales.et'));
      copyFileSync(at('slides.ppt'), join(dir, 'slides.dps'));
      const [ods, et, pptx, dps] = await Promise.all([
        readDocument(at('sales.ods')),
        readDocument(join(dir, 'sales.et')),
        readDocument(at('slides.pptx')),
        readDocument(join(dir, 'slides.dps')),
      ]);
      expect(et.kind).toBe('xls');
      expect(et.text).toBe(ods.text);
      expect(dps.kind).toBe('ppt');
      expect(dps.text).toBe(pptx.text);
    },
    stretched(240_000),
  );

  it(
    'an Excel 4.0 file (a bare BIFF4 stream, not a compound file) is read, not called damaged',
    async () => {
      const bof = Buffer.from([0x09, 0x04, 0x06, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00]);
      const number = Buffer.alloc(18);
      number.writeUInt16LE(0x0203, 0); // NUMBER
      number.writeUInt16LE(14, 2);
      number.writeUInt16LE(0, 4); // row
      number.writeUInt16LE(0, 6); // column
      number.writeUInt16LE(0x0f, 8); // XF
      number.writeDoubleLE(4242, 10);
      const eof = Buffer.from([0x0a, 0x00, 0x00, 0x00]);
      const path = join(dir, 'ledger.xls');
      writeFileSync(path, Buffer.concat([bof, number, eof]));
      const doc = await readDocument(path);
      expect(doc.text).toContain('4242');
      expect(doc.notes).toContain('converted with LibreOffice');
    },
    stretched(120_000),
  );
});
