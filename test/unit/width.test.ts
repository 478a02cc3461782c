import { describe, expect, it } from 'vitest';
import { graphemes } from '../../src/support/graphemes.js';
import { cutToWidth, padToWidth, textWidth, unitsAreCharacters } from '../../src/support/width.js';

describe('textWidth: the one display width', () => {
  it('ASCII is its length; CJK, full-width forms and Hangul take two columns', () => {
    expect(textWidth('hello world')).toBe(11);
    expect(textWidth('产品名称')).toBe(8);
    expect(textWidth('ＡＢ，')).toBe(6);
    expect(textWidth('한국')).toBe(4);
    expect(textWidth('𠀀')).toBe(2);
    expect(textWidth('')).toBe(0);
  });

  it('emoji take two columns, including U+1F680–U+1F8FF (🚀 🛸 🟠 🤖)', () => {
    for (const e of ['🚀', '🛸', '🟠', '🤖', '😀', '🎉']) expect(textWidth(e), e).toBe(2);
    expect(textWidth('ok 🚀')).toBe(5);
  });

  it('clusters take the columns of one character: ZWJ families, skin tones, flags, VS16', () => {
    expect(textWidth('👨‍👩‍👧')).toBe(2);
    expect(textWidth('👍🏽')).toBe(2);
    expect(textWidth('🇨🇳')).toBe(2);
    expect(textWidth('🇨🇳🇯🇵')).toBe(4);
    expect(textWidth('❤️')).toBe(2);
    expect(textWidth('❤')).toBe(1);
    expect(textWidth('🏴󠁧󠁢󠁥󠁮󠁧󠁿')).toBe(2);
  });

  it('combining marks, zero-width characters and variation selectors take none', () => {
    expect(textWidth('e\u0301')).toBe(1);
    expect(textWidth('a\u0301b')).toBe(2);
    expect(textWidth('a\u200bb')).toBe(2);
    expect(textWidth('\ufeffab')).toBe(2);
    expect(textWidth('한')).toBe(2);
  });

  it('escape sequences (colour, OSC 8 links) and control characters are not counted; a tab is 4', () => {
    expect(textWidth('\x1b[1m模型\x1b[22m ab')).toBe(7);
    expect(textWidth('\x1b]8;;https://x.cn\x07link\x1b]8;;\x07')).toBe(4);
    expect(textWidth('a\u0007b')).toBe(2);
    expect(textWidth('a\tb')).toBe(6);
  });

  it('ambiguous characters are narrow (©, →, …, ①)', () => {
    expect(textWidth('© → … ①')).toBe(7);
  });
});

describe('cutting and padding by columns', () => {
  it('cuts between whole characters with an ellipsis, never splitting a cluster', () => {
    expect(cutToWidth('中文中文中文', 7)).toBe('中文中…');
    expect(cutToWidth('short', 10)).toBe('short');
    expect(cutToWidth('👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧', 4)).toBe('👨‍👩‍👧…');
    expect(cutToWidth('👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧', 5)).toBe('👨‍👩‍👧👨‍👩‍👧…');
    expect(cutToWidth('abc', 0)).toBe('');
  });

  it('keeps escape codes and resets the colour after a cut', () => {
    const cut = cutToWidth('\x1b[31m红色的文字\x1b[0m', 5);
    expect(cut).toBe('\x1b[31m红色…\x1b[0m');
    expect(textWidth(cut)).toBe(5);
  });

  it('pads left, right and centre by display width', () => {
    expect(padToWidth('中', 4)).toBe('中  ');
    expect(padToWidth('中', 4, 'right')).toBe('  中');
    expect(padToWidth('ab', 6, 'center')).toBe('  ab  ');
    expect(padToWidth('toolong', 3)).toBe('toolong');
  });

  it('splits plain text by unit and clusters with the segmenter', () => {
    expect(unitsAreCharacters('表格 abc')).toBe(true);
    expect(unitsAreCharacters('e\u0301')).toBe(false);
    expect(graphemes('a👍🏽b')).toEqual(['a', '👍🏽', 'b']);
    expect(graphemes('中文')).toEqual(['中', '文']);
  });
});
