/**
 * Which character encoding a text file uses, and how to decode it. The byte-order mark decides
 * first (UTF-8, UTF-32, UTF-16 — UTF-32LE before UTF-16LE, since its BOM starts the same way);
 * then bytes that are valid UTF-8 are UTF-8; UTF-16/32 without a BOM are recognised by their NUL
 * pattern; everything else goes to chardet (ICU's detector, ported), whose confidence decides
 * whether the result is stated as a guess. Decoding uses the WHATWG TextDecoder where Node has
 * it right (UTF-8, UTF-16, ISO-2022-JP) and iconv-lite otherwise (both are bundled with the
 * readers: they load with the first file read, not at start).
 *
 *   const enc = await detectEncoding([head]);     // { name: 'big5', sure: true, bom: 0, unit: 'multi' }
 *   decodeBytes(bytes, enc.name)                  // '…'
 */
import { analyse as chardetAnalyse } from 'chardet';
import iconv from 'iconv-lite';
import { looksShiftJis } from './shift-jis.js';

/** A WHATWG encoding label in lower case ('utf-8', 'gb18030', 'big5', 'utf-32le', …). */
export type TextEncodingName = string;

/** How to find a character boundary: fixed units, or a legacy multi-byte encoding. */
export type CharUnit = 1 | 2 | 4 | 'utf-8' | 'multi';

export interface DetectedEncoding {
  name: TextEncodingName;
  /** Length of the byte-order mark at the start of the file (0 when none). */
  bom: number;
  /** False when the detector was unsure: say which encoding was assumed. */
  sure: boolean;
  unit: CharUnit;
}

const BOMS: [number[], TextEncodingName][] = [
  [[0xef, 0xbb, 0xbf], 'utf-8'],
  [[0xff, 0xfe, 0x00, 0x00], 'utf-32le'],
  [[0x00, 0x00, 0xfe, 0xff], 'utf-32be'],
  [[0xff, 0xfe], 'utf-16le'],
  [[0xfe, 0xff], 'utf-16be'],
];

/** chardet's names → WHATWG labels. ISO-8859-1 is read as windows-1252, as browsers do: its 0x80–0x9F are €, “ ” … in real files, never C1 controls. */
const LABELS: Record<string, TextEncodingName> = {
  'UTF-8': 'utf-8',
  'UTF-16LE': 'utf-16le',
  'UTF-16BE': 'utf-16be',
  'UTF-32LE': 'utf-32le',
  'UTF-32BE': 'utf-32be',
  'ISO-8859-1': 'windows-1252',
  ASCII: 'windows-1252',
  Shift_JIS: 'shift_jis',
  'EUC-JP': 'euc-jp',
  'EUC-KR': 'euc-kr',
  Big5: 'big5',
  GB18030: 'gb18030',
  'ISO-2022-JP': 'iso-2022-jp',
  'ISO-2022-KR': 'iso-2022-kr',
  'ISO-2022-CN': 'iso-2022-cn',
};

const MULTI_BYTE = new Set([
  'gb18030',
  'big5',
  'shift_jis',
  'euc-jp',
  'euc-kr',
  'iso-2022-jp',
  'iso-2022-kr',
  'iso-2022-cn',
]);

/** Below this chardet confidence (0–100) the encoding is reported as assumed. */
const SURE = 50;

/** Names a person recognises, for the note in the result. */
const DISPLAY: Record<string, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16LE',
  'utf-16be': 'UTF-16BE',
  'utf-32le': 'UTF-32LE',
  'utf-32be': 'UTF-32BE',
  gb18030: 'GBK/GB18030 (Simplified Chinese)',
  big5: 'Big5 (Traditional Chinese)',
  shift_jis: 'Shift-JIS (Japanese)',
  'euc-jp': 'EUC-JP (Japanese)',
  'iso-2022-jp': 'ISO-2022-JP (Japanese)',
  'euc-kr': 'EUC-KR (Korean)',
  'windows-1252': 'Windows-1252 (Western European)',
};

export function displayEncoding(name: TextEncodingName): string {
  return DISPLAY[name] ?? name.toUpperCase();
}

function startsWith(buf: Uint8Array, sig: number[]): boolean {
  return buf.length >= sig.length && sig.every((b, i) => buf[i] === b);
}

export function unitOf(name: TextEncodingName): CharUnit {
  if (name === 'utf-8') return 'utf-8';
  if (name.startsWith('utf-16')) return 2;
  if (name.startsWith('utf-32')) return 4;
  return MULTI_BYTE.has(name) ? 'multi' : 1;
}

function detected(name: TextEncodingName, sure: boolean, bom = 0): DetectedEncoding {
  return { name, bom, sure, unit: unitOf(name) };
}

/** The encoding named by a byte-order mark at the start of `head`, if any. */
export function bomEncoding(head: Uint8Array): DetectedEncoding | undefined {
  for (const [sig, name] of BOMS) {
    if (!startsWith(head, sig)) continue;
    // A UTF-16 BOM that contradicts the bytes after it (seen in the wild: a BE mark on LE
    // text) loses to the bytes: every ASCII character shows which half is zero.
    if (name.startsWith('utf-16')) {
      const order = guessWide(head.subarray(sig.length, sig.length + 4096));
      if (order?.startsWith('utf-16') && order !== name) return detected(order, true, sig.length);
    }
    return detected(name, true, sig.length);
  }
  return undefined;
}

/** ISO-2022-JP is 7-bit, so it also passes as UTF-8: its escape sequences give it away. */
function iso2022(head: Uint8Array): TextEncodingName | undefined {
  for (let i = head.indexOf(0x1b); i >= 0 && i < head.length - 2; i = head.indexOf(0x1b, i + 1)) {
    const a = head[i + 1];
    const b = head[i + 2];
    if (a === 0x24 && (b === 0x42 || b === 0x40 || b === 0x28)) return 'iso-2022-jp';
    if (a === 0x24 && b === 0x29) return 'iso-2022-kr';
  }
  return undefined;
}

/** True when every sample is valid UTF-8 (a sample may start or end inside a character). */
function allUtf8(samples: Uint8Array[]): boolean {
  for (const s of samples) {
    let start = 0;
    while (start < s.length && start < 4 && (s[start]! & 0xc0) === 0x80) start++;
    try {
      // stream: a character cut at the end of the sample is not an error.
      new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(s.subarray(start), { stream: true });
    } catch {
      return false;
    }
  }
  return true;
}

/**
 * UTF-16 or UTF-32 without a BOM: text in them has NULs in a fixed position of each unit
 * (ASCII in UTF-16LE is `x 00`, in UTF-32LE `x 00 00 00`). Counted over the head only.
 */
export function guessWide(head: Uint8Array): TextEncodingName | undefined {
  const zeros = [0, 0, 0, 0];
  const n = head.length - (head.length % 4);
  if (n < 8) return undefined;
  for (let i = 0; i < n; i++) if (head[i] === 0) zeros[i % 4]!++;
  const units = n / 4;
  const [z0, z1, z2, z3] = zeros as [number, number, number, number];
  // UTF-32: the top byte of every unit is 0, the next one nearly always (the BMP below U+10000).
  if (z3 === units && z2 >= units * 0.9 && z0 < units * 0.5) return 'utf-32le';
  if (z0 === units && z1 >= units * 0.9 && z3 < units * 0.5) return 'utf-32be';
  const even = z0 + z2;
  const odd = z1 + z3;
  const pairs = n / 2;
  if (odd > pairs * 0.3 && even < pairs * 0.05) return 'utf-16le';
  if (even > pairs * 0.3 && odd < pairs * 0.05) return 'utf-16be';
  return undefined;
}

interface ChardetMatch {
  name: string;
  confidence: number;
}

/** chardet's ranking of the samples, best first. */
function analyse(sample: Uint8Array): ChardetMatch[] {
  return chardetAnalyse(sample) as ChardetMatch[];
}

/**
 * The encoding of a file from samples of its bytes (the head first, which holds any BOM).
 * Samples are kept small by the caller (chardet costs ~0.3 ms per KB).
 */
/** Single-byte encodings of other scripts, which short GBK text can be mistaken for. */
const SINGLE_BYTE = /^(iso-8859-(5|6|7|8|9)|windows-125[1-7]|koi8-r)$/;

export function detectEncoding(samples: Uint8Array[]): DetectedEncoding {
  const head = samples[0] ?? new Uint8Array();
  const bom = bomEncoding(head);
  if (bom) return bom;
  if (head.includes(0)) {
    const wide = guessWide(head);
    if (wide) return detected(wide, true);
  }
  const escaped = iso2022(head);
  if (escaped && canDecode(escaped)) return detected(escaped, true);
  if (allUtf8(samples)) return detected('utf-8', true);
  const sample = samples.length === 1 ? head : Buffer.concat(samples);
  const ranked = analyse(sample);
  const top = ranked.find((m) => m.name !== 'UTF-8' && canDecode(LABELS[m.name] ?? m.name.toLowerCase()));
  if (top && top.confidence >= SURE) {
    const name = LABELS[top.name] ?? top.name.toLowerCase();
    if (name === 'gb18030' && looksShiftJis(samples)) return detected('shift_jis', false);
    // A short GBK line ("客户,金额") can look like Greek or Cyrillic to the statistics; a Chinese
    // user's file that reads as Chinese in GB18030 is far likelier (and the choice is said).
    if (SINGLE_BYTE.test(name)) {
      const chinese = chineseShare(samples);
      if (chinese && chinese.han >= 2 && chinese.share >= 0.9)
        return detected(looksShiftJis(samples) ? 'shift_jis' : 'gb18030', false);
    }
    return detected(name, true);
  }
  // Too little text for statistics (a short note, a file name list): Chinese users' legacy
  // files are GBK far more often than anything else, so take GB18030 when it reads as Chinese.
  // Short Japanese text also decodes as GB18030 into Han characters; kana in its Shift-JIS
  // reading tells them apart, and either way the choice is said to be a guess.
  if (kanaShare(samples) >= 0.3) return detected('shift_jis', false);
  const chinese = chineseShare(samples);
  if (chinese && looksShiftJis(samples)) return detected('shift_jis', false);
  if (chinese)
    return detected('gb18030', chinese.han >= 2 && chinese.share >= 0.9 && kanaShare(samples) === 0);
  return top ? detected(LABELS[top.name] ?? top.name.toLowerCase(), false) : detected('windows-1252', false);
}

/** The share of kana among the non-ASCII characters of the samples read as Shift-JIS (0 when they are not Shift-JIS). */
function kanaShare(samples: Uint8Array[]): number {
  let text: string;
  try {
    const decoder = new TextDecoder('shift_jis', { fatal: true });
    text = samples.map((s) => decoder.decode(s, { stream: true })).join('');
  } catch {
    return 0;
  }
  let kana = 0;
  let other = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c < 0x80) continue;
    if (c >= 0x3040 && c <= 0x30ff) kana++;
    else other++;
  }
  return kana < 2 ? 0 : kana / (kana + other);
}

/** How much of the non-ASCII text decodes, as GB18030, to Han characters and CJK punctuation. */
function chineseShare(samples: Uint8Array[]): { han: number; share: number } | undefined {
  let text: string;
  try {
    text = samples
      .map((s) => new TextDecoder('gb18030', { fatal: true }).decode(s, { stream: true }))
      .join('');
  } catch {
    return undefined;
  }
  let han = 0;
  let other = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c < 0x80) continue;
    if ((c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3000 && c <= 0x303f) || (c >= 0xff00 && c <= 0xffef)) han++;
    else other++;
  }
  const share = han / Math.max(1, han + other);
  return share >= 0.6 ? { han, share } : undefined;
}

/** Node's TextDecoder covers every WHATWG encoding when built with full ICU; iconv-lite does the rest. */
function textDecoder(name: TextEncodingName): InstanceType<typeof TextDecoder> | undefined {
  try {
    return new TextDecoder(name, { ignoreBOM: true });
  } catch {
    return undefined;
  }
}

export function canDecode(name: TextEncodingName): boolean {
  return textDecoder(name) !== undefined || iconv.encodingExists(name);
}

/**
 * Decode whole characters of `bytes` (the caller cuts at a character boundary). UTF-8/16 go
 * through Node's TextDecoder; the rest through iconv-lite, because Node 20's TextDecoder decodes
 * "windows-1252" as Latin-1 (0x80–0x9F become control characters instead of € “ ” —).
 */
export function decodeBytes(bytes: Uint8Array, name: TextEncodingName): string {
  if (!name.startsWith('utf-8') && !name.startsWith('utf-16') && iconv.encodingExists(name))
    return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), name, {
      stripBOM: false,
    });
  const decoder = textDecoder(name);
  if (decoder) return decoder.decode(bytes);
  return new TextDecoder('windows-1252').decode(bytes);
}

/** How many bytes `text` takes in a legacy encoding (to find where a cut decoded text ends in the file). */
export function encodedLength(text: string, name: TextEncodingName): number | undefined {
  return iconv.encodingExists(name) ? iconv.encode(text, name).length : undefined;
}
