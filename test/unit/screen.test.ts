/** The live area writes only what changed (issue 31: terminal bytes ≤ 3× the answer's). */
import { describe, expect, it } from 'vitest';
import { Screen } from '../../src/cli/render/screen.js';

function term() {
  const out: string[] = [];
  return { out, write: (s: string) => out.push(s), columns: () => 80, rows: () => 24 };
}

describe('the screen', () => {
  it('prints finished lines with the next live area under them, never the old one again', () => {
    const t = term();
    const screen = new Screen(t);
    screen.setLive(['old live line']);
    t.out.length = 0;
    screen.print(['a finished paragraph'], ['the next live line']);
    const written = t.out.join('');
    expect(written).toContain('a finished paragraph\n');
    expect(written).toContain('the next live line\n');
    expect(written).not.toContain('old live line');
    expect(screen.liveLines).toEqual(['the next live line']);
  });

  it('writes only the new text when the last live line grew', () => {
    const t = term();
    const screen = new Screen(t);
    screen.setLive(['', '这是一段说明']);
    t.out.length = 0;
    screen.setLive(['', '这是一段说明文字']);
    expect(t.out).toEqual(['\x1b[1A\x1b[13G文字\r\n']);
    expect(screen.liveLines).toEqual(['', '这是一段说明文字']);
    // A line ending in a style, or one that changed inside, is drawn again from that line.
    t.out.length = 0;
    screen.setLive(['', '这是一段说明文字 \x1b[1mbold\x1b[22m']);
    screen.setLive(['', '这是一段说明文字 \x1b[1mbold\x1b[22m!']);
    expect(t.out.at(-1)).toContain('\x1b[J');
  });

  it('keeps live lines that become output unchanged, and writes only the tail of one that grew', () => {
    const t = term();
    const screen = new Screen(t);
    screen.setLive(['# Title', '', '- first point', '- second po']);
    t.out.length = 0;
    screen.print(['# Title', '', '- first point', '- second point'], ['next']);
    const written = t.out.join('');
    // Nothing above the grown line is erased or written again; the grown line gets its tail.
    expect(written).not.toContain('Title');
    expect(written).not.toContain('first point');
    expect(written).toContain('\x1b[1A\x1b[12Gint\r\n');
    expect(written).toContain('\r\x1b[Jnext\n');
    expect(screen.liveLines).toEqual(['next']);
    // print() without a new live area draws the old one again under the output, as it was.
    screen.setLive(['a', 'grow']);
    t.out.length = 0;
    screen.print(['a', 'growing']);
    expect(t.out.join('')).toContain('\x1b[1A\x1b[5Ging\r\n');
    expect(t.out.join('')).toContain('\x1b[Ja\ngrow\n');
    expect(screen.liveLines).toEqual(['a', 'grow']);
  });
});
