/**
 * The small parts of an .xlsx package, read before any sheet: the sheet list (names, order,
 * hidden state, where each sheet's XML is), the number format of every cell style, the date
 * system, and the shared strings — parsed lazily, only as far as the cells read so far need.
 * A sheet is then streamed by xlsx.ts.
 */

import { formatCode } from './xlsx-format.js';
import { parseXml } from './xml-events.js';
import type { ZipParts } from './zip.js';

export interface SheetRef {
  name: string;
  hidden: boolean;
  /** Path of the sheet's XML inside the zip. */
  path: string;
}

export interface WorkbookParts {
  sheets: SheetRef[];
  /** Format code of each cell style index (`s="3"`). */
  styleFormats: string[];
  strings: SharedStrings;
  date1904: boolean;
}

function partText(zip: ZipParts, path: string): Promise<string | undefined> {
  return zip.text(path);
}

/** `worksheets/sheet1.xml` relative to `xl/`, or an absolute `/xl/…` target. */
function resolveTarget(target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts: string[] = ['xl'];
  for (const seg of target.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.') parts.push(seg);
  }
  return parts.join('/');
}

async function readSheetList(zip: ZipParts): Promise<{ sheets: SheetRef[]; date1904: boolean }> {
  const targets = new Map<string, string>();
  const rels = await partText(zip, 'xl/_rels/workbook.xml.rels');
  if (rels)
    parseXml(rels, {
      open(name, a) {
        if (name === 'Relationship' && a.Id && a.Target) targets.set(a.Id, resolveTarget(a.Target));
      },
    });
  const sheets: SheetRef[] = [];
  let date1904 = false;
  const workbook = await partText(zip, 'xl/workbook.xml');
  if (!workbook) {
    // A package without its workbook part (made by a careless generator): the sheets that are there.
    const found = zip.names
      .filter((n) => /^xl\/worksheets\/[^/]+\.xml$/.test(n))
      .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
    if (!found.length) throw new Error('no xl/workbook.xml');
    return { sheets: found.map((path, i) => ({ name: `Sheet${i + 1}`, hidden: false, path })), date1904 };
  }
  parseXml(workbook, {
    open(name, a) {
      if (name === 'workbookPr') date1904 = a.date1904 === '1' || a.date1904 === 'true';
      if (name !== 'sheet') return;
      const rid = a['r:id'] ?? Object.entries(a).find(([k]) => k.endsWith(':id'))?.[1];
      const path = rid ? targets.get(rid) : undefined;
      if (path) sheets.push({ name: a.name ?? '', hidden: !!a.state && a.state !== 'visible', path });
    },
  });
  return { sheets, date1904 };
}

async function readStyles(zip: ZipParts): Promise<string[]> {
  const xml = await partText(zip, 'xl/styles.xml');
  if (!xml) return [];
  const custom = new Map<number, string>();
  const xfIds: number[] = [];
  let inCellXfs = false;
  parseXml(xml, {
    open(name, a) {
      if (name === 'numFmt' && a.numFmtId && a.formatCode !== undefined)
        custom.set(Number(a.numFmtId), a.formatCode);
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) xfIds.push(Number(a.numFmtId ?? 0));
    },
    close(name) {
      if (name === 'cellXfs') inCellXfs = false;
    },
  });
  return xfIds.map((id) => formatCode(id, custom));
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (m, e: string) => {
    if (e[0] !== '#') return ENTITIES[e] ?? m;
    const code = e[1] === 'x' ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : m;
  });
}

/**
 * The shared strings table, inflated and parsed on demand: a 200,000-row sheet can have 400,000
 * strings (21 MB of XML) while its first page needs a few thousand. The part is read from its
 * stream only as far as the highest index asked for (`ensure`), the bytes are searched for each
 * `<si>` natively, and inside one the `<t>` runs are joined and `<rPh>` phonetic guides left out
 * (the part's XML is that regular).
 */
/**
 * The most XML of one shared string kept (Excel's own cells hold at most 32,767 characters; this
 * leaves room for formatting runs). A longer one — a 245 MB string in a 1.6 MB file — is cut, and
 * the rest of it skipped as it streams past: searched once, never held.
 */
export const MAX_STRING_XML = 1024 * 1024;
const CUT_MARK = ' [… cut: this cell holds far more text than Excel allows in a cell]';

export class SharedStrings {
  private readonly parsed: string[] = [];
  private buf: Buffer = Buffer.alloc(0);
  private done: boolean;
  /** The kept start of a string too long to keep, while the rest of it streams past. */
  private skipping: Buffer | undefined;

  constructor(private readonly source?: AsyncIterator<Buffer>) {
    this.done = !source;
  }

  /** A string already read, or undefined (call `ensure` first for one further on). */
  get(index: number): string | undefined {
    return this.parsed[index];
  }

  /** Read the part up to string `index` (or to its end). */
  async ensure(index: number): Promise<void> {
    while (this.parsed.length <= index && !this.done) {
      const next = await this.source!.next();
      if (next.done) {
        this.done = true;
        break;
      }
      this.buf = this.buf.length ? Buffer.concat([this.buf, next.value]) : next.value;
      if (this.skipping && !this.skipPast()) continue;
      this.parseAvailable();
    }
  }

  /** Stop reading the part. */
  async close(): Promise<void> {
    this.done = true;
    await this.source?.return?.();
  }

  /** Parse every complete `<si>` in the buffer and keep the incomplete rest. */
  private parseAvailable(): void {
    const xml = this.buf;
    let pos = 0;
    for (;;) {
      let open = xml.indexOf('<si', pos);
      // `<sis…>` is no string item; skip any element whose name only starts with "si".
      while (open >= 0 && open + 3 < xml.length && !/[\s>/]/.test(String.fromCharCode(xml[open + 3]!)))
        open = xml.indexOf('<si', open + 3);
      if (open < 0 || open + 3 >= xml.length) break;
      const head = xml.indexOf('>', open);
      if (head < 0) {
        pos = open;
        break;
      }
      if (xml[head - 1] === 0x2f) {
        this.parsed.push('');
        pos = head + 1;
        continue;
      }
      const close = xml.indexOf('</si>', head);
      if (close < 0 && xml.length - head > MAX_STRING_XML) {
        // Too long to keep whole: keep its start, skip the rest as it arrives.
        this.skipping = Buffer.from(xml.subarray(head + 1, head + 1 + MAX_STRING_XML));
        this.buf = Buffer.alloc(0);
        return;
      }
      if (close < 0) {
        pos = open;
        break;
      }
      this.parsed.push(SharedStrings.text(xml.toString('utf8', head + 1, close)));
      pos = close + 5;
    }
    this.buf = xml.subarray(Math.min(pos, xml.length));
  }

  /**
   * While skipping a string too long to keep: drop what arrived up to its `</si>` (true, the
   * string is added cut, parsing goes on) or all of it but a possible split tag (false).
   */
  private skipPast(): boolean {
    const close = this.buf.indexOf('</si>');
    if (close < 0) {
      this.buf = Buffer.from(this.buf.subarray(Math.max(0, this.buf.length - 4)));
      return false;
    }
    const kept = this.skipping!.toString('utf8').replace(/<[^>]*$/, '');
    this.parsed.push(`${SharedStrings.text(`${kept}</t>`)}${CUT_MARK}`);
    this.skipping = undefined;
    this.buf = this.buf.subarray(close + 5);
    return true;
  }

  private static text(body: string): string {
    const runs = body.includes('<rPh') ? body.replace(/<rPh[\s\S]*?<\/rPh>/g, '') : body;
    let out = '';
    for (const m of runs.matchAll(/<t(?:\s[^>]*)?(?:\/>|>([\s\S]*?)<\/t>)/g)) out += m[1] ?? '';
    return unescapeOoxml(decodeEntities(out));
  }
}

/** OOXML writes characters XML cannot hold as `_xHHHH_` (and a literal `_x` as `_x005F_x`). */
export function unescapeOoxml(text: string): string {
  return text.includes('_x')
    ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    : text;
}

export async function readWorkbookParts(zip: ZipParts): Promise<WorkbookParts> {
  const [{ sheets, date1904 }, styleFormats, strings] = await Promise.all([
    readSheetList(zip),
    readStyles(zip),
    zip.stream('xl/sharedStrings.xml'),
  ]);
  const source = strings?.[Symbol.asyncIterator]() as AsyncIterator<Buffer> | undefined;
  return { sheets, date1904, styleFormats, strings: new SharedStrings(source) };
}
