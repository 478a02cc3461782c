import type { Key } from 'node:readline';
import type { TextBuffer } from './buffer.js';

/** What a key asks of the editor beyond changing the text (those it does itself). */
export type KeyAction =
  | 'edited'
  | 'ignored'
  | 'enter'
  | 'tab'
  | 'up'
  | 'down'
  | 'older'
  | 'newer'
  | 'search'
  | 'clear'
  | 'ctrl-x'
  | 'paste-image';

const CONTROL = /^[\x00-\x08\x0b-\x1f\x7f]$/;

/** An editing key: change the buffer, then redraw. */
const edit =
  (change: (b: TextBuffer) => void) =>
  (b: TextBuffer): KeyAction => {
    change(b);
    return 'edited';
  };

const CTRL: Record<string, (b: TextBuffer) => KeyAction> = {
  a: edit((b) => b.home()),
  e: edit((b) => b.end()),
  b: edit((b) => b.left()),
  f: edit((b) => b.right()),
  d: edit((b) => b.deleteForward()),
  h: edit((b) => b.backspace()),
  u: edit((b) => b.killBefore()),
  k: edit((b) => b.killAfter()),
  w: edit((b) => b.killWord()),
  left: edit((b) => b.wordLeft()),
  right: edit((b) => b.wordRight()),
  l: () => 'clear',
  x: () => 'ctrl-x',
  v: () => 'paste-image',
  r: () => 'search',
  p: () => 'older',
  n: () => 'newer',
  j: () => 'enter',
  m: () => 'enter',
};

const PLAIN: Record<string, (b: TextBuffer) => KeyAction> = {
  return: () => 'enter',
  enter: () => 'enter',
  backspace: edit((b) => b.backspace()),
  delete: edit((b) => b.deleteForward()),
  left: edit((b) => b.left()),
  right: edit((b) => b.right()),
  home: edit((b) => b.home()),
  end: edit((b) => b.end()),
  up: () => 'up',
  down: () => 'down',
  tab: () => 'tab',
  escape: () => 'ignored',
};

/**
 * Apply an editing key to the text (Emacs keys as in bash and readline), or say what else it
 * asks for. Printable text — a key, or a whole word an input method commits at once — is
 * inserted at the cursor.
 */
export function applyKey(b: TextBuffer, s: string | undefined, k: Key): KeyAction {
  const name = k.name ?? '';
  if (k.ctrl && !k.meta) return CTRL[name]?.(b) ?? 'ignored';
  if (k.meta) {
    if (name === 'b' || name === 'left') b.wordLeft();
    else if (name === 'f' || name === 'right') b.wordRight();
    else if (name === 'backspace') b.killWord();
    else if (name === 'return' || name === 'enter') b.insert('\n');
    else return 'ignored';
    return 'edited';
  }
  const plain = PLAIN[name];
  if (plain) return plain(b);
  const text = s ?? '';
  if (!text || CONTROL.test(text) || (k.sequence?.startsWith('\x1b') && text.length > 1)) return 'ignored';
  b.insert(text.replace(/\r\n?/g, '\n'));
  return 'edited';
}
