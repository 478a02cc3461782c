/**
 * Issue 45 point 6: big XML parts are parsed in slices, with a turn of the event loop between
 * them, so that Ctrl+C stops a read. The slices give the same tree as one parse (a slice never
 * ends between the two halves of an emoji), and an interrupted read stops at the next slice.
 */
import { describe, expect, it } from 'vitest';
import { withReadSignal } from '../../src/tools/files/readers/read-signal.js';
import { parseTree, parseTreeInSlices } from '../../src/tools/files/readers/xml-tree.js';

/** About 1.7 M characters of paragraphs, text with emoji (two UTF-16 units each) at every offset. */
function bigXml(): string {
  const paras: string[] = [];
  for (let i = 0; i < 40_000; i++) paras.push(`<w:p><w:t>段落 ${i} 😀${'x'.repeat(i % 7)}🎉 end</w:t></w:p>`);
  return `<w:document><w:body>${paras.join('')}</w:body></w:document>`;
}

describe('parseTreeInSlices', () => {
  it('gives the same tree as one parse, emoji across slice ends included', async () => {
    const xml = bigXml();
    expect(xml.length).toBeGreaterThan(1024 * 1024);
    expect(await parseTreeInSlices(xml)).toEqual(parseTree(xml));
  });

  it('an emoji whose first half ends a slice stays whole', async () => {
    const head = '<a><t>';
    // The first slice is 256 K characters: the emoji's high surrogate is its last one.
    const xml = `${head}${'x'.repeat(256 * 1024 - 1 - head.length)}😀 and more</t>${'<b/>'.repeat(70_000)}</a>`;
    expect(xml.charCodeAt(256 * 1024 - 1)).toBe(0xd83d);
    const tree = await parseTreeInSlices(xml);
    expect(tree).toEqual(parseTree(xml));
    expect(JSON.stringify(tree)).toContain('😀 and more');
  });

  it('a small part is parsed at once, also without a read under way', async () => {
    expect(await parseTreeInSlices('<a><b>x</b></a>')).toEqual(parseTree('<a><b>x</b></a>'));
  });

  it('stops at the next slice when the read is interrupted', async () => {
    const stop = new AbortController();
    const read = withReadSignal(stop.signal, () => {
      const parsing = parseTreeInSlices(bigXml());
      // The first slice is parsed synchronously; the abort comes before the second.
      stop.abort();
      return parsing;
    });
    await expect(read).rejects.toThrow('Interrupted.');
  });
});
