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

export function readRtf(data: Buffer): Extracted {
  const src = data.toString('latin1');
  let docCp = 1252;
  const fontCp = new Map<number, number>();
  const stack: Group[] = [];
  let g: Group = { skip: false, uc: 1, font: -1 };
  const lines: (string | string[])[] = [];
  let line = '';
  let row: string[] = [];
  let bytes: number[] = [];
  let skipChars = 0;
  let inFontTable = 0;
  let fontNo = -1;

  const flushBytes = () => {
    if (!bytes.length) return;
    const cp = fontCp.get(g.font) ?? docCp;
    const enc = iconv.encodingExists(`cp${cp}`) ? `cp${cp}` : 'cp1252';
    line += iconv.decode(Buffer.from(bytes), cp === 936 ? 'gb18030' : enc);
    bytes = [];
  };
  const emit = (s: string) => {
    if (g.skip) return;
    if (skipChars > 0) {
      skipChars--;
      return;
    }
    flushBytes();
    line += s;
  };

  for (let i = 0; i < src.length; ) {
    const c = src[i]!;
    if (c === '{') {
      flushBytes();
      stack.push(g);
      g = { ...g };
      i++;
    } else if (c === '}') {
      flushBytes();
      if (inFontTable && stack.length < inFontTable) inFontTable = 0;
      g = stack.pop() ?? g;
      if (inFontTable && stack.length < inFontTable) inFontTable = 0;
      i++;
    } else if (c === '\r' || c === '\n') i++;
    else if (c !== '\\') {
      if (skipChars > 0 && !g.skip) skipChars--;
      else if (!g.skip) {
        flushBytes();
        line += c;
      }
      i++;
    } else {
      const m = /^\\(?:([a-zA-Z]+)(-?\d+)? ?|'([0-9a-fA-F]{2})|(.))/s.exec(src.slice(i, i + 40));
      if (!m) {
        i++;
        continue;
      }
      i += m[0].length;
      if (m[3] !== undefined) {
        if (g.skip) continue;
        if (skipChars > 0) skipChars--;
        else bytes.push(Number.parseInt(m[3], 16));
        continue;
      }
      if (m[4] !== undefined) {
        const sym = m[4];
        if (sym === '*') g.skip = true;
        else if (sym === '~') emit('\u00a0');
        else if (sym === '_') emit('‑');
        else if (sym === '\\' || sym === '{' || sym === '}') emit(sym);
        continue;
      }
      const word = m[1]!;
      const arg = m[2] === undefined ? undefined : Number(m[2]);
      if (SKIP.has(word)) {
        if (word === 'fonttbl') inFontTable = stack.length;
        g.skip = true;
        continue;
      }
      if (inFontTable) {
        if (word === 'f' && arg !== undefined) fontNo = arg;
        else if (word === 'fcharset' && arg !== undefined && CHARSET_CP[arg])
          fontCp.set(fontNo, CHARSET_CP[arg]!);
        continue;
      }
      switch (word) {
        case 'ansicpg':
          if (arg) docCp = arg;
          break;
        case 'f':
          flushBytes();
          g.font = arg ?? -1;
          break;
        case 'uc':
          g.uc = arg ?? 1;
          break;
        case 'u':
          if (arg !== undefined && !g.skip) {
            emit(String.fromCharCode(arg < 0 ? arg + 65536 : arg));
            skipChars = g.uc;
          }
          break;
        case 'bin':
          i += arg ?? 0;
          break;
        case 'par':
        case 'sect':
        case 'page':
          if (g.skip) break;
          flushBytes();
          lines.push(line);
          line = '';
          break;
        case 'line':
          emit('\n');
          break;
        case 'tab':
          emit('\t');
          break;
        case 'cell':
          if (g.skip) break;
          flushBytes();
          row.push(line.trim());
          line = '';
          break;
        case 'row':
          if (g.skip) break;
          lines.push(row);
          row = [];
          line = '';
          break;
        case 'emdash':
          emit('—');
          break;
        case 'endash':
          emit('–');
          break;
        case 'lquote':
          emit('‘');
          break;
        case 'rquote':
          emit('’');
          break;
        case 'ldblquote':
          emit('“');
          break;
        case 'rdblquote':
          emit('”');
          break;
        case 'bullet':
          emit('•');
          break;
      }
    }
  }
  flushBytes();
  if (line) lines.push(line);
  return { text: toMarkdown(lines) || '(This document is empty.)' };
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
