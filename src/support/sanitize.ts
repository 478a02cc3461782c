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
// Mongolian vowel separator). The zero-width joiner and non-joiner stay: emoji and scripts need them.
const UNSAFE_CLASS =
  '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069\\u061c\\u200b\\u200e\\u200f\\u2060-\\u2064\\ufeff\\u180e';
const UNSAFE = new RegExp(`[${UNSAFE_CLASS}]`, 'g');
const UNSAFE_TEST = new RegExp(`[${UNSAFE_CLASS}]`);

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
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
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
