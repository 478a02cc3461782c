// Markdown cut into top-level blocks, and a table block into its head and rows: plain text work,
// so a streamed answer is re-rendered one block (or one part of a table) at a time.

export interface Block {
  /** Where the block starts in the text (a line start outside any code fence). */
  start: number;
  text: string;
}

/**
 * The text from `from` (a block's start) cut into top-level blocks: at a blank line outside a
 * code fence whose next line starts at the margin. Each block renders on its own, so a growing
 * answer costs one block per frame, and is cut again only from its last block on.
 */
export function splitBlocks(text: string, from = 0): Block[] {
  const blocks: Block[] = [];
  let start = from;
  let fence: string | undefined;
  let at = from;
  while (at <= text.length) {
    const end = text.indexOf('\n', at);
    const lineEnd = end < 0 ? text.length : end;
    const line = text.slice(at, lineEnd);
    const next = end < 0 ? undefined : end + 1;
    const mark = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (mark) {
      if (fence === undefined) fence = mark[0];
      else if (mark[0] === fence) fence = undefined;
    } else if (fence === undefined && line.trim() === '' && next !== undefined && next < text.length) {
      const c = text[next] ?? '';
      if (c !== '\n' && !/\s/.test(c)) {
        push(blocks, text, start, at);
        start = next;
      }
    }
    if (end < 0) break;
    at = end + 1;
  }
  push(blocks, text, start, text.length);
  return blocks;
}

function push(blocks: Block[], text: string, start: number, end: number): void {
  const body = text.slice(start, end).replace(/\n+$/, '');
  if (body.trim() !== '') blocks.push({ start, text: body });
}

/** A table block's header (its first two lines) and rows, when the block is a table. */
export function tableParts(block: string): { head: string; rows: string[] } | undefined {
  const lines = block.split('\n');
  if (
    lines.length < 3 ||
    !/^\s*\|/.test(lines[0] ?? '') ||
    !/^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/.test(lines[1] ?? '')
  )
    return undefined;
  const rows = lines.slice(2);
  // Anything after the table in the same block (a line without a pipe) is not a row.
  if (rows.some((r) => r.trim() !== '' && !r.includes('|'))) return undefined;
  return { head: lines.slice(0, 2).join('\n'), rows };
}
