import { describe, expect, it } from 'vitest';
import { splitBlocks, tableParts } from '../../src/page/blocks.js';

const texts = (s: string, from?: number) => splitBlocks(s, from).map((b) => b.text);

describe('the page cuts Markdown into blocks', () => {
  it.each([
    ['one paragraph', 'Hello\nworld', ['Hello\nworld']],
    ['two paragraphs', 'A\n\nB', ['A', 'B']],
    ['a fence keeps its blank lines', 'x\n\n```\na\n\nb\n```\n\ny', ['x', '```\na\n\nb\n```', 'y']],
    ['an indented line continues the block', '- a\n\n  more\n\nB', ['- a\n\n  more', 'B']],
    [
      'a table is one block',
      'T:\n\n| a |\n|---|\n| 1 |\n| 2 |\n\nend',
      ['T:', '| a |\n|---|\n| 1 |\n| 2 |', 'end'],
    ],
    ['blank lines at the end', 'A\n\n\n', ['A']],
  ])('%s', (_, text, blocks) => {
    expect(texts(text)).toEqual(blocks);
  });

  it('cutting again from the last block gives what cutting the whole text gives', () => {
    const whole = 'A\n\nB\n\n| a |\n|---|\n| 1 |\n\nC and more';
    const before = splitBlocks(whole.slice(0, 14));
    const last = before.at(-1)!;
    const again = [...before.slice(0, -1), ...splitBlocks(whole, last.start)];
    expect(again).toEqual(splitBlocks(whole));
  });

  it('a table block gives its head and rows; a block with prose after it is not a table', () => {
    expect(tableParts('| a | b |\n|:--|--:|\n| 1 | 2 |')).toEqual({
      head: '| a | b |\n|:--|--:|',
      rows: ['| 1 | 2 |'],
    });
    expect(tableParts('| a |\n|---|\n| 1 |\nnot a row')).toBeUndefined();
    expect(tableParts('just text\nmore')).toBeUndefined();
  });
});
