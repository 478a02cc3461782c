import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDocument } from '../../src/tools/files/readers/index.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let dir: string;
beforeAll(() => {
  dir = tempDir('zhi-paging-');
});
afterAll(() => cleanup(dir));

/** Read a file page by page through the offsets the reader hands out, and join the pages. */
async function readAll(
  p: string,
  maxBytes: number,
): Promise<{ text: string; pages: number; offsets: number[] }> {
  let offset = 0;
  const parts: string[] = [];
  const offsets: number[] = [];
  for (let n = 0; n < 1000; n++) {
    const doc = await readDocument(p, { maxBytes, offset });
    offsets.push(doc.offset);
    parts.push(doc.truncated ? doc.text.slice(0, doc.text.lastIndexOf('\n\n[truncated')) : doc.text);
    if (!doc.truncated) return { text: parts.join(''), pages: n + 1, offsets };
    expect(doc.nextOffset).toBeGreaterThan(offset);
    offset = doc.nextOffset!;
  }
  throw new Error('did not end');
}

describe('text paged by byte range', () => {
  const text = Array.from({ length: 400 }, (_, i) => `第${i}行：汇总 ${'数据'.repeat(i % 7)} 😀 end\n`).join(
    '',
  );

  for (const [label, bytes] of [
    ['UTF-8', Buffer.from(text, 'utf8')],
    ['UTF-16LE with BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])],
    ['GBK', iconv.encode(text.replace(/😀/g, '☆'), 'gb18030')],
    ['UTF-32BE', iconv.encode(`\ufeff${text}`, 'utf-32be')],
  ] as const) {
    it(`${label}: pages join up exactly, never split a character, and each page fits`, async () => {
      const p = join(dir, `${label}.txt`);
      writeFileSync(p, bytes);
      const expected = label === 'GBK' ? text.replace(/😀/g, '☆') : text;
      const all = await readAll(p, 1000);
      expect(all.pages).toBeGreaterThan(10);
      expect(all.text).toBe(expected);
      // Offsets mean the same on every call: reading a page again gives the same page.
      const again = await readDocument(p, { maxBytes: 1000, offset: all.offsets[3]! });
      expect(again.offset).toBe(all.offsets[3]);
      const first = await readDocument(p, { maxBytes: 1000, offset: all.offsets[3]! });
      expect(first.text).toBe(again.text);
    });
  }

  it('an offset inside a UTF-8 character moves to the next whole character', async () => {
    const p = join(dir, 'mid.txt');
    writeFileSync(p, '你好世界');
    const doc = await readDocument(p, { offset: 1 });
    expect(doc.offset).toBe(3);
    expect(doc.text).toBe('好世界');
  });

  it('pages end inside a line only when the line is longer than a page (GBK)', async () => {
    const p = join(dir, 'long-line.txt');
    const long = '长'.repeat(3000);
    writeFileSync(p, iconv.encode(long, 'gb18030'));
    const all = await readAll(p, 1000);
    expect(all.text).toBe(long);
  });
});
