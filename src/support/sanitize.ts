/**
 * The one sanitizer for text that came from the model or from a file and is about to be shown on
 * the terminal (streamed answers, reasoning, tool labels, previews, paths, error lines, skill
 * output). Control characters and escape sequences are made visible, never executed, so that
 * only zhi's own styling reaches the terminal: a model cannot turn line wrap off (`ESC[?7l`),
 * move the cursor, clear the screen, set the window title, or hide text with bidi overrides.
 */

export interface VisibleOptions {
  /** Keep `\n` as a real line break (multi-line answers, previews). Otherwise shown as `↵`. */
  keepNewlines?: boolean;
  /** Keep `\t` (tables of plain text). Otherwise shown as `→`. */
  keepTabs?: boolean;
}

// C0 controls but \t and \n, DEL, C1 controls, Unicode line/paragraph separators, bidi
// embeddings/overrides/isolates, marks and the Arabic letter mark (Trojan Source), and invisible
// characters that hide or split text (zero-width space, word joiner, invisible operators, BOM,
// Mongolian vowel separator), and Unicode tag characters (invisible ASCII look-alikes that
// models read and people do not). The zero-width joiner and non-joiner stay: emoji and scripts
// need them.
const UNSAFE_CLASS =
  '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069\\u061c\\u200b\\u200e\\u200f\\u2060-\\u2064\\ufeff\\u180e\\u{e0000}-\\u{e007f}';
const UNSAFE = new RegExp(`[${UNSAFE_CLASS}]`, 'gu');
const UNSAFE_TEST = new RegExp(`[${UNSAFE_CLASS}]`, 'u');

/**
 * Characters that draw nothing or change how the one before them looks, harmless in an answer but
 * a way to make two different things look the same where a person decides (an approval, a file
 * name): soft hyphen, combining grapheme joiner, Hangul fillers, Khmer inherent vowels, zero-width
 * (non-)joiner, variation selectors, combining overlays (U+0334–U+0338, U+20D2…), and spaces that
 * are not U+0020. `revealed()` shows them as `⟨U+XXXX⟩`; file names refuse them.
 */
const INVISIBLE_CLASS =
  '\\u00a0\\u00ad\\u034f\\u115f\\u1160\\u17b4\\u17b5\\u2000-\\u200a\\u200c\\u200d\\u202f\\u205f\\u2800\\u3164\\uffa0\\ufe00-\\ufe0f\\u0334-\\u0338\\u20d2\\u20d3\\u20d8-\\u20da\\u20e5\\u20e6\\u20ea\\u20eb\\u{e0100}-\\u{e01ef}\\u{1d159}\\u{1d173}-\\u{1d17a}';
const HIDDEN = new RegExp(`[${UNSAFE_CLASS}${INVISIBLE_CLASS}]`, 'gu');
const HIDDEN_TEST = new RegExp(`[${UNSAFE_CLASS}${INVISIBLE_CLASS}]`, 'u');

const NAMED: Record<string, string> = {
  '\u001b': '␛',
  '\r': '\\r',
  '\b': '\\b',
  '\f': '\\f',
  '\v': '\\v',
  '\u0000': '\\0',
  '\u0007': '\\a',
};

function shown(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const code = ch.codePointAt(0) ?? 0;
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `⟨U+200B⟩`: a character named where a person must see exactly what is there. */
function named(ch: string): string {
  if (ch === '\n' || ch === '\t') return ch;
  return `⟨U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/** The text with every control character and escape introducer made visible. */
export function visible(text: string, opts: VisibleOptions = {}): string {
  // A Windows line end is a line end, not a `\r` to show (split before controls are shown).
  let out = opts.keepNewlines ? text.replace(/\r+\n/g, '\n') : text;
  if (UNSAFE_TEST.test(out)) out = out.replace(UNSAFE, shown);
  if (!opts.keepNewlines && out.includes('\n')) out = out.replaceAll('\n', '↵');
  if (!opts.keepTabs && out.includes('\t')) out = out.replaceAll('\t', '→');
  return out;
}

/** True when the text holds a character `visible` would change (other than `\n` and `\t`). */
export function hasControl(text: string): boolean {
  return UNSAFE_TEST.test(text);
}

/** The distinct characters `visible` would change (other than `\n` and `\t`), each as it shows them. */
export function controlsIn(text: string): string[] {
  return [...new Set(text.match(UNSAFE) ?? [])].map((c) => shown(c));
}

/**
 * The text as a person must see it before deciding (an approval's URL, shell line, MCP arguments,
 * a file name): on one line, every control, escape, invisible and look-alike-making character
 * named as `⟨U+XXXX⟩`, so two requests that look the same are the same.
 */
export function revealed(text: string, o: { keepTabs?: boolean } = {}): string {
  const out = (HIDDEN_TEST.test(text) ? text.replace(HIDDEN, named) : text).replaceAll('\n', '↵');
  return o.keepTabs ? out : out.replaceAll('\t', '→');
}

/**
 * The last line before the terminal, for output that is not a terminal (a pipe, `less -R`, a
 * file): every control character but `\n` and `\t`, and every escape sequence but zhi's own
 * colours (`ESC[…m`, when `keepColours`) becomes a `\uXXXX` escape, which reads as what it is
 * and keeps JSON valid. Text from the model passed `visible()` already; this catches what a path
 * forgot.
 */
export function screenSafe(text: string, o: { keepColours?: boolean } = {}): string {
  if (!UNSAFE_TEST.test(text)) return text;
  const escaped = (ch: string) => {
    const code = ch.codePointAt(0) ?? 0;
    if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, '0')}`;
    const hi = Math.floor((code - 0x10000) / 0x400) + 0xd800;
    const lo = ((code - 0x10000) % 0x400) + 0xdc00;
    return `\\u${hi.toString(16)}\\u${lo.toString(16)}`;
  };
  const sgr = o.keepColours ? /\u001b\[[0-9;:]*m/y : undefined;
  let out = '';
  for (let i = 0; i < text.length; ) {
    if (sgr) {
      sgr.lastIndex = i;
      const m = sgr.exec(text);
      if (m) {
        out += m[0];
        i += m[0].length;
        continue;
      }
    }
    const ch = String.fromCodePoint(text.codePointAt(i) ?? 0);
    out += ch === '\r' && text[i + 1] === '\n' ? ch : UNSAFE_TEST.test(ch) ? escaped(ch) : ch;
    i += ch.length;
  }
  return out;
}
