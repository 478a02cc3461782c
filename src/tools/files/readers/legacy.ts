/**
 * Old and alternative office formats: Word 97–2003 (.doc) and WPS Writer (.wps), Excel 97–2003
 * (.xls) and WPS Spreadsheets (.et), PowerPoint 97–2003 (.ppt) and WPS Presentation (.dps), and
 * RTF. Encrypted files are recognised in the compound file and refused. When LibreOffice is
 * installed the file is converted to its modern twin (.docx/.xlsx/.pptx) and read by the same
 * reader as a modern file, so every path gives the same shape (headings, tables, sheets, slides
 * with notes). Without it, .doc/.wps are read by word-extractor and .rtf by rtf.ts (text without
 * tables' structure); .xls/.et/.ppt/.dps need LibreOffice (no maintained pure-JS reader on npm:
 * SheetJS's npm release is old and has open advisories, see README).
 */
import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import { convertWithSoffice, findSoffice, prefetchConversions } from './soffice.js';

export { dropPrefetched } from './soffice.js';

import { DocumentError, type Extracted, type LegacyFamily } from './types.js';

export type { LegacyFamily } from './types.js';

export const LEGACY_EXT: Record<string, LegacyFamily> = {
  '.doc': 'doc',
  '.dot': 'doc',
  '.wps': 'doc',
  '.wpt': 'doc',
  '.xls': 'xls',
  '.xlt': 'xls',
  '.et': 'xls',
  '.ett': 'xls',
  '.ppt': 'ppt',
  '.pps': 'ppt',
  '.pot': 'ppt',
  '.dps': 'ppt',
  '.dpt': 'ppt',
  '.rtf': 'rtf',
};

/** The modern format each family converts to, and the name LibreOffice gets for the input. */
const TWIN = { doc: 'docx', xls: 'xlsx', ppt: 'pptx', rtf: 'docx' } as const;
const INPUT_EXT = { doc: '.doc', xls: '.xls', ppt: '.ppt', rtf: '.rtf' } as const;
const NAMES = { doc: 'Word 97–2003', xls: 'Excel 97–2003', ppt: 'PowerPoint 97–2003', rtf: 'RTF' } as const;

const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

function isOle(data: Uint8Array): boolean {
  return OLE.every((b, i) => data[i] === b);
}
function isZip(data: Uint8Array): boolean {
  return data[0] === 0x50 && data[1] === 0x4b && data[2] === 0x03 && data[3] === 0x04;
}
/** Excel 2.1–4.0 saved as a bare BIFF stream, not in a compound file (a BOF record first). */
function isOldBiff(data: Uint8Array): boolean {
  return data[0] === 0x09 && [0x00, 0x02, 0x04].includes(data[1]!) && data[3] === 0x00;
}
function isRtf(data: Uint8Array): boolean {
  return Buffer.from(data.subarray(0, 5)).toString('latin1') === '{\\rtf';
}

/** Read a modern twin (a zip) with the native reader of its family. */
async function readTwin(twin: 'docx' | 'xlsx' | 'pptx', data: Buffer, limit: number): Promise<Extracted> {
  if (twin === 'docx') return (await import('./docx.js')).readDocx(data);
  if (twin === 'xlsx') return (await import('./xlsx.js')).readXlsx(data, limit);
  return (await import('./pptx.js')).readPptx(data);
}

export async function readLegacy(
  data: Buffer,
  ext: string,
  limit: number,
  signal?: AbortSignal,
): Promise<{ extracted: Extracted; family: LegacyFamily }> {
  let family = LEGACY_EXT[ext] ?? 'doc';
  // WPS Office also saves .wps/.et/.dps as OOXML, and a ".doc" is often RTF in disguise.
  if (isZip(data) && family !== 'rtf')
    return { extracted: await readTwin(TWIN[family] as 'docx' | 'xlsx' | 'pptx', data, limit), family };
  if (isRtf(data)) family = 'rtf';
  else if (family === 'xls' && isOldBiff(data)) return readOldExcel(data, limit, signal);
  else if (family === 'rtf' || !isOle(data))
    throw new DocumentError(
      'unreadable',
      `This file has the extension ${ext} but is not a valid ${NAMES[family]} file (it may be damaged).`,
    );
  if (family !== 'rtf') await refuseEncrypted(data, family);
  if (findSoffice()) {
    let converted: Buffer;
    try {
      converted = await convertWithSoffice(data, INPUT_EXT[family], TWIN[family], signal);
    } catch (err) {
      throw new DocumentError(
        'unreadable',
        `LibreOffice could not convert this ${NAMES[family]} file (${(err as Error).message}).`,
      );
    }
    const extracted = await readTwin(TWIN[family], converted, limit);
    return {
      extracted: { ...extracted, notes: [...(extracted.notes ?? []), 'converted with LibreOffice'] },
      family,
    };
  }
  if (family === 'rtf') return { extracted: (await import('./rtf.js')).readRtf(data), family };
  if (family === 'doc') return { extracted: await readWord97(data), family };
  throw new DocumentError(
    'unsupported',
    `This is a${family === 'xls' ? 'n' : ''} ${NAMES[family]} file; reading it needs LibreOffice, which is not installed here. Ask the user to install LibreOffice (free) or to save the file as .${TWIN[family]}.`,
  );
}

/** Largest legacy file converted ahead of its reading (larger ones wait for their turn). */
const PREFETCH_BYTES = 32 * 1024 * 1024;
/** All the files handed over ahead together: the rest wait for their turn. */
const PREFETCH_TOTAL = 128 * 1024 * 1024;

/**
 * A folder run about to read these files: convert the legacy ones among them with LibreOffice
 * now, together (one start for all), so that reading each takes its conversion ready. Files
 * that are not what their extension says, encrypted or too big are left to their reading.
 */
export async function prefetchLegacy(paths: string[], signal?: AbortSignal): Promise<void> {
  if (!findSoffice()) return;
  const files: { data: Buffer; fromExt: string; toExt: string }[] = [];
  let total = 0;
  for (const path of paths) {
    if (signal?.aborted) return;
    if (total > PREFETCH_TOTAL) break;
    const family = LEGACY_EXT[extname(path).toLowerCase()];
    if (!family) continue;
    const data = await readSmall(path);
    if (!data || isZip(data)) continue;
    const kind = isRtf(data) ? 'rtf' : family;
    if (kind !== 'rtf' && !(isOle(data) || (kind === 'xls' && isOldBiff(data)))) continue;
    if (
      kind !== 'rtf' &&
      isOle(data) &&
      !(await refuseEncrypted(data, kind).then(
        () => true,
        () => false,
      ))
    )
      continue;
    files.push({ data, fromExt: INPUT_EXT[kind], toExt: TWIN[kind] });
    total += data.length;
  }
  if (files.length > 1 && !signal?.aborted) prefetchConversions(files, signal);
}

async function readSmall(path: string): Promise<Buffer | undefined> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (!handle) return undefined;
  try {
    const { size } = await handle.stat();
    return size <= PREFETCH_BYTES ? await handle.readFile() : undefined;
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/** Excel 2.1–4.0: LibreOffice reads it; without it, the person is told what to do, plainly. */
async function readOldExcel(
  data: Buffer,
  limit: number,
  signal?: AbortSignal,
): Promise<{ extracted: Extracted; family: LegacyFamily }> {
  if (!findSoffice())
    throw new DocumentError(
      'unsupported',
      'This is an old Excel file (Excel 4.0 or earlier); reading it needs LibreOffice, which is not installed here. Ask the user to install LibreOffice (free) or to save the file as .xlsx.',
    );
  let converted: Buffer;
  try {
    converted = await convertWithSoffice(data, '.xls', 'xlsx', signal);
  } catch (err) {
    throw new DocumentError(
      'unreadable',
      `LibreOffice could not convert this old Excel file (${(err as Error).message}).`,
    );
  }
  const extracted = await readTwin('xlsx', converted, limit);
  return {
    extracted: { ...extracted, notes: [...(extracted.notes ?? []), 'converted with LibreOffice'] },
    family: 'xls',
  };
}

/** Word 97 text by word-extractor: body, then headers, footnotes, endnotes and comments. */
async function readWord97(data: Buffer): Promise<Extracted> {
  const { default: WordExtractor } = await import('word-extractor');
  let doc: Awaited<ReturnType<InstanceType<typeof WordExtractor>['extract']>>;
  try {
    doc = await new WordExtractor().extract(data);
  } catch {
    // word-extractor's own message names its internals (a stream, an offset): not for a person.
    throw new DocumentError(
      'unsupported',
      'This Word file cannot be read without LibreOffice: it is probably older than Word 97 (Word 6/95) or a Microsoft Works document, or damaged. Ask the user to install LibreOffice (free) or to save it as .docx.',
    );
  }
  const clean = (s: string) =>
    s
      .replace(/\r\n?/g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
  const sections = [clean(doc.getBody())];
  const extra: [string, string][] = [
    ['notes', `${doc.getFootnotes()}\n${doc.getEndnotes()}`],
    ['comments', doc.getAnnotations()],
    ['header', doc.getHeaders({ includeFooters: false })],
    ['footer', doc.getFooters()],
  ];
  for (const [name, text] of extra) if (clean(text)) sections.push(`--- ${name} ---\n${clean(text)}`);
  const text = sections.filter(Boolean).join('\n\n');
  return {
    text: text || '(This document is empty.)',
    notes: ['read without LibreOffice: text only, tables and headings not marked'],
  };
}

/** Office encryption in a compound file: refused plainly rather than read as noise. */
async function refuseEncrypted(data: Buffer, family: LegacyFamily): Promise<void> {
  const CFB = await import('cfb');
  let cfb: ReturnType<typeof CFB.read>;
  try {
    cfb = CFB.read(data, { type: 'buffer' });
  } catch (err) {
    throw new DocumentError(
      'unreadable',
      `This file is damaged: its compound-file structure cannot be read (${(err as Error).message}).`,
    );
  }
  const has = (name: string) => !!CFB.find(cfb, name);
  let encrypted = has('EncryptionInfo') || has('EncryptedPackage') || has('EncryptedSummary');
  if (!encrypted && family === 'doc') {
    const word = CFB.find(cfb, 'WordDocument')?.content as Uint8Array | undefined;
    // FIB base: flags at 0x0A, fEncrypted is bit 8 (MS-DOC 2.5.2).
    encrypted = !!word && word.length > 12 && ((word[0x0a]! | (word[0x0b]! << 8)) & 0x0100) !== 0;
  }
  if (!encrypted && family === 'xls') {
    const book = (CFB.find(cfb, 'Workbook') ?? CFB.find(cfb, 'Book'))?.content as Uint8Array | undefined;
    encrypted = !!book && hasFilePass(book);
  }
  if (encrypted)
    throw new DocumentError(
      'encrypted',
      'This file is password-protected (Office encryption); it cannot be read. Ask the user for a copy saved without a password.',
    );
}

/** A FILEPASS record (0x002F) in the workbook globals, before their EOF (MS-XLS 2.4.117). */
function hasFilePass(book: Uint8Array): boolean {
  let at = 0;
  for (let n = 0; at + 4 <= book.length && n < 10_000; n++) {
    const type = book[at]! | (book[at + 1]! << 8);
    const size = book[at + 2]! | (book[at + 3]! << 8);
    if (type === 0x002f) return true;
    if (type === 0x000a) return false;
    at += 4 + size;
  }
  return false;
}
