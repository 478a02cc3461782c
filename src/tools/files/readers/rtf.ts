/**
 * RTF as text, for when LibreOffice is not installed: a small tokenizer (RTF 1.9.1) that keeps
 * the document's characters and drops its tables of fonts, colours, styles, pictures and
 * metadata. Characters come as `\uN` (Unicode) or `\'hh` bytes in the code page of the document
 * (`\ansicpgN`) or of the current font (`\fcharsetN`: 134 is GBK, 136 Big5, 128 Shift-JIS);
 * table rows (`\cell`, `\row`) become Markdown tables.
 */
import iconv from 'iconv-lite';
import { mdTable } from './markdown.js';
import type { Extracted } from './types.js';

/** Destinations whose text is not document text. */
const SKIP = new Set([
  'fonttbl',
  'colortbl',
  'stylesheet',
  'info',
  'pict',
  'object',
  'themedata',
  'colorschememapping',
  'latentstyles',
  'datastore',
  'xmlnstbl',
  'listtable',
  'listoverridetable',
  'rsidtbl',
  'generator',
  'fldinst',
  'bkmkstart',
  'bkmkend',
  'header',
  'headerl',
  'headerr',
  'headerf',
  'footer',
  'footerl',
  'footerr',
  'footerf',
  'filetbl',
  'revtbl',
  'pgdsctbl',
  'mmathPr',
  'listtext',
  'pntext',
  'pntxta',
  'pntxtb',
]);

/** Windows charset numbers (`\fcharsetN`) to code pages. */
const CHARSET_CP: Record<number, number> = {
  128: 932,
  129: 949,
  134: 936,
  136: 950,
  161: 1253,
  162: 1254,
  177: 1255,
  178: 1256,
  186: 1257,
  204: 1251,
  222: 874,
  238: 1250,
};

interface Group {
  skip: boolean;
  uc: number;
  font: number;
}

/** Control words that stand for one character. */
const SYMBOLS: Record<string, string> = {
  line: '\n',
  tab: '\t',
  emdash: '—',
  endash: '–',
  lquote: '‘',
  rquote: '’',
  ldblquote: '“',
  rdblquote: '”',
  bullet: '•',
};

const CONTROL = /^\\(?:([a-zA-Z]+)(-?\d+)? ?|'([0-9a-fA-F]{2})|(.))/s;

export function readRtf(data: Buffer): Extracted {
  const reader = new RtfReader(data.toString('latin1'));
  return { text: toMarkdown(reader.read()) || '(This document is empty.)' };
}

/**
 * One pass over the RTF source: groups (a stack of skip / Unicode-skip / font states), control
 * words, escaped bytes (decoded in the code page of the current font, else the document's) and
 * text, into paragraphs and table rows.
 */
class RtfReader {
  private docCp = 1252;
  private readonly fontCp = new Map<number, number>();
  private readonly stack: Group[] = [];
  private g: Group = { skip: false, uc: 1, font: -1 };
  private readonly lines: (string | string[])[] = [];
  private line = '';
  private row: string[] = [];
  private bytes: number[] = [];
  private skipChars = 0;
  private inFontTable = 0;
  private fontNo = -1;
  private i = 0;

  constructor(private readonly src: string) {}

  read(): (string | string[])[] {
    const src = this.src;
    while (this.i < src.length) {
      const c = src[this.i]!;
      if (c === '{') this.open();
      else if (c === '}') this.close();
      else if (c === '\r' || c === '\n') this.i++;
      else if (c !== '\\') this.plain(c);
      else this.control();
    }
    this.flushBytes();
    if (this.line) this.lines.push(this.line);
    return this.lines;
  }

  private flushBytes(): void {
    if (!this.bytes.length) return;
    const cp = this.fontCp.get(this.g.font) ?? this.docCp;
    const enc = iconv.encodingExists(`cp${cp}`) ? `cp${cp}` : 'cp1252';
    this.line += iconv.decode(Buffer.from(this.bytes), cp === 936 ? 'gb18030' : enc);
    this.bytes = [];
  }

  private emit(s: string): void {
    if (this.g.skip) return;
    if (this.skipChars > 0) {
      this.skipChars--;
      return;
    }
    this.flushBytes();
    this.line += s;
  }

  private open(): void {
    this.flushBytes();
    this.stack.push(this.g);
    this.g = { ...this.g };
    this.i++;
  }

  private close(): void {
    this.flushBytes();
    if (this.inFontTable && this.stack.length < this.inFontTable) this.inFontTable = 0;
    this.g = this.stack.pop() ?? this.g;
    if (this.inFontTable && this.stack.length < this.inFontTable) this.inFontTable = 0;
    this.i++;
  }

  private plain(c: string): void {
    if (this.skipChars > 0 && !this.g.skip) this.skipChars--;
    else if (!this.g.skip) {
      this.flushBytes();
      this.line += c;
    }
    this.i++;
  }

  private control(): void {
    const m = CONTROL.exec(this.src.slice(this.i, this.i + 40));
    if (!m) {
      this.i++;
      return;
    }
    this.i += m[0].length;
    if (m[3] !== undefined) {
      if (this.g.skip) return;
      if (this.skipChars > 0) this.skipChars--;
      else this.bytes.push(Number.parseInt(m[3], 16));
      return;
    }
    if (m[4] !== undefined) {
      this.symbol(m[4]);
      return;
    }
    const word = m[1]!;
    const arg = m[2] === undefined ? undefined : Number(m[2]);
    if (SKIP.has(word)) {
      if (word === 'fonttbl') this.inFontTable = this.stack.length;
      this.g.skip = true;
      return;
    }
    if (this.inFontTable) {
      if (word === 'f' && arg !== undefined) this.fontNo = arg;
      else if (word === 'fcharset' && arg !== undefined && CHARSET_CP[arg])
        this.fontCp.set(this.fontNo, CHARSET_CP[arg]!);
      return;
    }
    this.word(word, arg);
  }

  private symbol(sym: string): void {
    if (sym === '*') this.g.skip = true;
    else if (sym === '~') this.emit('\u00a0');
    else if (sym === '_') this.emit('‑');
    else if (sym === '\\' || sym === '{' || sym === '}') this.emit(sym);
  }

  private word(word: string, arg: number | undefined): void {
    switch (word) {
      case 'ansicpg':
        if (arg) this.docCp = arg;
        return;
      case 'f':
        this.flushBytes();
        this.g.font = arg ?? -1;
        return;
      case 'uc':
        this.g.uc = arg ?? 1;
        return;
      case 'u':
        if (arg !== undefined && !this.g.skip) {
          this.emit(String.fromCharCode(arg < 0 ? arg + 65536 : arg));
          this.skipChars = this.g.uc;
        }
        return;
      case 'bin':
        this.i += arg ?? 0;
        return;
      case 'par':
      case 'sect':
      case 'page':
        if (this.g.skip) return;
        this.flushBytes();
        this.lines.push(this.line);
        this.line = '';
        return;
      case 'cell':
        if (this.g.skip) return;
        this.flushBytes();
        this.row.push(this.line.trim());
        this.line = '';
        return;
      case 'row':
        if (this.g.skip) return;
        this.lines.push(this.row);
        this.row = [];
        this.line = '';
        return;
      default:
        if (SYMBOLS[word] !== undefined) this.emit(SYMBOLS[word]!);
    }
  }
}

/** Paragraphs apart, consecutive table rows as one Markdown table. */
function toMarkdown(lines: (string | string[])[]): string {
  const blocks: string[] = [];
  let table: string[][] = [];
  const endTable = () => {
    if (table.length) blocks.push(mdTable(table));
    table = [];
  };
  for (const l of lines) {
    if (Array.isArray(l)) {
      table.push(l);
      continue;
    }
    endTable();
    const text = l.trim();
    if (text) blocks.push(text);
  }
  endTable();
  return blocks.join('\n\n');
}
