import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLongSource } from '../../src/agent/skills/long-source.js';
import { splitDocument } from '../../src/skills/split.js';
import { readDocument } from '../../src/tools/files/readers/index.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'zhi-long-source-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const PART = 4096;
const open = (file: string) =>
  openLongSource(join(dir, file), {
    read: readDocument,
    short: 8192,
    max: 50 * 1024 * 1024,
    partBytes: PART,
    how: 'headings',
    signal: new AbortController().signal,
    name: file,
  });
const all = async (src: NonNullable<Awaited<ReturnType<typeof open>>>) => {
  const out: string[] = [];
  for (let i = 0; i < src.count; i++) out.push(await src.part(i));
  return out;
};

/** Sections of varied length, Chinese and English, one with a table. */
function report(sections: number, eol = '\n'): string {
  return Array.from({ length: sections }, (_, i) => {
    const body = `第${i}节：${'收入与支出的说明。'.repeat(5 + (i % 9) * 7)} Figures for part ${i}.`;
    const table = i % 11 === 3 ? `${eol}${eol}| a | b |${eol}| --- | --- |${eol}| ${i} | ${i * 2} |` : '';
    return `## Section ${i}${eol}${eol}${body}${table}`;
  }).join(`${eol}${eol}`);
}

describe('openLongSource', () => {
  it('splits a UTF-8 file a window at a time into the parts splitDocument gives the whole text', async () => {
    const text = report(400);
    writeFileSync(join(dir, 'r.md'), text);
    const src = (await open('r.md'))!;
    expect(src.count).toBeGreaterThan(20);
    expect(await all(src)).toEqual(splitDocument(text, PART, 'headings'));
  });

  it('reads CRLF as LF and skips a BOM, as the whole-text path does', async () => {
    const text = report(300, '\r\n');
    writeFileSync(join(dir, 'crlf.md'), `\uFEFF${text}`);
    const src = (await open('crlf.md'))!;
    const parts = await all(src);
    expect(parts).toEqual(splitDocument(text, PART, 'headings'));
    expect(parts.join('')).not.toContain('\r');
  });

  it('keeps a GBK file in memory, split the same way; a short file is not long', async () => {
    const text = report(300);
    writeFileSync(join(dir, 'gbk.txt'), iconv.encode(text, 'gb18030'));
    const src = (await open('gbk.txt'))!;
    expect(await all(src)).toEqual(splitDocument(text, PART, 'headings'));
    writeFileSync(join(dir, 'short.md'), 'A short note.');
    expect(await open('short.md')).toBeUndefined();
  });

  it('a line longer than a window is read whole, and no text is lost or repeated around it', async () => {
    const text = `${report(20)}\n\n${'一行很长的文字 long line '.repeat(3000)}\n\n${report(20)}`;
    writeFileSync(join(dir, 'line.md'), text);
    const parts = await all((await open('line.md'))!);
    expect(parts.join('').replace(/\s+/g, '')).toBe(text.replace(/\s+/g, ''));
  });

  it('the same parts give the same hash; a part read after the file changed is refused', async () => {
    const text = report(200);
    writeFileSync(join(dir, 'a.md'), text);
    writeFileSync(join(dir, 'gbk.txt'), iconv.encode(text, 'gb18030'));
    const a = (await open('a.md'))!;
    expect(a.hash).toBe((await open('gbk.txt'))!.hash);
    writeFileSync(join(dir, 'a.md'), text.replace('Section 5', 'Section X'));
    await expect(all(a)).rejects.toThrow(/a\.md changed while its parts were being processed/);
  });
});
