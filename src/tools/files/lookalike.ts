/**
 * File names that look like another: `report.md` beside `rеport.md` (a Cyrillic е), `café.md` in
 * NFC beside the same name in NFD, `notes.md` beside `no\u00adtes.md` (a soft hyphen). A person
 * approving or opening the file cannot tell them apart, so file_write refuses to create a name
 * whose skeleton — the name with invisible characters and overlays removed, compatibility forms
 * folded (NFKD) and common Cyrillic/Greek/Latin look-alikes mapped to one letter — matches that of
 * a file already there. The table is the common confusables of UTS #39, not all of it.
 */
import { readdir } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { revealed } from '../../support/sanitize.js';
import { ToolError } from '../types.js';

/** Characters that draw nothing or only overlay the one before (removed from the skeleton). */
// Built from a string: the class mixes combining marks on purpose (they are what is removed).
const DROPPED_CLASS =
  '\\u00ad\\u034f\\u115f\\u1160\\u17b4\\u17b5\\u180e\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\u2800\\u3164\\ufe00-\\ufe0f\\ufeff\\uffa0\\u0334-\\u0338\\u20d2\\u20d3\\u20d8-\\u20da\\u20e5\\u20e6\\u20ea\\u20eb\\u{e0000}-\\u{e007f}\\u{e0100}-\\u{e01ef}';
const DROPPED = new RegExp(`[${DROPPED_CLASS}]`, 'gu');

/** Each letter on the left looks like the one it maps to. */
const CONFUSABLE: Record<string, string> = {
  // Cyrillic
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  Ѕ: 'S',
  І: 'l',
  Ј: 'J',
  Ү: 'Y',
  Ԛ: 'Q',
  Ԝ: 'W',
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ј: 'j',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  һ: 'h',
  ӏ: 'l',
  ɡ: 'g',
  // Greek
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'l',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
  ο: 'o',
  ν: 'v',
  ρ: 'p',
  ι: 'i',
  α: 'a',
  κ: 'k',
  // Latin and digits that pass for each other
  ı: 'i',
  I: 'l',
  '1': 'l',
  '0': 'O',
  ℓ: 'l',
};

/** The name as it looks: two names with one skeleton cannot be told apart on a screen. */
export function skeleton(name: string): string {
  const folded = name.normalize('NFKD').replace(DROPPED, '');
  let out = '';
  for (const ch of folded) out += CONFUSABLE[ch] ?? ch;
  return out.normalize('NFC');
}

/**
 * Refuse to create `abs` when its folder holds another name that looks the same. Writing over
 * the very name that is there is not a look-alike (the overwrite question handles it).
 */
export async function checkLookAlike(abs: string, shown: string): Promise<void> {
  const name = basename(abs);
  const entries = await readdir(dirname(abs)).catch(() => [] as string[]);
  if (entries.includes(name)) return;
  const mine = skeleton(name);
  const twin = entries.find((e) => skeleton(e) === mine);
  if (!twin) return;
  throw new ToolError(
    `Not written: "${shown}" looks the same as the existing "${twin}" but is a different name (${differences(name, twin)}), so a person could not tell the two files apart. Write to "${twin}" itself, or choose a clearly different name.`,
    { key: 'safety.name.lookalike', params: { name: revealed(name), existing: twin } },
  );
}

/** What makes the two names differ, said in code points (the model cannot see them either). */
function differences(a: string, b: string): string {
  const code = (s: string) =>
    [...s]
      .filter((c) => c.codePointAt(0)! > 0x7e)
      .map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`)
      .join(' ');
  const ca = code(a);
  const cb = code(b);
  if (a.normalize('NFC') === b.normalize('NFC')) return 'the same letters in another Unicode normal form';
  return `non-ASCII characters: ${ca || 'none'} against ${cb || 'none'}`;
}
