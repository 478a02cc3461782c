import { textWidth } from '../support/width.js';

/** What a command or option does starts at most this far in; a longer one has it on the next line. */
const MAX_COLUMN = 36;

/**
 * `zhi --help` laid out. In the catalogue a tab separates a command or option from what it does;
 * here, in each paragraph, what it does starts in one column, measured in display width (a
 * Chinese placeholder such as <目录> is two columns a character, which padding by length got one
 * column wrong), and a command too long for that column has its description on the next line.
 */
export function layoutHelp(text: string): string {
  return text.split('\n\n').map(paragraph).join('\n\n');
}

function paragraph(block: string): string {
  const rows = block.split('\n').map((line) => line.split('\t'));
  let column = 0;
  for (const [left, what] of rows) {
    const width = textWidth(left!) + 2;
    if (what !== undefined && width <= MAX_COLUMN) column = Math.max(column, width);
  }
  return rows
    .map(([left, what]) => {
      if (what === undefined) return left!;
      const width = textWidth(left!);
      if (column && width + 2 <= column) return `${left}${' '.repeat(column - width)}${what}`;
      return `${left}\n${' '.repeat(column || MAX_COLUMN)}${what}`;
    })
    .join('\n');
}
