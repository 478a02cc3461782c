import { pushAll } from '../support/arrays.js';
/**
 * Split a long document into parts a model can take, at the most natural boundary that fits:
 * pages (PDF page markers or form feeds), headings, then paragraphs, then lines. A Markdown
 * table is never cut: its rows stay together in one part.
 */
export const CHUNKINGS = ['headings', 'pages', 'paragraphs'] as const;
export type Chunking = (typeof CHUNKINGS)[number];

const PAGE_MARK = /^--- page \d+ of \d+ ---$/;
const HEADING = /^#{1,6}\s/;
const TABLE_ROW = /^\s*\|/;

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** Lines grouped so a table is one unit (its rows never part). */
function units(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const last = out.length - 1;
    if (TABLE_ROW.test(line) && last >= 0 && TABLE_ROW.test(out[last]!.split('\n').at(-1)!)) {
      out[last] = `${out[last]}\n${line}`;
    } else out.push(line);
  }
  return out;
}

/** Blocks that start at each boundary the chunking allows, finest last. */
function blocks(lines: string[], starts: (line: string, prev: string | undefined) => boolean): string[][] {
  const out: string[][] = [];
  for (const [i, line] of lines.entries()) {
    if (!out.length || starts(line, lines[i - 1])) out.push([]);
    out[out.length - 1]!.push(line);
  }
  return out;
}

const LEVELS: Record<Chunking, ((line: string, prev: string | undefined) => boolean)[]> = {
  pages: [(l) => PAGE_MARK.test(l) || l.startsWith('\f'), (l) => HEADING.test(l), (_l, p) => p === ''],
  headings: [(l) => HEADING.test(l) || PAGE_MARK.test(l), (_l, p) => p === ''],
  paragraphs: [(_l, p) => p === ''],
};

/** Pack pieces greedily into parts of at most `max` bytes; a piece too big alone is split finer. */
function pack(lines: string[], max: number, levels: LevelFn[]): string[] {
  const [level, ...finer] = levels;
  const pieces = level ? blocks(lines, level) : lines.map((l) => [l]);
  const parts: string[] = [];
  let cur: string[] = [];
  let size = 0;
  const flush = () => {
    if (cur.length && cur.join('\n').trim()) parts.push(cur.join('\n'));
    cur = [];
    size = 0;
  };
  for (const piece of pieces) {
    const n = bytes(piece.join('\n')) + 1;
    if (n > max && (level || piece.length > 1)) {
      flush();
      pushAll(parts, pack(piece, max, finer));
      continue;
    }
    if (size + n > max) flush();
    pushAll(cur, piece);
    size += n;
  }
  flush();
  return parts;
}

type LevelFn = (line: string, prev: string | undefined) => boolean;

/** The document in parts of at most about `maxBytes` (a table longer than that stays whole). */
export function splitDocument(text: string, maxBytes: number, how: Chunking = 'headings'): string[] {
  if (bytes(text) <= maxBytes) return [text];
  return pack(units(text.replace(/\r\n/g, '\n')), maxBytes, LEVELS[how]);
}
