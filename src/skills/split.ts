import { pushAll } from '../support/arrays.js';
/**
 * Split a long document into parts a model can take, at the most natural boundary that fits:
 * pages (PDF page markers or form feeds), headings, then paragraphs, then lines. A Markdown
 * table is never cut: its rows stay together in one part. Parts are found as ranges of the text
 * (splitRanges), so a long file can be split a window at a time and each part read from the
 * file only when it is sent (skills/long-source.ts).
 */
export const CHUNKINGS = ['headings', 'pages', 'paragraphs'] as const;
export type Chunking = (typeof CHUNKINGS)[number];

const PAGE_MARK = /^--- page \d+ of \d+ ---$/;
const HEADING = /^#{1,6}\s/;
const TABLE_ROW = /^\s*\|/;

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** Lines (a table's rows as one): the text with CRLF read as LF, and where it sits in the text. */
interface Unit {
  text: string;
  /** Where its first line starts. */
  from: number;
  /** Where its last line ends (before the line break). */
  to: number;
}

/** A part: the text from `from` to `to` (its line breaks read as LF). */
export interface Range {
  from: number;
  to: number;
}

/** Lines grouped so a table is one unit (its rows never part). */
function units(text: string): Unit[] {
  const out: Unit[] = [];
  for (let from = 0; from <= text.length; ) {
    const nl = text.indexOf('\n', from);
    const next = nl < 0 ? text.length + 1 : nl + 1;
    // A CR before the LF is part of the line break (splitDocument reads CRLF as LF).
    const to = nl > from && text[nl - 1] === '\r' ? nl - 1 : nl < 0 ? text.length : nl;
    const line = text.slice(from, to);
    const last = out.at(-1);
    if (last && TABLE_ROW.test(line) && TABLE_ROW.test(last.text.slice(last.text.lastIndexOf('\n') + 1))) {
      last.text = `${last.text}\n${line}`;
      last.to = to;
    } else out.push({ text: line, from, to });
    from = next;
  }
  return out;
}

/** Blocks that start at each boundary the chunking allows, finest last. */
function blocks(lines: Unit[], starts: LevelFn): Unit[][] {
  const out: Unit[][] = [];
  for (const [i, line] of lines.entries()) {
    if (!out.length || starts(line.text, lines[i - 1]?.text)) out.push([]);
    out[out.length - 1]!.push(line);
  }
  return out;
}

const LEVELS: Record<Chunking, ((line: string, prev: string | undefined) => boolean)[]> = {
  pages: [(l) => PAGE_MARK.test(l) || l.startsWith('\f'), (l) => HEADING.test(l), (_l, p) => p === ''],
  headings: [(l) => HEADING.test(l) || PAGE_MARK.test(l), (_l, p) => p === ''],
  paragraphs: [(_l, p) => p === ''],
};

/** Bytes of units joined by line breaks, plus one. */
const size = (piece: Unit[]) => piece.reduce((n, u) => n + bytes(u.text) + 1, 0);

/** Pack pieces greedily into parts of at most `max` bytes; a piece too big alone is split finer. */
function pack(lines: Unit[], max: number, levels: LevelFn[]): Range[] {
  const [level, ...finer] = levels;
  const pieces = level ? blocks(lines, level) : lines.map((l) => [l]);
  const parts: Range[] = [];
  let cur: Unit[] = [];
  let used = 0;
  const flush = () => {
    if (cur.some((u) => u.text.trim())) parts.push({ from: cur[0]!.from, to: cur.at(-1)!.to });
    cur = [];
    used = 0;
  };
  for (const piece of pieces) {
    const n = size(piece);
    if (n > max && (level || piece.length > 1)) {
      flush();
      pushAll(parts, pack(piece, max, finer));
      continue;
    }
    if (used + n > max) flush();
    pushAll(cur, piece);
    used += n;
  }
  flush();
  return parts;
}

type LevelFn = (line: string, prev: string | undefined) => boolean;

/** Where the parts of at most about `maxBytes` are in the text (a longer table stays whole). */
export function splitRanges(text: string, maxBytes: number, how: Chunking = 'headings'): Range[] {
  return pack(units(text), maxBytes, LEVELS[how]);
}

/** A part's text: CRLF read as LF, as the splitter measured it. */
export function partText(text: string, r: Range): string {
  return text.slice(r.from, r.to).replace(/\r\n/g, '\n');
}

/** The document in parts of at most about `maxBytes` (a table longer than that stays whole). */
export function splitDocument(text: string, maxBytes: number, how: Chunking = 'headings'): string[] {
  if (bytes(text) <= maxBytes) return [text];
  return splitRanges(text, maxBytes, how).map((r) => partText(text, r));
}
