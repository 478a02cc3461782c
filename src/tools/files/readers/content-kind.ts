/**
 * What a file is by its bytes, when its name says something else (issue 45 point 4): a `.doc`
 * renamed `.docx`, a Word file named `.xlsx`, CSV text named `.xlsx`, an HTML table saved as
 * `.xls` (what many ERP and banking systems export), an Excel 2003 XML sheet, an Office file
 * with no extension. The content decides the reader; the name only breaks a tie, and the model
 * is told when the two disagree.
 */
import { openZip } from './zip.js';

/** What the bytes of an Office-like file are. */
export type ContentKind = 'docx' | 'xlsx' | 'pptx' | 'odt' | 'ods' | 'odp' | 'doc' | 'xls' | 'ppt' | 'html';

const ODF: Record<string, ContentKind> = {
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.text-template': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.spreadsheet-template': 'ods',
  'application/vnd.oasis.opendocument.presentation': 'odp',
  'application/vnd.oasis.opendocument.presentation-template': 'odp',
};

/** The Office package a zip is, from its parts (undefined: an ordinary archive, or damaged). */
export async function zipKind(data: Buffer): Promise<ContentKind | undefined> {
  let names: string[];
  let mimetype: string | undefined;
  try {
    const zip = await openZip(data);
    names = zip.names;
    if (names.includes('mimetype')) mimetype = (await zip.text('mimetype'))?.trim();
  } catch {
    return undefined;
  }
  if (mimetype && ODF[mimetype]) return ODF[mimetype];
  if (names.includes('word/document.xml')) return 'docx';
  if (names.includes('xl/workbook.xml')) return 'xlsx';
  if (names.includes('ppt/presentation.xml')) return 'pptx';
  return undefined;
}

/** The Office 97–2003 family of a compound file, from its streams (undefined: encrypted OOXML, other). */
export async function oleKind(data: Buffer): Promise<ContentKind | undefined> {
  const CFB = await import('cfb');
  try {
    const cfb = CFB.read(data, { type: 'buffer' });
    const has = (name: string) => !!CFB.find(cfb, name);
    if (has('WordDocument')) return 'doc';
    if (has('Workbook') || has('Book')) return 'xls';
    if (has('PowerPoint Document')) return 'ppt';
  } catch {
    // damaged: the name decides, and its reader says what is wrong
  }
  return undefined;
}

/**
 * Text that is really a web page or an Excel 2003 XML workbook (`<html`, `<table`, `<?xml …
 * progid="Excel.Sheet"`, `<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet"`).
 */
export function markupKind(head: Uint8Array): ContentKind | undefined {
  const text = Buffer.from(head.subarray(0, 4096))
    .toString('latin1')
    .replace(/^\uFEFF|^ï»¿/, '')
    .trimStart()
    .toLowerCase();
  if (/^(<!doctype html|<html|<table|<meta|<head|<body)/.test(text)) return 'html';
  if (
    /^<\?xml/.test(text) &&
    /urn:schemas-microsoft-com:office:(spreadsheet|excel)|progid="excel\.sheet"/.test(text)
  )
    return 'html';
  return undefined;
}

/** How the model is told that a file's content and its name disagree. */
export function disguiseNote(ext: string, actual: ContentKind): string {
  const what: Record<ContentKind, string> = {
    docx: 'a Word document (.docx)',
    xlsx: 'an Excel workbook (.xlsx)',
    pptx: 'a PowerPoint presentation (.pptx)',
    odt: 'an OpenDocument text (.odt)',
    ods: 'an OpenDocument spreadsheet (.ods)',
    odp: 'an OpenDocument presentation (.odp)',
    doc: 'a Word 97–2003 document (.doc)',
    xls: 'an Excel 97–2003 workbook (.xls)',
    ppt: 'a PowerPoint 97–2003 presentation (.ppt)',
    html: 'a web page or an Excel XML table (HTML/XML text, as many systems export "Excel" files)',
  };
  return `the name ends in ${ext || '(no extension)'} but the file is ${what[actual]}; it was read as what it is`;
}
