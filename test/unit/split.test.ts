import { describe, expect, it } from 'vitest';
import { splitDocument } from '../../src/skills/split.js';

const para = (n: number, words = 40) => `Paragraph ${n}: ${'word '.repeat(words).trim()}.`;

describe('splitDocument', () => {
  it('keeps a short document whole', () => {
    expect(splitDocument('hello', 100)).toEqual(['hello']);
  });

  it('splits at headings, keeping every line once and in order', () => {
    const sections = Array.from({ length: 12 }, (_, i) => `# Section ${i}\n\n${para(i)}\n\n${para(i + 100)}`);
    const text = sections.join('\n\n');
    const parts = splitDocument(text, 1200, 'headings');
    expect(parts.length).toBeGreaterThan(2);
    for (const p of parts) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(1200);
    for (const p of parts) expect(p.trimStart().startsWith('# Section')).toBe(true);
    expect(parts.join('\n').replace(/\n+/g, '\n')).toBe(text.replace(/\n+/g, '\n'));
  });

  it('splits at PDF page markers with chunking: pages', () => {
    const pages = Array.from({ length: 30 }, (_, i) => `--- page ${i + 1} of 30 ---\n${para(i, 30)}`);
    const parts = splitDocument(pages.join('\n'), 700, 'pages');
    for (const p of parts) expect(p.startsWith('--- page ')).toBe(true);
    expect(parts.join('\n')).toBe(pages.join('\n'));
  });

  it('never cuts inside a table', () => {
    const table = [
      '| a | b |',
      '| --- | --- |',
      ...Array.from({ length: 40 }, (_, i) => `| row ${i} | ${i * 2} |`),
    ].join('\n');
    const text = `${para(1, 60)}\n\n${table}\n\n${para(2, 60)}`;
    const parts = splitDocument(text, 400, 'paragraphs');
    const withTable = parts.filter((p) => p.includes('| row'));
    expect(withTable).toHaveLength(1);
    expect(withTable[0]).toContain(table);
  });

  it('falls back to lines for one giant paragraph', () => {
    const text = Array.from({ length: 200 }, (_, i) => `line ${i} ${'x'.repeat(20)}`).join('\n');
    const parts = splitDocument(text, 1000, 'headings');
    expect(parts.length).toBeGreaterThan(4);
    expect(parts.join('\n')).toBe(text);
  });

  it('counts bytes, so Chinese text gets smaller parts', () => {
    const text = Array.from({ length: 50 }, (_, i) => `第${i}段：${'合同条款内容'.repeat(20)}`).join('\n\n');
    for (const p of splitDocument(text, 2000, 'paragraphs'))
      expect(Buffer.byteLength(p)).toBeLessThanOrEqual(2000);
  });
});
