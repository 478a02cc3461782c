/**
 * Portable file names (design §3). Files move between systems — a report written on a Mac is
 * opened on Windows, copied to a USB stick, mailed — so every name zhi writes must be one that
 * Windows, macOS and Linux all store as given. On NTFS `报告:最终.md` silently becomes an empty
 * file with an alternate data stream, and `con.md` is the console: refusing them on every OS is
 * the only honest answer. Each refusal names the problem and a name to use instead.
 */
import { controlsIn, hasControl } from '../../support/sanitize.js';
import { ToolError } from '../types.js';

/** Characters Windows does not allow in a name (besides the path separators). */
const FORBIDDEN = /[:*?"<>|]/;
const FORBIDDEN_ALL = /[:*?"<>|]/g;
const CONTROL = /[\u0000-\u001f\u007f]/;
const CONTROL_ALL = /[\u0000-\u001f\u007f]/g;
const INVISIBLE_ALL =
  /[\u0080-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u061c\u200b\u200e\u200f\u2060-\u2064\ufeff\u180e]/g;
/**
 * Characters with no place in a file name: they draw nothing, or only a blank, or change the
 * letter before them (soft hyphen, grapheme joiner, Hangul fillers, Khmer inherent vowels, braille
 * blank, combining overlays, spaces other than U+0020). Joiners and variation selectors stay
 * (emoji, Persian, CJK variants); a name that only differs from another by them is a look-alike
 * (lookalike.ts).
 */
// Built from a string: the class holds combining overlays on purpose.
const BLANKS_ALL_CLASS =
  '\\u00a0\\u00ad\\u034f\\u115f\\u1160\\u17b4\\u17b5\\u2000-\\u200a\\u202f\\u205f\\u2800\\u3164\\uffa0\\u0334-\\u0338\\u20d2\\u20d3\\u20d8-\\u20da\\u20e5\\u20e6\\u20ea\\u20eb';
const BLANKS_ALL = new RegExp(`[${BLANKS_ALL_CLASS}]`, 'g');
const BLANKS = new RegExp(BLANKS_ALL.source);
const codeOf = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
/** Device names, with any extension (`con.md`, `NUL.tar.gz`, `com1.txt`). */
const RESERVED = /^(con|prn|aux|nul|com[1-9¹²³]|lpt[1-9¹²³])(\..*)?$/i;
export const MAX_NAME_BYTES = 255;

/** What is wrong with one path segment, or undefined when every system can store it. */
export function nameProblem(
  segment: string,
): { why: string; key: NameProblemKey; instead: string } | undefined {
  if (CONTROL.test(segment)) {
    return {
      key: 'control',
      why: 'contains a control character (a line break, tab or similar)',
      instead: segment.replace(CONTROL_ALL, ' ').replace(/\s+/g, ' ').trim() || 'file',
    };
  }
  // Bidi overrides and zero-width characters: `a\u202Egpj.md` shows as "adm.jpg".
  if (hasControl(segment)) {
    return {
      key: 'invisible',
      why: `contains invisible or direction-changing characters (${controlsIn(segment).join(' ')}), which make a name look like another`,
      instead: segment.replace(INVISIBLE_ALL, '') || 'file',
    };
  }
  if (BLANKS.test(segment)) {
    const found = [...new Set(segment.match(BLANKS_ALL) ?? [])].map(codeOf);
    return {
      key: 'invisible',
      why: `contains characters that show as nothing or change the letter before them (${found.join(' ')}), which make a name look like another`,
      instead: segment.replace(BLANKS_ALL, (c) => (/\s/.test(c) ? ' ' : '')) || 'file',
    };
  }
  const bad = FORBIDDEN.exec(segment);
  if (bad) {
    return {
      key: 'char',
      why: `contains "${bad[0]}", which Windows does not allow in file names (none of : * ? " < > | are allowed)`,
      instead: segment.replace(FORBIDDEN_ALL, '-'),
    };
  }
  if (RESERVED.test(segment)) {
    const dot = segment.indexOf('.');
    const stem = dot < 0 ? segment : segment.slice(0, dot);
    return {
      key: 'reserved',
      why: `is a reserved device name on Windows ("${stem.toUpperCase()}", whatever the extension)`,
      instead: `${stem}-file${dot < 0 ? '' : segment.slice(dot)}`,
    };
  }
  if (/[. ]$/.test(segment) && segment !== '.' && segment !== '..') {
    return {
      key: 'trailing',
      why: 'ends with a dot or a space, which Windows removes (the file would get another name)',
      instead: segment.replace(/[. ]+$/, '') || 'file',
    };
  }
  if (Buffer.byteLength(segment, 'utf8') > MAX_NAME_BYTES) {
    return {
      key: 'long',
      why: `is ${Buffer.byteLength(segment, 'utf8')} bytes long; names can be at most ${MAX_NAME_BYTES} bytes (about 85 Chinese characters)`,
      instead: shorten(segment),
    };
  }
  return undefined;
}

export type NameProblemKey = 'control' | 'invisible' | 'char' | 'reserved' | 'trailing' | 'long';

/** Refuse a relative path whose segments are not portable; `shown` is how the path is quoted. */
export function checkPortable(parts: readonly string[], shown: string): void {
  for (const [i, part] of parts.entries()) {
    const problem = nameProblem(part);
    if (!problem) continue;
    const suggestion = [...parts.slice(0, i), problem.instead, ...parts.slice(i + 1)].join('/');
    throw new ToolError(
      `"${shown}" cannot be written: "${part}" ${problem.why}. Use a name such as "${suggestion}" instead.`,
      { key: `safety.name.${problem.key}`, params: { path: shown, name: part, instead: suggestion } },
    );
  }
}

/** Keep the extension and as much of the stem as fits. */
function shorten(name: string): string {
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
  let stem = name.slice(0, name.length - ext.length);
  while (Buffer.byteLength(stem + ext, 'utf8') > 100) stem = Array.from(stem).slice(0, -1).join('');
  return stem + ext;
}
